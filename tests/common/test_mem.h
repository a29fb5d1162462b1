/* A memory request as the memory-side tests write them: `mask` sectors of the line at `addr`,
 * read or written whole, from global memory. */
#ifndef RFSIM_TEST_MEM_H
#define RFSIM_TEST_MEM_H

#include "../../csim/mem/mem_internal.h"

static inline mem_req tu_mem_req(uint64_t addr, uint8_t mask, uint32_t token, int write) {
  mem_req r = {.a = {.addr = addr, .sector_mask = mask, .full_mask = write ? mask : 0,
                     .size = (uint16_t)(32 * __builtin_popcount(mask)), .token = token,
                     .is_write = (uint8_t)write, .space = SPACE_GLOBAL}};
  return r;
}

#endif
