/* kernel-N.traceg: the header, then thread blocks read one at a time. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/checked.h"
#include "line_reader.h"
#include "trace.h"
#include "trace_addrs.h"
#include "trace_cache.h"
#include "trace_inst.h"
#include "trace_ops.h"
#include "trace_parse.h"

struct trace_kernel {
  line_reader lr;
  char *path;
  trace_kernel_info info;
  int at_begin_tb;     /* the header loop consumed the first #BEGIN_TB */
  long grid_line, block_line; /* header lines of -grid dim and -block dim */
  long tbs_seen;
  uint8_t *tb_seen;    /* one bit per linear TB id, to reject duplicates */
  opcode_cache_entry opcodes[OPCODE_CACHE_SLOTS];
  inst_memo memo[INST_MEMO_SLOTS];
  delta_memo deltas[INST_MEMO_SLOTS];
  trace_op_pool *ops;  /* the ops of every thread block read (trace_ops.h) */
  int pack_addrs;      /* blocks come with packed addresses (trace_kernel_pack_addrs) */
  int text_open;       /* lr is open and past the header */
  tc_reader *cache_in; /* thread blocks come from the binary cache */
  tc_writer *cache_out;/* thread blocks read from the text also go to a new cache */
  tc_place *place;     /* where the cache lives; NULL: no cache */
  tc_source src;       /* the identity of the file being read */
};

#define HDR_GRID 1
#define HDR_BLOCK 2
#define HDR_NREGS 4
#define HDR_SHMEM 8
#define HDR_VERSION 16

/* "(x,y,z)", each a size 1..INT_MAX (blanks allowed around the numbers). */
static int parse_dim3(const char *v, int dim[3]) {
  size_t n = strlen(v);
  char inner[80];
  if (n < 2 || n - 2 >= sizeof inner || v[0] != '(' || v[n - 1] != ')') return 0;
  memcpy(inner, v + 1, n - 2);
  inner[n - 2] = '\0';
  return tp_parse_int_list(inner, 3, 1, INT_MAX, dim);
}

static int parse_header_line(trace_kernel *k, char *s, unsigned *seen, rf_diag *d) {
  char *eq = strchr(s, '=');
  if (!eq)
    return rf_fail_at(d, k->path, k->lr.lineno, "expected '-key = value', found '%s'", s);
  *eq = '\0';
  char *key = tp_trim(s + 1), *val = tp_trim(eq + 1);
  trace_kernel_info *in = &k->info;
  int ok = 1;
  if (!strcmp(key, "kernel name")) {
    snprintf(in->name, sizeof in->name, "%s", val);
  } else if (!strcmp(key, "kernel id")) {
    ok = tp_parse_int(val, 0, 0x7fffffff, &in->id);
  } else if (!strcmp(key, "grid dim")) {
    ok = parse_dim3(val, in->grid);
    *seen |= HDR_GRID;
    k->grid_line = k->lr.lineno;
  } else if (!strcmp(key, "block dim")) {
    ok = parse_dim3(val, in->block);
    *seen |= HDR_BLOCK;
    k->block_line = k->lr.lineno;
  } else if (!strcmp(key, "shmem")) {
    ok = tp_parse_int(val, 0, 1 << 30, &in->shmem);
    *seen |= HDR_SHMEM;
  } else if (!strcmp(key, "nregs")) {
    ok = tp_parse_int(val, 0, 255, &in->nregs);
    *seen |= HDR_NREGS;
  } else if (!strcmp(key, "binary version")) {
    ok = tp_parse_int(val, 0, 1000, &in->binary_version);
  } else if (!strcmp(key, "cuda stream id")) {
    ok = tp_parse_u64(val, &in->stream_id); /* NVBit writes the stream's handle: a pointer */
  } else if (!strcmp(key, "shmem base_addr")) {
    ok = tp_parse_hex64(val, &in->shmem_base);
  } else if (!strcmp(key, "local mem base_addr")) {
    ok = tp_parse_hex64(val, &in->local_base);
  } else if (!strcmp(key, "accelsim tracer version")) {
    ok = tp_parse_int(val, 3, 5, &in->tracer_version);
    if (!ok)
      return rf_fail_at(d, k->path, k->lr.lineno,
                        "expected tracer version 3, 4 or 5, found '%s'", val);
    *seen |= HDR_VERSION;
  } else if (!strcmp(key, "enable lineinfo")) {
    ok = tp_parse_int(val, 0, 1, &in->lineinfo);
  } /* other keys (nvbit version, future additions) carry nothing the model needs */
  if (!ok)
    return rf_fail_at(d, k->path, k->lr.lineno, "-%s: expected %s, found '%s'", key,
                      strstr(key, "dim") ? "(x,y,z) with sizes 1..2147483647"
                      : strstr(key, "base_addr") ? "a hex address" : "a number in range",
                      val);
  return 0;
}

/* The grid's and the block's products, checked before they are used as sizes: a refusal names
 * the header line and the dimensions as read, and the product only when it fits 64 bits. */
static int refuse_product(trace_kernel *k, long line, const char *key, const int dim[3],
                          uint64_t limit, const char *what, rf_diag *d) {
  uint64_t p;
  char product[48] = ", a product beyond 2^64";
  if (rf_dim3_product(dim, UINT64_MAX, &p))
    snprintf(product, sizeof product, " = %llu", (unsigned long long)p);
  return rf_fail_at(d, k->path, line, "-%s: expected at most %llu %s (x*y*z), found (%d,%d,%d)%s",
                    key, (unsigned long long)limit, what, dim[0], dim[1], dim[2], product);
}

static int check_shape(trace_kernel *k, rf_diag *d) {
  trace_kernel_info *in = &k->info;
  uint64_t tbs, threads;
  if (!rf_dim3_product(in->block, TRACE_MAX_THREADS_PER_TB, &threads))
    return refuse_product(k, k->block_line, "block dim", in->block, TRACE_MAX_THREADS_PER_TB,
                          "threads per block", d);
  if (!rf_dim3_product(in->grid, TRACE_MAX_TBS, &tbs))
    return refuse_product(k, k->grid_line, "grid dim", in->grid, TRACE_MAX_TBS,
                          "thread blocks", d);
  in->num_tbs = (long)tbs;
  in->threads_per_tb = (int)threads;
  in->warps_per_tb = (int)((threads + TRACE_WARP_SIZE - 1) / TRACE_WARP_SIZE);
  k->tb_seen = rf_calloc((size_t)(in->num_tbs + 7) / 8, 1, d);
  return k->tb_seen ? 0 : -1;
}

static int read_header(trace_kernel *k, rf_diag *d) {
  unsigned seen = 0;
  char *s;
  size_t len;
  int got;
  while ((got = line_reader_next(&k->lr, &s, &len, d)) > 0) {
    s = tp_trim(s);
    if (*s == '\0') continue;
    if (*s == '-') {
      if (parse_header_line(k, s, &seen, d) < 0) return -1;
    } else if (!strcmp(s, "#BEGIN_TB")) {
      k->at_begin_tb = 1;
      break;
    } else if (*s != '#') {
      return rf_fail_at(d, k->path, k->lr.lineno,
                        "expected a '-key = value' header line or #BEGIN_TB, found '%s'", s);
    }
  }
  if (got < 0) return -1;
  static const struct { unsigned bit; const char *text; } required[] = {
      {HDR_GRID, "-grid dim = (x,y,z)"},     {HDR_BLOCK, "-block dim = (x,y,z)"},
      {HDR_NREGS, "-nregs = N"},             {HDR_SHMEM, "-shmem = N"},
      {HDR_VERSION, "-accelsim tracer version = N"}};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
    if (!(seen & required[i].bit))
      return rf_fail_at(d, k->path, k->lr.lineno, "expected header line '%s', found none",
                        required[i].text);
  return check_shape(k, d);
}

static int same_info(const trace_kernel_info *a, const trace_kernel_info *b) {
  return !strcmp(a->name, b->name) && a->id == b->id &&
         !memcmp(a->grid, b->grid, sizeof a->grid) &&
         !memcmp(a->block, b->block, sizeof a->block) && a->shmem == b->shmem &&
         a->nregs == b->nregs && a->binary_version == b->binary_version &&
         a->stream_id == b->stream_id && a->shmem_base == b->shmem_base &&
         a->local_base == b->local_base && a->tracer_version == b->tracer_version &&
         a->lineinfo == b->lineinfo && a->num_tbs == b->num_tbs &&
         a->threads_per_tb == b->threads_per_tb && a->warps_per_tb == b->warps_per_tb;
}

static int open_text(trace_kernel *k, rf_diag *d) {
  if (line_reader_open(&k->lr, k->path, d) < 0) return -1;
  k->text_open = 1;
  return read_header(k, d);
}

/* The writer makes the cache folder if missing; failing that, no cache. */
static void start_cache(trace_kernel *k) {
  k->cache_out = tc_writer_open(k->place, &k->src, &k->info);
}

/* Where the cache is and the identity of the file the text reader has open (its descriptor:
 * a trace replaced between an open and a stat cannot get the other's cache). NULL: no cache. */
static tc_place *place_cache(trace_kernel *k, const trace_cache_opts *o) {
  rf_diag quiet; /* the cache is never required: its problems only mean reading the text */
  tc_place *pl = malloc(sizeof *pl);
  if (!pl || tc_place_of(k->path, o, tc_reader_id(), pl) < 0 ||
      tc_source_of_fd(trace_input_fd(k->lr.in), k->path, &k->src, &quiet) < 0) {
    free(pl);
    return NULL;
  }
  return pl;
}

int trace_kernel_open_cached(const char *path, const trace_cache_opts *o, trace_kernel **out,
                             rf_diag *d) {
  *out = NULL;
  trace_kernel *k = rf_calloc(1, sizeof *k, d);
  if (!k) return -1;
  for (int i = 0; i < OPCODE_CACHE_SLOTS; i++) k->opcodes[i].op = -1;
  k->path = strdup(path);
  if (!k->path) {
    free(k);
    return rf_fail(d, "out of memory");
  }
  if (!(k->ops = trace_op_pool_new(d))) {
    free(k->path);
    free(k);
    return -1;
  }
  /* The text's header is read in every mode: the kernel's description always comes from the
   * text, and a cache that describes the kernel otherwise is not used. */
  if (open_text(k, d) < 0) {
    trace_kernel_close(k);
    return -1;
  }
  if (o && o->mode != TRACE_CACHE_OFF) k->place = place_cache(k, o);
  trace_kernel_info cached;
  rf_diag quiet;
  if (k->place && o->mode == TRACE_CACHE_ON)
    k->cache_in = tc_reader_open(k->place->path, &k->src, k->place->source, &cached, &quiet);
  if (k->cache_in && !same_info(&cached, &k->info)) {
    tc_reader_close(k->cache_in);
    k->cache_in = NULL;
  }
  if (k->cache_in) tc_touch(k->place->path); /* recently used: evicted last */
  else if (k->place) start_cache(k);
  *out = k;
  return 0;
}

int trace_kernel_open(const char *path, trace_kernel **out, rf_diag *d) {
  return trace_kernel_open_cached(path, NULL, out, d);
}

int trace_kernel_reads_cache(const trace_kernel *k) { return k->cache_in != NULL; }
int trace_kernel_writes_cache(const trace_kernel *k) { return k->cache_out != NULL; }

const trace_kernel_info *trace_kernel_get_info(const trace_kernel *k) { return &k->info; }

void trace_kernel_close(trace_kernel *k) {
  if (!k) return;
  if (k->text_open) line_reader_close(&k->lr);
  tc_reader_close(k->cache_in);
  tc_writer_abort(k->cache_out); /* closed before the end: the cache would be incomplete */
  free(k->place);
  trace_op_pool_release(k->ops);
  free(k->tb_seen);
  free(k->path);
  free(k);
}

void trace_tb_free(trace_tb *tb) {
  trace_op_pool_release(tb->ops);
  tb->ops = NULL;
  if (!tb->warps) return;
  for (int w = 0; w < tb->nwarps; w++) {
    free(tb->warps[w].insts);
    free(tb->warps[w].addrs);
  }
  free(tb->warps);
  tb->warps = NULL;
}

/* Next non-blank line, trimmed (its length in *len); a missing line is an error naming what
 * was expected. */
static int next_line(trace_kernel *k, char **s, size_t *len, const char *expected, rf_diag *d) {
  int got;
  while ((got = line_reader_next(&k->lr, s, len, d)) > 0) {
    *s = tp_trim_n(*s, len);
    if (**s) return 1;
  }
  if (got == 0)
    return rf_fail_at(d, k->path, k->lr.lineno, "expected %s, found end of file", expected);
  return -1;
}

/* The `insts = n` header is not trusted for the allocation: the array grows with the lines
 * actually read, so a corrupt count (fuzzing found `insts = 53000000` in a 2 KB file) costs a
 * file:line error, not gigabytes. */
static int read_warp(trace_kernel *k, trace_warp *w, int64_t ninsts, rf_diag *d) {
  long inst_cap = 0;
  uint32_t addr_cap = 0, nmem = 0;
  inst_context ctx = {k->opcodes, k->memo, k->deltas, k->path, 0, k->info.tracer_version,
                      k->info.lineinfo, k->info.shmem_base, k->info.local_base};
  uint64_t lane_addrs[TRACE_WARP_SIZE];
  for (long i = 0; i < ninsts; i++) {
    char *s;
    size_t len;
    if (next_line(k, &s, &len, "an instruction line", d) < 0) return -1;
    if (s[0] == '#' || (s[0] == 'w' && !strncmp(s, "warp", 4)) ||
        (s[0] == 'i' && !strncmp(s, "insts", 5)))
      return rf_fail_at(d, k->path, k->lr.lineno,
                        "expected %lld instructions for this warp, found %ld before '%s'",
                        (long long)ninsts, i, s);
    ctx.line = k->lr.lineno;
    if (i == inst_cap) {
      inst_cap = inst_cap ? (inst_cap * 2 < ninsts ? inst_cap * 2 : ninsts)
                          : (ninsts < 256 ? ninsts : 256);
      trace_inst *ni = rf_realloc(w->insts, (size_t)inst_cap, sizeof *ni, d);
      if (!ni) return -1;
      w->insts = ni;
    }
    int has_addrs, addr_form;
    trace_inst *in = &w->insts[i];
    trace_op op;
    if (trace_parse_inst(&ctx, s, len, &op, &in->mask, lane_addrs, &has_addrs, &addr_form, d) < 0 ||
        !(in->op = trace_op_intern(trace_op_pool_set(k->ops), &op, d)))
      return -1;
    in->addr_off = 0;
    in->addr_form = 0;
    if (!op.is_mem) continue;
    /* (before the pool grows: past the limit it would ask for gigabytes) */
    if (nmem++ == TRACE_MAX_WARP_MEM_INSTS)
      return rf_fail_at(d, k->path, k->lr.lineno,
                        "expected at most %u memory instructions in a warp, found more",
                        TRACE_MAX_WARP_MEM_INSTS);
    if (w->naddrs + TRACE_WARP_SIZE > addr_cap) {
      /* room for 32 addresses, the most an instruction takes, in a uint32_t-indexed pool */
      addr_cap = addr_cap ? addr_cap * 2 : 8 * TRACE_WARP_SIZE;
      uint64_t *na = rf_realloc(w->addrs, addr_cap, sizeof *na, d);
      if (!na) return -1;
      w->addrs = na;
    }
    in->addr_off = w->naddrs;
    /* Packed as it is read, when the blocks are to come packed (trace_tb_pack_addrs's forms):
     * a warp's pool never holds 32 lanes for every memory instruction. */
    if (k->pack_addrs) {
      /* (the reader knows the form of lanes that repeat the deltas of a line it has packed) */
      if (addr_form >= 0) {
        in->addr_form = (trace_addr_form)addr_form;
        trace_addrs_pack_as(in->addr_form, lane_addrs, in->mask, w->addrs + w->naddrs);
      } else {
        in->addr_form = trace_addrs_pack(lane_addrs, in->mask, w->addrs + w->naddrs);
      }
      w->naddrs += trace_addrs_entries(in->addr_form);
    } else {
      memcpy(w->addrs + w->naddrs, lane_addrs, sizeof lane_addrs);
      w->naddrs += TRACE_WARP_SIZE;
    }
  }
  /* the pool's room past its entries given back (trace_warp_fit_pool's contract: naddrs
   * entries, of which the first `used` hold addresses) */
  uint32_t used = w->naddrs;
  w->naddrs = addr_cap;
  trace_warp_fit_pool(w, used);
  w->n = (uint32_t)ninsts;
  return 0;
}

static int read_tb(trace_kernel *k, trace_tb *tb, rf_diag *d) {
  const trace_kernel_info *in = &k->info;
  char *s;
  size_t len;
  if (next_line(k, &s, &len, "'thread block = x,y,z'", d) < 0) return -1;
  const char *ids = tp_key_value(s, "thread block");
  if (!ids || !tp_parse_int_list(ids, 3, 0, INT_MAX, tb->id))
    return rf_fail_at(d, k->path, k->lr.lineno,
                      "expected 'thread block = x,y,z' with ids 0..2147483647, found '%s'", s);
  for (int i = 0; i < 3; i++)
    if (tb->id[i] < 0 || tb->id[i] >= in->grid[i])
      return rf_fail_at(d, k->path, k->lr.lineno,
                        "expected a thread block inside grid (%d,%d,%d), found (%d,%d,%d)",
                        in->grid[0], in->grid[1], in->grid[2], tb->id[0], tb->id[1],
                        tb->id[2]);
  tb->linear_id =
      tb->id[0] + (long)in->grid[0] * (tb->id[1] + (long)in->grid[1] * tb->id[2]);
  if (k->tb_seen[tb->linear_id / 8] >> (tb->linear_id % 8) & 1)
    return rf_fail_at(d, k->path, k->lr.lineno,
                      "expected each thread block once, found (%d,%d,%d) again", tb->id[0],
                      tb->id[1], tb->id[2]);
  k->tb_seen[tb->linear_id / 8] |= (uint8_t)(1u << (tb->linear_id % 8));
  tb->nwarps = in->warps_per_tb;
  tb->warps = rf_calloc((size_t)tb->nwarps, sizeof *tb->warps, d);
  if (!tb->warps) return -1;
  uint8_t *warp_seen = (uint8_t *)rf_calloc((size_t)tb->nwarps, 1, d);
  if (!warp_seen) return -1;
  int nseen = 0, rc = 0;
  for (;;) {
    if ((rc = next_line(k, &s, &len, "'warp = N' or #END_TB", d)) < 0) break;
    rc = 0;
    if (!strcmp(s, "#END_TB")) break;
    int w;
    const char *v = tp_key_value(s, "warp");
    if (!v || !tp_parse_int(v, 0, INT_MAX, &w)) {
      rc = rf_fail_at(d, k->path, k->lr.lineno, "expected 'warp = N' or #END_TB, found '%s'",
                      s);
      break;
    }
    if (w < 0 || w >= tb->nwarps || warp_seen[w]) {
      rc = rf_fail_at(d, k->path, k->lr.lineno,
                      w < 0 || w >= tb->nwarps ? "expected a warp 0..%d, found %d"
                                               : "expected warp 0..%d once, found warp %d again",
                      tb->nwarps - 1, w);
      break;
    }
    warp_seen[w] = 1;
    nseen++;
    if ((rc = next_line(k, &s, &len, "'insts = N'", d)) < 0) break;
    rc = 0;
    int64_t ninsts;
    v = tp_key_value(s, "insts");
    if (!v || !tp_parse_i64(v, &ninsts) || ninsts < 0 || ninsts > TRACE_MAX_WARP_INSTS) {
      rc = rf_fail_at(d, k->path, k->lr.lineno, "expected 'insts = N' with N 0..%ld, found '%s'",
                      TRACE_MAX_WARP_INSTS, s);
      break;
    }
    if ((rc = read_warp(k, &tb->warps[w], ninsts, d)) < 0) break;
  }
  free(warp_seen);
  if (rc == 0 && nseen != tb->nwarps)
    rc = rf_fail_at(d, k->path, k->lr.lineno,
                    "expected %d warps in thread block (%d,%d,%d), found %d", tb->nwarps,
                    tb->id[0], tb->id[1], tb->id[2], nseen);
  return rc;
}

static int text_next_tb(trace_kernel *k, trace_tb *tb, rf_diag *d) {
  memset(tb, 0, sizeof *tb);
  if (!k->at_begin_tb) {
    char *s;
    size_t len;
    int got;
    while ((got = line_reader_next(&k->lr, &s, &len, d)) > 0) {
      s = tp_trim(s);
      if (*s) break;
    }
    if (got < 0) return -1;
    if (got == 0) {
      if (k->tbs_seen != k->info.num_tbs)
        return rf_fail_at(d, k->path, k->lr.lineno,
                          "expected %ld thread blocks (grid %dx%dx%d), found %ld",
                          k->info.num_tbs, k->info.grid[0], k->info.grid[1], k->info.grid[2],
                          k->tbs_seen);
      return 0;
    }
    if (strcmp(s, "#BEGIN_TB"))
      return rf_fail_at(d, k->path, k->lr.lineno, "expected #BEGIN_TB, found '%s'", s);
  }
  k->at_begin_tb = 0;
  if (k->tbs_seen == k->info.num_tbs)
    return rf_fail_at(d, k->path, k->lr.lineno,
                      "expected %ld thread blocks (grid %dx%dx%d), found more", k->info.num_tbs,
                      k->info.grid[0], k->info.grid[1], k->info.grid[2]);
  if (read_tb(k, tb, d) < 0) {
    trace_tb_free(tb);
    return -1;
  }
  tb->ops = k->ops;
  trace_op_pool_hold(k->ops);
  k->tbs_seen++;
  return 1;
}

/* The cache failed at thread block k->tbs_seen (its earlier blocks checked out, so they equal
 * the text's): read the text (still at its first thread block) up to there, rebuilding the
 * cache from it. The caller continues from the text. */
static int fall_back_to_text(trace_kernel *k, rf_diag *d) {
  long done = k->tbs_seen;
  tc_reader_close(k->cache_in);
  k->cache_in = NULL;
  unlink(k->place->path); /* never trusted again, whether or not the rebuild completes */
  memset(k->tb_seen, 0, (size_t)(k->info.num_tbs + 7) / 8);
  k->tbs_seen = 0;
  start_cache(k);
  /* the text is still at its first thread block */
  for (long i = 0; i < done; i++) {
    trace_tb tb;
    int r = text_next_tb(k, &tb, d);
    if (r == 0) return rf_fail_at(d, k->path, 0, "expected %ld thread blocks, found %ld", done, i);
    if (r < 0) return -1;
    if (k->cache_out && tc_writer_add(k->cache_out, &tb) < 0) {
      tc_writer_abort(k->cache_out);
      k->cache_out = NULL;
    }
    trace_tb_free(&tb);
  }
  return 0;
}

int trace_kernel_next_tb(trace_kernel *k, trace_tb *tb, rf_diag *d) {
  if (k->cache_in) {
    rf_diag quiet;
    int r = tc_reader_next(k->cache_in, &k->info, k->pack_addrs, k->ops, tb, &quiet);
    if (r == 1) {
      long id = tb->linear_id;
      if (!(k->tb_seen[id / 8] >> (id % 8) & 1)) {
        k->tb_seen[id / 8] |= (uint8_t)(1u << (id % 8));
        k->tbs_seen++;
        return 1;
      }
      trace_tb_free(tb); /* a duplicate: corrupt */
    } else if (r == 0 && k->tbs_seen == k->info.num_tbs) {
      return 0;
    }
    if (fall_back_to_text(k, d) < 0) return -1;
  }
  int r = text_next_tb(k, tb, d);
  if (k->cache_out) {
    int keep = r == 1 ? tc_writer_add(k->cache_out, tb) == 0
               : r == 0 ? (tc_writer_finish(k->cache_out, k->path), 0)
                        : (tc_writer_abort(k->cache_out), 0);
    if (r == 1 && !keep) tc_writer_abort(k->cache_out);
    if (!keep) k->cache_out = NULL;
  }
  return r; /* (text_next_tb packs as it reads) */
}

void trace_kernel_pack_addrs(trace_kernel *k) { k->pack_addrs = 1; }
