#include "mem_hash.h"

#include <pthread.h>

/* One table per index width IPOLY defines (4, 5, 6 bits), built once: every cache and slice
 * map with that width reads the same 772 bytes. */
static mem_ipoly_table tables[3];
static pthread_once_t tables_built = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  for (int bits = 4; bits <= 6; bits++) {
    mem_ipoly_table *t = &tables[bits - 4];
    for (int k = 0; k < 3; k++)
      for (uint32_t b = 0; b < 256; b++)
        t->byte[k][b] = (uint8_t)mem_ipoly((uint64_t)b << (8 * k), 0, bits);
    t->index_mask = (1u << bits) - 1;
  }
}

const mem_ipoly_table *mem_ipoly_table_of(int index_bits) {
  pthread_once(&tables_built, build_tables);
  return &tables[index_bits - 4];
}
