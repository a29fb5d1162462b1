/* The stand-in CUDA runtime's state. A CUDA runtime is process-wide by its API (cudaMalloc
 * takes no context), so this one state is global, reached only through cudart(); the API is
 * served from one thread at a time, as the programs rfsim traces use it. */
#ifndef RFSIM_CUDART_STATE_H
#define RFSIM_CUDART_STATE_H

#include <stdint.h>
#include <stdio.h>

#include "../common/diag.h"
#include "../sass/sass_mem.h"
#include "../sass/sass_module.h"
#include "../tracegen/tg_stream.h"
#include "cudart_abi.h"

/* the device the program sees: a config's SM count and limits (rfsim-trace -config), with the
 * compute capability of the code it runs */
typedef struct cudart_device {
  char name[128];
  int sms, regs_per_sm, regs_per_block, threads_per_sm, ctas_per_sm;
  int smem_per_sm, smem_per_block, clock_khz, mem_clock_khz, bus_bits, l2_bytes;
  uint64_t global_bytes;
} cudart_device;

/* one __cudaRegisterFatBinary: its cubins, decoded when first needed */
typedef struct cudart_fatbin {
  const void *data;
  int loaded;
  int nmods;
  sass_module *mods;
} cudart_fatbin;

typedef struct cudart_func {
  const void *host;
  int fatbin;
  char *name;
} cudart_func;

typedef struct cudart_var {
  const void *host;
  int fatbin;
  char *name;
} cudart_var;

typedef struct cudart_state {
  int ready;
  cudart_device dev;
  sass_devmem mem;
  cudart_fatbin *fatbins;
  int nfatbins;
  cudart_func *funcs;
  int nfuncs;
  cudart_var *vars;
  int nvars;
  dim3 cfg_grid, cfg_block;
  size_t cfg_shmem;
  int cfg_depth;          /* pushed launch configurations not yet popped */
  cudaError_t last_error;
  const char *cuobjdump;
  int want_sm;            /* RFSIM_TRACE_SM: the architecture to run, 0 to choose */
  int run_sm;             /* the architecture of the code loaded (device properties) */
  /* tracing (set by rfsim-trace through the environment; off when RFSIM_TRACE_DIR is unset) */
  const char *trace_dir;
  int trace_xz;           /* kernel-N.traceg.xz (RFSIM_TRACE_XZ=1, rfsim-trace -xz) */
  const char *kernel_filter; /* launch numbers and names to trace; NULL: all */
  const char *regs_spec;     /* NAME=N,...: registers per thread a trace header gives; NULL: none */
  uint64_t kernel_items_hit, regs_items_hit; /* bit i: item i of the list selected a launch */
  uint64_t budget;
  int launches;           /* kernel launches so far */
  int traced;             /* kernel-N.traceg written */
  uint64_t traced_insts;
  double trace_seconds;
} cudart_state;

cudart_state *cudart(void);
/* Stops the program: a kernel fault or a runtime failure that a real GPU would also end the
 * process with (the message goes to stderr and, when tracing, beside the trace for rfsim-trace). */
_Noreturn void cudart_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The modules of fatbin i, decoded on first use. */
int cudart_fatbin_load(cudart_state *s, int i, rf_diag *d);
/* The registers per thread rfsim-trace -regs gives kernel `symbol`'s trace, 0 if none (noted
 * as used when the launch is `traced`). */
int cudart_trace_regs(cudart_state *s, const char *symbol, int code_regs, int traced);
/* Extracts a fatbin's cubins for one architecture with cuobjdump (want_sm, or Pascal's if
 * there, else Volta's) and loads them with their SASS listings. */
int cudart_fatbin_modules(const void *fatbin, const char *cuobjdump, int want_sm,
                          sass_devmem *mem, sass_module **mods, int *nmods, rf_diag *d);

/* The module and kernel of a kernel's host stub (its fatbin loaded on first use); -1 if func
 * is no registered kernel. */
int cudart_find_kernel(cudart_state *s, const void *func, sass_module **mod, int *k);

/* tracing: whether launch n of `name` is traced; writing kernelslist.g lines */
int cudart_trace_wanted(cudart_state *s, int launch, const char *name);
void cudart_trace_memcpy(cudart_state *s, uint64_t dst, uint64_t bytes);
tg_stream *cudart_trace_open_kernel(cudart_state *s, int id, char *path, size_t size);
void cudart_trace_close_kernel(cudart_state *s, tg_stream *f, const char *path, int id);

#endif
