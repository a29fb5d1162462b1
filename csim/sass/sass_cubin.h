/* What a cubin says about its kernels, beyond their code: registers, the parameter layout in
 * constant bank 0 (.nv.info EIATTR_PARAM_CBANK / KPARAM_INFO), static shared memory
 * (.nv.shared.<kernel>), the local-memory frame and stack (EIATTR_FRAME_SIZE / MAX_STACK_SIZE),
 * the per-kernel compiler constants (.nv.constant2.<kernel>) and the relocations that patch
 * addresses of __device__ variables into the code (.rel.text.<kernel>). */
#ifndef RFSIM_SASS_CUBIN_H
#define RFSIM_SASS_CUBIN_H

#include <stdint.h>

#include "sass_elf.h"

/* relocation types seen in sm_5x-7x cubins: the low or high half of a symbol's address, written
 * into a 32-bit immediate (MOV32I and friends) */
#define SASS_R_ABS32_LO_32 0x2b
#define SASS_R_ABS32_HI_32 0x2c
#define SASS_R_ABS32_LO_20 0x2d /* ...or a 20-bit immediate */
#define SASS_R_ABS32_HI_20 0x2e
#define SASS_R_ABS32_LO_32_V 0x38 /* the same in sm_70's 128-bit encoding */
#define SASS_R_ABS32_HI_32_V 0x39

typedef struct sass_reloc {
  uint64_t offset; /* in the kernel's code */
  uint32_t type;
  int sym;         /* index in the ELF symbol table */
} sass_reloc;

typedef struct sass_kparam {
  uint32_t offset, size; /* in the parameter area */
} sass_kparam;

typedef struct sass_kinfo {
  const char *name;
  int text;               /* section index of .text.<name> */
  uint32_t code_bytes;
  int nregs;
  uint32_t param_base;    /* byte offset of the parameters in constant bank 0 */
  uint32_t param_bytes;
  int nparams;
  sass_kparam *params;    /* by ordinal */
  uint32_t shared_bytes;  /* static shared memory */
  uint32_t frame_bytes, min_stack_bytes, max_stack_bytes;
  int const2;             /* section index of .nv.constant2.<name>, or -1 */
  int nrel;
  sass_reloc *rel;
} sass_kinfo;

typedef struct sass_cubin {
  sass_elf elf;
  int nk;
  sass_kinfo *k;
} sass_cubin;

int sass_cubin_open(const uint8_t *buf, size_t len, const char *path, sass_cubin *c,
                    rf_diag *d);
void sass_cubin_close(sass_cubin *c);
int sass_cubin_kernel(const sass_cubin *c, const char *name);

#endif
