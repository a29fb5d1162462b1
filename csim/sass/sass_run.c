#include "sass_run.h"

#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"
#include "../tracegen/tg_line.h"
#include "sass_ctx.h"
#include "sass_its.h"
#include "sass_trace.h"

uint32_t sass_cread(sass_ctx *x, int bank, int64_t off, int lane) {
  const sass_grid *g = x->g;
  if (bank >= 0 && bank < SASS_CBANKS && off >= 0 && off % 4 == 0 &&
      (uint64_t)off + 4 <= g->cbank_bytes[bank] && g->cbank[bank]) {
    uint32_t v;
    memcpy(&v, g->cbank[bank] + off, 4);
    return v;
  }
  sass_fault(x, NULL, lane, "constant read c[0x%x][0x%llx] outside the bank's %u bytes", bank,
             (unsigned long long)off, bank >= 0 && bank < SASS_CBANKS ? g->cbank_bytes[bank] : 0);
  return 0;
}

/* the next PC: 8 bytes on, past the control word that opens every 32-byte bundle (sm_5x/6x) */
static uint32_t next_pc(uint32_t pc) {
  pc += 8;
  return (pc & 31) == 0 ? pc + 8 : pc;
}

/* One instruction for the warp's active lanes (from sm_70: for the lanes sass_its_pick chose).
 * Returns 1 if one ran, 0 if the warp cannot run now, -1 on a fault. */
static int step(sass_ctx *x) {
  sass_warp *w = x->w;
  const struct sass_kernel *k = x->g->k;
  if (x->g->its) {
    int r = sass_its_pick(x);
    if (r <= 0) return r;
  }
  uint32_t slot = w->pc >> k->pc_shift;
  if ((w->pc & ((1u << k->pc_shift) - 1)) || slot >= k->nslots || !k->code[slot].valid)
    return sass_fault(x, NULL, -1, "execution reached 0x%x, which holds no instruction", w->pc);
  const sass_inst *in = &k->code[slot];
  if (x->g->budget && x->g->executed >= x->g->budget)
    return sass_fault(x, in, -1, "the instruction budget of %llu warp instructions is spent "
                      "(an endless loop? raise it with -budget)",
                      (unsigned long long)x->g->budget);
  uint32_t group = w->active, m = group & sass_pred(w, in->guard, in->guard_not);
  uint32_t next = x->g->its ? w->pc + 16 : next_pc(w->pc);
  w->pc = next;
  x->g->executed++;
  if (in->exec(x, in, m) < 0 || x->fault) return -1;
  if (x->g->its) sass_its_after(x, in, group, next);
  if (x->g->sink && sass_trace_inst(x->g->sink, &w->tr, in, m, x->addr, x->d) < 0) return -1;
  return 1;
}

static uint32_t live_warps(const sass_cta *c) {
  uint32_t n = 0;
  for (int i = 0; i < c->nwarps; i++) n += c->w[i].state != SW_DONE;
  return n;
}

/* releases every barrier whose expected warps have all arrived; returns how many warps resumed */
static int release_barriers(sass_cta *c) {
  int resumed = 0;
  uint32_t live = live_warps(c);
  for (int b = 0; b < SASS_BARRIERS; b++) {
    uint32_t want = c->bar_expected[b] ? c->bar_expected[b] : live;
    if (!c->bar_arrived[b] || c->bar_arrived[b] < want) continue;
    for (int i = 0; i < c->nwarps; i++) {
      sass_warp *w = &c->w[i];
      if (w->state != SW_BAR || w->bar != b) continue;
      w->state = SW_RUN;
      w->wait_bar = 0;
      w->b2r_count = c->bar_count[b];
      w->b2r_threads = c->bar_threads[b];
      w->b2r_kind = c->bar_kind[b];
      resumed++;
    }
    c->bar_arrived[b] = 0;
    c->bar_started[b] = 0;
  }
  return resumed;
}

static int deadlock(sass_ctx *x) {
  sass_cta *c = x->c;
  char list[400] = "";
  size_t n = 0;
  for (int i = 0; i < c->nwarps && n < sizeof list - 40; i++)
    if (c->w[i].state == SW_BAR)
      n += (size_t)snprintf(list + n, sizeof list - n, "%s warp %d at barrier %d (PC 0x%x)",
                            n ? "," : "", i, c->w[i].bar, c->w[i].pc);
  return rf_fail(x->d, "kernel %s, CTA (%u,%u,%u): deadlock: no warp can run; waiting:%s",
                 x->g->k->info->name, c->id[0], c->id[1], c->id[2], list);
}

static int run_cta(sass_ctx *x) {
  sass_cta *c = x->c;
  for (;;) {
    int ran = 0;
    for (int i = 0; i < c->nwarps; i++) {
      sass_warp *w = &c->w[i];
      x->w = w;
      for (int n = 0; n < SASS_SLICE && w->state == SW_RUN; n++) {
        int r = step(x);
        if (r < 0) return -1;
        ran |= r;
      }
    }
    int resumed = release_barriers(c);
    if (live_warps(c) == 0) return 0;
    if (!ran && !resumed) return deadlock(x);
  }
}

static void init_warps(sass_cta *c, const sass_grid *g, int nregs) {
  for (int i = 0; i < c->nwarps; i++) {
    sass_warp *w = &c->w[i];
    uint32_t *r = w->r;
    sass_wtrace tr = w->tr;
    memset(w, 0, sizeof *w);
    w->r = r;
    w->tr = tr;
    w->tr.n = 0;
    w->tr.insts = 0;
    memset(r, 0, (size_t)nregs * SASS_WARP * sizeof *r);
    uint32_t first = (uint32_t)i * SASS_WARP, n = g->nthreads - first;
    w->lanes = n >= SASS_WARP ? ~0u : (1u << n) - 1;
    w->active = w->lanes;
    w->p[SASS_PT] = ~0u;
    w->pc = g->its ? 0 : 8; /* sm_5x/6x: the code starts with a control word */
    w->id = i;
  }
  memset(c->bar_arrived, 0, sizeof c->bar_arrived);
  memset(c->bar_started, 0, sizeof c->bar_started);
}

/* Constant bank 0 as the driver fills it, at the offsets nvcc's code reads: the block and grid
 * sizes, the generic addresses of the shared and local windows, the initial stack pointer (each
 * thread's local memory size: the stack grows down), the dynamic shared size, then the
 * parameters. The layout moved with sm_70. */
typedef struct cbank0_layout {
  uint16_t ntid, nctaid, shared_lo, shared_hi, local_lo, local_hi, stack, dyn_shared, retries;
} cbank0_layout;
static const cbank0_layout layout_sm5x = {0x8, 0x14, 0x0, 0x100, 0x4, 0x104, 0x20, 0xfc, 0x10c};
static const cbank0_layout layout_sm70 = {0x0, 0xc, 0x18, 0x1c, 0x20, 0x24, 0x28, 0x2c, 0};

static void put32(uint8_t *b, uint32_t off, uint32_t v) { memcpy(b + off, &v, 4); }

static int build_cbank0(uint8_t *b, uint32_t bytes, const sass_launch *L, const sass_kernel *k,
                        int sm, rf_diag *d) {
  const sass_kinfo *ki = k->info;
  if (L->params_bytes != ki->param_bytes)
    return rf_fail(d, "kernel %s: launched with %u bytes of parameters, expected %u", ki->name,
                   L->params_bytes, ki->param_bytes);
  const cbank0_layout *y = sm >= 70 ? &layout_sm70 : &layout_sm5x;
  memset(b, 0, bytes);
  for (int i = 0; i < 3; i++) {
    put32(b, y->ntid + 4u * (unsigned)i, L->block[i]);
    put32(b, y->nctaid + 4u * (unsigned)i, L->grid[i]);
  }
  put32(b, y->shared_lo, (uint32_t)SASS_SHARED_WINDOW);
  put32(b, y->shared_hi, (uint32_t)(SASS_SHARED_WINDOW >> 32));
  put32(b, y->local_lo, (uint32_t)SASS_LOCAL_WINDOW);
  put32(b, y->local_hi, (uint32_t)(SASS_LOCAL_WINDOW >> 32));
  put32(b, y->stack, k->local_bytes);
  put32(b, y->dyn_shared, L->dyn_shared);
  if (y->retries) put32(b, y->retries, 16); /* clock64's re-reads of a changing high word */
  if (L->params_bytes) memcpy(b + ki->param_base, L->params, L->params_bytes);
  return 0;
}

static int check_launch(const sass_launch *L, const sass_kernel *k, uint64_t *ctas,
                        uint32_t *threads, rf_diag *d) {
  uint64_t t = (uint64_t)L->block[0] * L->block[1] * L->block[2];
  uint64_t g = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
  if (!t || t > 1024 || L->block[2] > 64)
    return rf_fail(d, "kernel %s: block (%u,%u,%u) is not a valid block (1-1024 threads, z <= 64)",
                   k->info->name, L->block[0], L->block[1], L->block[2]);
  if (!g || L->grid[1] > 65535 || L->grid[2] > 65535 || L->grid[0] > 0x7fffffffu)
    return rf_fail(d, "kernel %s: grid (%u,%u,%u) is not a valid grid", k->info->name, L->grid[0],
                   L->grid[1], L->grid[2]);
  if ((uint64_t)k->info->shared_bytes + L->dyn_shared > 96 * 1024)
    return rf_fail(d, "kernel %s: %u + %u bytes of shared memory exceed the 96 KB a CTA can have",
                   k->info->name, k->info->shared_bytes, L->dyn_shared);
  *ctas = g;
  *threads = (uint32_t)t;
  return 0;
}

int sass_run(const sass_module *m, int kernel, const sass_launch *L, sass_devmem *mem,
             sass_run_stats *st, rf_diag *d) {
  const sass_kernel *k = &m->k[kernel];
  sass_grid g = {.mod = m, .k = k, .dyn_shared = L->dyn_shared, .mem = mem, .budget = L->budget,
                 .its = m->sm >= 70};
  uint64_t nctas = 0;
  if (check_launch(L, k, &nctas, &g.nthreads, d) < 0) return -1;
  memcpy(g.grid, L->grid, sizeof g.grid);
  memcpy(g.block, L->block, sizeof g.block);
  uint32_t c0_bytes = (k->info->param_base + k->info->param_bytes + 0x10f) & ~0xfu;
  uint8_t *c0 = calloc(1, c0_bytes < 0x110 ? 0x110 : c0_bytes);
  sass_cta c = {.nwarps = (int)((g.nthreads + SASS_WARP - 1) / SASS_WARP)};
  c.shared_bytes = k->info->shared_bytes + L->dyn_shared;
  c.local_bytes = k->local_bytes;
  c.w = calloc((size_t)c.nwarps, sizeof *c.w);
  c.shared = calloc(1, c.shared_bytes ? c.shared_bytes : 1);
  c.local = calloc((size_t)c.nwarps * SASS_WARP, c.local_bytes ? c.local_bytes : 1);
  int rc = (!c0 || !c.w || !c.shared || !c.local) ? rf_fail(d, "out of memory for a launch") : 0;
  int nregs = k->info->nregs;
  for (int i = 0; rc == 0 && i < c.nwarps; i++)
    if (!(c.w[i].r = calloc((size_t)nregs * SASS_WARP, sizeof *c.w[i].r)))
      rc = rf_fail(d, "out of memory for registers");
  if (rc == 0) rc = build_cbank0(c0, c0_bytes, L, k, m->sm, d);
  g.cbank[0] = c0;
  g.cbank_bytes[0] = c0_bytes;
  g.cbank[2] = k->const2;
  g.cbank_bytes[2] = k->const2_bytes;
  for (int b = 1; b < SASS_CBANKS; b++)
    if (b != 2) g.cbank[b] = sass_module_cbank(m, b, &g.cbank_bytes[b]);
  sass_sink sink;
  if (rc == 0 && L->trace) {
    rc = sass_trace_begin(&sink, L->trace, L->trace_path, m, k, L, d);
    g.sink = &sink;
  }
  sass_ctx x = {.g = &g, .c = &c, .d = d};
  uint64_t done = 0;
  for (uint64_t id = 0; rc == 0 && id < nctas; id++, done++) {
    c.id[0] = (uint32_t)(id % L->grid[0]);
    c.id[1] = (uint32_t)(id / L->grid[0] % L->grid[1]);
    c.id[2] = (uint32_t)(id / ((uint64_t)L->grid[0] * L->grid[1]));
    init_warps(&c, &g, nregs);
    memset(c.shared, 0, c.shared_bytes);
    memset(c.local, 0, (size_t)c.nwarps * SASS_WARP * c.local_bytes);
    rc = run_cta(&x);
    if (rc == 0 && g.sink) rc = sass_trace_cta(&sink, &c, d);
  }
  if (st) *st = (sass_run_stats){.warp_insts = g.executed, .ctas = done};
  for (int i = 0; c.w && i < c.nwarps; i++) {
    free(c.w[i].r);
    free(c.w[i].tr.buf);
  }
  free(c.w);
  free(c.shared);
  free(c.local);
  free(c0);
  return rc;
}
