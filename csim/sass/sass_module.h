/* A loaded CUDA module: one cubin's kernels decoded from its SASS listing, with its __device__
 * and __constant__ data placed in device memory and the code's references to them relocated.
 * Everything that can be checked before running is checked here (every instruction decoded and
 * understood, every branch target inside the kernel), so a kernel that loads runs to the end or
 * stops with a fault that names where. */
#ifndef RFSIM_SASS_MODULE_H
#define RFSIM_SASS_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "sass_cubin.h"
#include "sass_inst.h"
#include "sass_mem.h"

typedef struct sass_kernel {
  const sass_kinfo *info;
  sass_inst *code;  /* one slot per instruction size of code (8 bytes on sm_5x/6x, 16 from
                     * sm_70); control words and padding are not valid */
  uint32_t nslots;
  uint8_t pc_shift; /* log2 of the instruction size */
  const uint8_t *const2; /* the kernel's compiler constants (bank 2), or NULL */
  uint32_t const2_bytes;
  uint32_t local_bytes;  /* per thread: frame and call stack */
} sass_kernel;

typedef struct sass_module {
  char *path;
  uint8_t *cubin;
  size_t cubin_len;
  sass_cubin cb;
  int sm;
  int nk;
  sass_kernel *k;
  uint64_t *sec_addr; /* device address of each data section placed in device memory, or 0 */
  sass_devmem *mem;
} sass_module;

/* Loads a cubin (copied) and its `cuobjdump -sass` listing; places its data in mem. */
int sass_module_load(sass_module *m, const uint8_t *cubin, size_t len, const char *cubin_path,
                     const char *listing, size_t listing_len, const char *listing_path,
                     sass_devmem *mem, rf_diag *d);
void sass_module_unload(sass_module *m);
int sass_module_kernel(const sass_module *m, const char *name);
/* The device address and size of a __device__ or __constant__ variable. */
int sass_module_symbol(const sass_module *m, const char *name, uint64_t *addr, uint64_t *size);
/* Host memory behind constant bank `bank` of the module (bank 3: __constant__ data), or NULL. */
const uint8_t *sass_module_cbank(const sass_module *m, int bank, uint32_t *bytes);

#endif
