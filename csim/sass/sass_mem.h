/* Device memory of the interpreted GPU: allocations in a device address space of their own,
 * backed by host memory. Addresses are handed out upward from SASS_HEAP_BASE, rounded to 512
 * bytes as the CUDA driver does for small allocations (the shared vectoradd trace shows 400-byte
 * buffers 0x200 apart), and never reused after a free, so the same program gives the same
 * addresses on every run and a stale pointer is caught instead of aliasing a new buffer. Every
 * access is checked against the allocation it falls in. */
#ifndef RFSIM_SASS_MEM_H
#define RFSIM_SASS_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"

#define SASS_HEAP_BASE 0x00007f0000000000ull
#define SASS_HEAP_END 0x00007f3a00000000ull
#define SASS_SHARED_WINDOW 0x00007f3a5c000000ull /* generic addresses of shared memory */
#define SASS_LOCAL_WINDOW 0x00007f3a5a000000ull  /* ... and of local memory */
#define SASS_WINDOW_BYTES 0x1000000ull           /* 16 MB each, as NVBit documents */
#define SASS_ALLOC_ALIGN 512u

typedef struct sass_alloc {
  uint64_t base, size;
  uint8_t *host;
  int is_symbol; /* a module's __device__/__constant__ storage, freed with the module */
} sass_alloc;

typedef struct sass_devmem {
  sass_alloc *a; /* sorted by base */
  int n, cap;
  uint64_t next;
  int last;      /* index of the last allocation an access hit */
  uint64_t bytes_live, bytes_peak, limit;
} sass_devmem;

void sass_devmem_init(sass_devmem *m, uint64_t limit_bytes);
void sass_devmem_free_all(sass_devmem *m);
int sass_devmem_alloc(sass_devmem *m, uint64_t size, uint64_t *addr, rf_diag *d);
/* 0, or -1 if addr is not the start of a live allocation made by sass_devmem_alloc. */
int sass_devmem_release(sass_devmem *m, uint64_t addr, rf_diag *d);
/* A module's __device__/__constant__ storage: never freed by sass_devmem_release. */
int sass_devmem_alloc_module(sass_devmem *m, uint64_t size, uint64_t *addr, rf_diag *d);
int sass_devmem_release_module(sass_devmem *m, uint64_t addr);
/* Host memory for [addr, addr + n) if it lies inside one allocation, else NULL. */
uint8_t *sass_devmem_at(sass_devmem *m, uint64_t addr, uint64_t n);
/* The allocation containing addr, or NULL. */
const sass_alloc *sass_devmem_find(sass_devmem *m, uint64_t addr);

#endif
