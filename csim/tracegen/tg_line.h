/* The Accel-Sim trace text, one piece at a time: the kernel header, the thread-block and warp
 * headers and one instruction line, laid out byte for byte as NVBit's tracer and its
 * post-processing write them. Both trace writers use it: tracegen's synthetic kernels
 * (tg_write.c) and the SASS interpreter's real ones (csim/sass). */
#ifndef RFSIM_TG_LINE_H
#define RFSIM_TG_LINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TG_LINE_MAX 1024
#define TG_LINE_MAX_SRC 5

typedef struct tg_kernel_header {
  const char *name;
  int id;
  uint32_t grid[3], block[3];
  uint32_t shmem, nregs;
  int binary_version;
  uint64_t shmem_base, local_base;
  int tracer_version;
} tg_kernel_header;

typedef struct tg_line_inst {
  uint32_t pc, mask;
  int dst;         /* -1: none */
  const char *op;  /* opcode with modifiers */
  int nsrc;
  const uint8_t *src;
  int width;       /* bytes per lane of a memory instruction, 0 otherwise */
  const uint64_t *addrs; /* the 32 lanes' addresses when width > 0 */
} tg_line_inst;

/* Formats the address part ("mode base ...", each token followed by a space). Returns the
 * length written. */
int tg_format_addrs(char *buf, size_t size, uint32_t mask, const uint64_t addrs[32]);
/* One instruction line without the newline; its length, or -1 if it does not fit. */
int tg_format_line(char *buf, size_t size, const tg_line_inst *li);

int tg_put_kernel_header(FILE *f, const tg_kernel_header *h);
int tg_put_tb_begin(FILE *f, long x, long y, long z);
int tg_put_warp_header(FILE *f, int warp, long insts);
int tg_put_tb_end(FILE *f);

#endif
