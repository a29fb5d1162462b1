/* Streaming reader for Accel-Sim SASS traces (kernelslist.g + kernel-N.traceg, tracer v3-v5).
 *
 * The command list is small and read whole; each kernel file is read one thread block at a time,
 * in file order, so memory stays proportional to the resident CTAs rather than to the trace.
 * Every token is validated; errors read "file:line: expected X, found Y". */
#ifndef RFSIM_TRACE_H
#define RFSIM_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"
#include "../config/config.h"

#define TRACE_WARP_SIZE 32
#define TRACE_MAX_DST 4
#define TRACE_MAX_SRC 8
#define TRACE_RZ 255 /* R255 reads as zero: never a register-file operand */
/* Limits of a kernel's shape, checked on its header before anything is sized from it. */
#define TRACE_MAX_THREADS_PER_TB 4096u
#define TRACE_MAX_TBS (1ull << 32)
#define TRACE_MAX_WARP_INSTS (1l << 30) /* `insts = n` of one warp */
#define TRACE_MAX_WARP_MEM_INSTS (1u << 25) /* x 32 addresses: below trace_inst.addr_off's 2^30 */

/* What an instruction does, as the SM model needs it. */
typedef enum op_kind {
  OPK_ALU = 0,  /* anything executed on a compute pipeline */
  OPK_LOAD,     /* memory read (incl. LDS, LDL, LDG, LD, atomics that return a value) */
  OPK_STORE,    /* memory write, reduction */
  OPK_ATOMIC,   /* ATOM/ATOMG/ATOMS/RED: read-modify-write at L2 */
  OPK_BARRIER,  /* BAR.SYNC / BAR.RED: CTA-wide barrier */
  OPK_MEMBAR,   /* MEMBAR: waits for the warp's outstanding stores */
  OPK_BRANCH,   /* control flow: issues, no pipeline */
  OPK_EXIT,     /* EXIT: the warp (its active threads) finishes */
  OPK_NOP,
  OPK_COUNT
} op_kind;

typedef enum mem_space {
  SPACE_NONE = 0,
  SPACE_GLOBAL,
  SPACE_SHARED,
  SPACE_LOCAL,
  SPACE_CONST,
  SPACE_TEX,
  SPACE_GENERIC, /* LD/ST: resolved per address against the kernel's shared/local windows */
  SPACE_INST     /* instruction fetch (never in a trace; routes L1I traffic) */
} mem_space;

/* What an instruction is, as its PC fixes it: kept once per kernel (trace_ops.h: its blocks
 * share it) and pointed to by every dynamic instance of it in the blocks' warps. A kernel
 * has a few hundred of them against hundreds of thousands of instances, so instances stay
 * small (trace_inst). Built zeroed (`= {0}`): ops are compared and hashed as bytes, so no
 * implicit padding is left. */
typedef struct trace_op {
  uint64_t pc;
  uint32_t line;       /* source line (lineinfo traces), else 0 */
  uint32_t imm;        /* trailing immediate (tracer v5), valid if has_imm */
  uint16_t opcode;     /* index into the opcode table (trace_opcode_name) */
  uint8_t kind;        /* op_kind */
  uint8_t unit;        /* op_unit (config.h) */
  uint8_t space;       /* mem_space */
  uint8_t width;       /* bytes per thread for memory instructions, else 0 */
  uint8_t ndst, nsrc;  /* register operands, RZ excluded */
  uint8_t dst[TRACE_MAX_DST];
  uint8_t src[TRACE_MAX_SRC];
  uint8_t has_imm;
  uint8_t is_mem;      /* has addresses in the pool */
  uint8_t reserved[2]; /* 0 */
} trace_op;

/* One dynamic instruction of a warp, in 16 bytes: a resident block's instructions are most of
 * what the SMs read from memory on a large config, so the address form shares a word with the
 * offset (which TRACE_MAX_WARP_MEM_INSTS keeps below 2^30). */
typedef struct trace_inst {
  const trace_op *op;        /* in its block's ops (trace_tb.ops) */
  uint32_t mask;             /* active threads */
  uint32_t addr_off : 30;    /* if op->is_mem: where its addresses start in the warp's pool */
  uint32_t addr_form : 2;    /* trace_addr_form of those addresses (trace_addrs.h) */
} trace_inst;
_Static_assert(sizeof(trace_inst) <= 16, "trace_inst grew past 16 bytes");

typedef struct trace_warp {
  trace_inst *insts;
  uint32_t n;
  uint64_t *addrs;     /* per memory instruction 32 (inactive lanes 0), or 2 or 3 once
                        * packed (trace_addrs.h) */
  uint32_t naddrs;
} trace_warp;

typedef struct trace_tb {
  int id[3];           /* blockIdx */
  long linear_id;      /* x + y*gx + z*gx*gy */
  int nwarps;
  trace_warp *warps;   /* nwarps entries, warp w at index w */
  struct trace_op_pool *ops; /* the kernel's ops its instructions point to, held (trace_ops.h) */
} trace_tb;

typedef struct trace_kernel_info {
  char name[256];
  int id;
  int grid[3], block[3];
  int shmem;           /* bytes per CTA */
  int nregs;           /* registers per thread */
  int binary_version;
  uint64_t stream_id;  /* NVBit writes the stream's handle */
  uint64_t shmem_base, local_base;
  int tracer_version;
  int lineinfo;
  long num_tbs;        /* grid[0]*grid[1]*grid[2] */
  int threads_per_tb;  /* block[0]*block[1]*block[2] */
  int warps_per_tb;
} trace_kernel_info;

typedef enum trace_cmd_kind { TRACE_CMD_MEMCPY = 0, TRACE_CMD_KERNEL } trace_cmd_kind;

typedef struct trace_cmd {
  trace_cmd_kind kind;
  uint64_t addr, bytes;  /* MemcpyHtoD */
  char *path;            /* kernel file, resolved against the list's folder */
  long line;             /* line in kernelslist.g */
} trace_cmd;

typedef struct trace_list {
  char *path;
  trace_cmd *cmds;
  int ncmds;
  int nkernels;
} trace_list;

int trace_list_read(const char *kernelslist_path, trace_list **out, rf_diag *d);
void trace_list_free(trace_list *l);

typedef struct trace_kernel trace_kernel; /* an open kernel file, positioned between TBs */

/* Opens and parses the header; the stream is left at the first #BEGIN_TB. Reads the text only. */
int trace_kernel_open(const char *path, trace_kernel **out, rf_diag *d);

/* The binary trace cache (-trace_cache, csim/trace/trace_cache.h has the format): a derived
 * copy of the parsed trace, kept in the user's cache folder (trace_cache_user_dir) or in `dir`,
 * never beside the trace. ON reads a valid cache or else reads the text and writes the cache
 * while doing so; REBUILD always does the latter; OFF reads the text and writes nothing. The
 * cache is never required: a cache that is missing, stale (the trace's identity differs), made
 * by another rfsim, truncated or corrupt, or that cannot be written, means reading the text
 * (from the start, rebuilding the cache, if a block turns out corrupt halfway), with the same
 * thread blocks either way. */
typedef enum trace_cache_mode {
  TRACE_CACHE_OFF = 0,
  TRACE_CACHE_ON,
  TRACE_CACHE_REBUILD
} trace_cache_mode;
#define TRACE_CACHE_MAX_MB_DEFAULT 4096 /* -trace_cache_max_mb */
typedef struct trace_cache_opts {
  trace_cache_mode mode;
  const char *dir;    /* cache folder, or NULL: the user's (trace_cache_user_dir) */
  uint64_t max_bytes; /* the folder's caches are kept under this, the least recently used
                         deleted first; 0: no bound */
} trace_cache_opts;
/* The user's cache folder: $XDG_CACHE_HOME/rfsim if XDG_CACHE_HOME is an absolute path, else
 * $HOME/.cache/rfsim. -1 (and "") if there is neither: then no cache is kept. */
int trace_cache_user_dir(char *buf, size_t n);
/* "on", "off", "rebuild"; 0 or -1. */
int trace_cache_mode_parse(const char *s, trace_cache_mode *m);
/* As trace_kernel_open, through the cache (o NULL: OFF). */
int trace_kernel_open_cached(const char *path, const trace_cache_opts *o, trace_kernel **out,
                             rf_diag *d);
/* Whether thread blocks currently come from a cache / go to a cache being built. */
int trace_kernel_reads_cache(const trace_kernel *k);
int trace_kernel_writes_cache(const trace_kernel *k);
const trace_kernel_info *trace_kernel_get_info(const trace_kernel *k);
/* Reads the next thread block into *tb (allocating; free with trace_tb_free).
 * Returns 1 if a TB was read, 0 at the end of the file (after checking that exactly num_tbs
 * were seen), -1 on error. */
int trace_kernel_next_tb(trace_kernel *k, trace_tb *tb, rf_diag *d);
/* From now on the blocks come with their addresses packed (trace_addrs.h), as the simulator
 * keeps them; otherwise (the default) 32 lanes per memory instruction. */
void trace_kernel_pack_addrs(trace_kernel *k);
void trace_kernel_close(trace_kernel *k);
void trace_tb_free(trace_tb *tb);

/* Opcode table: base mnemonic (before the first '.') -> kind/unit. */
const char *trace_opcode_name(uint16_t opcode);
int trace_opcode_count(void);
const char *trace_op_kind_name(op_kind k);

#endif
