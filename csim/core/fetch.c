/* Instruction fetch: each cycle up to -gpgpu_inst_fetch_throughput warps whose instruction
 * buffer has room get their next instructions through the L1I (one line, at most IBUFFER_SIZE
 * instructions), as GPGPU-Sim's fetch/decode stages do. The instructions are issuable from the
 * next cycle on (hit) or from the cycle the miss is filled. With a perfect instruction cache
 * (-gpgpu_perfect_inst_const_cache 1) only the fetch bandwidth remains. */
#include "../common/bits.h"
#include "sm_internal.h"

static uint64_t code_addr(const sm *s, const sm_warp *w, uint32_t index) {
  uint64_t kernel = (uint64_t)(unsigned)s->ctas[w->cta].k->id;
  return CODE_BASE + (kernel << CODE_WINDOW_SHIFT) + w->insts[index].op->pc;
}

/* How many instructions from `fetched` come from the same I-cache line (at most the room).
 * The kernel's code window starts at a multiple of every line size (a power of two, at most
 * 256: config_validate), so two addresses share a line when their PCs do. */
_Static_assert(CODE_BASE % 256 == 0 && (1ull << CODE_WINDOW_SHIFT) % 256 == 0,
               "code windows start on a line of any size");
static uint8_t fetch_group(const sm *s, const sm_warp *w) {
  uint64_t in_line = (uint64_t)s->cfg->l1i.line_size - 1;
  uint64_t first = w->insts[w->fetched].op->pc;
  uint32_t room = IBUFFER_SIZE - (w->fetched - w->pc);
  uint8_t n = 1;
  while (n < room && w->fetched + n < w->n_insts &&
         ((w->insts[w->fetched + n].op->pc ^ first) & ~in_line) == 0)
    n++;
  return n;
}

/* n more instructions of the warp in `slot` sit decoded in its buffer. check_issue reads
 * `fetched` only as pc >= fetched (WAIT_FETCH): the answer the issue stage keeps for a warp that
 * still had an instruction buffered stands (most fetches refill a buffer before it runs dry). */
static void buffer_filled(sm *s, int slot, uint8_t n) {
  sm_warp *w = &s->warps[slot];
  if (w->pc >= w->fetched) warp_recheck(s, slot);
  w->fetched += n;
}

void fetch_done(sm *s, int slot) {
  buffer_filled(s, slot, s->warps[slot].fetch_count);
  s->warps[slot].fetching = 0;
  fetch_wake(s, slot);
}

/* Whether the warp has room and instructions left to fetch (this runs for many warps every
 * cycle: it reads only the warp's first cache line). */
static int wants_fetch(const sm_warp *w) {
  return w->live && !w->exited && !w->fetching && w->fetched - w->pc < IBUFFER_SIZE &&
         w->fetched < w->n_insts;
}

/* Fetches for one warp; 0 if the L1I cannot take the access (the stage stops), else 1. */
static int fetch_warp(sm *s, memsys *m, int slot, uint64_t now) {
  sm_warp *w = &s->warps[slot];
  uint8_t n = fetch_group(s, w);
  /* GPGPU-Sim maps the fetch's address (PROGRAM_MEM_START + PC, every kernel alike) whether
   * the L1I is perfect or not: with random slice indexing that is a draw. */
  memsys_touch(m, s->id, CODE_BASE + w->insts[w->fetched].op->pc);
  /* The warp's next fetch reads the instructions after these: have them in the cache by
   * then (a hint only; reading the trace is most of this stage's time). */
  for (uint32_t k = w->fetched + n; k < w->fetched + n + IBUFFER_SIZE && k < w->n_insts; k++)
    __builtin_prefetch(&w->insts[k]);
  if (!s->l1i) {
    buffer_filled(s, slot, n);
    return 1;
  }
  uint64_t line = (uint64_t)s->cfg->l1i.line_size;
  uint64_t addr = code_addr(s, w, w->fetched);
  uint32_t off = (uint32_t)(addr % line);
  mem_access a = {.addr = addr - off, .token = (uint32_t)slot,
                  .sector_mask = (uint8_t)(1u << (off / MEM_SECTOR_BYTES)),
                  .space = SPACE_INST, .sm = (uint16_t)s->id};
  l1_result r = l1d_access(s->l1i, &a, now);
  if (r == L1_STALL) return 0; /* MSHRs full: the stage waits */
  if (r == L1_HIT) { /* issuable from the next cycle, as the perfect L1I's above */
    buffer_filled(s, slot, n);
    return 1;
  }
  ldst_wake(s); /* (the miss waits in the L1I's queue for the LD/ST unit's cycle to send it) */
  w->fetching = 1;
  w->fetch_count = n;
  return 1;
}

void fetch_stage(sm *s, memsys *m, uint64_t now) {
  if (!fetch_wanted(s)) return;
  int budget = s->cfg->inst_fetch_throughput;
  /* Round robin over the hardware's warp slots; with CTA switching (more resident warps than
   * the hardware's slots) over every slot ever used, since slots above warp_hwm hold nothing. */
  int nslots = s->warp_hwm > s->hw_warp_slots ? s->warp_hwm : s->hw_warp_slots;
  /* (nslots grows when switching raises warp_hwm) */
  int start = s->fetch_next < nslots ? s->fetch_next : s->fetch_next % nslots;
  /* Slots start..nslots-1, then 0..start-1; only candidates (fetch_cand) can want a fetch.
   * fetch_next moves on after each fetch, but the scan goes on from where it is, as before. */
  for (int pass = 0; pass < 2 && budget > 0; pass++) {
    int from = pass ? 0 : start, to = pass ? start : nslots;
    for (int slot = rf_next_bit(s->fetch_cand, from, to); slot >= 0 && budget > 0;
         slot = rf_next_bit(s->fetch_cand, slot + 1, to)) {
      if (!wants_fetch(&s->warps[slot])) {
        s->fetch_cand[slot >> 6] &= ~(1ull << (slot & 63));
        continue;
      }
      if (!fetch_warp(s, m, slot, now)) return;
      budget--;
      s->fetch_next = slot + 1 == nslots ? 0 : slot + 1;
    }
  }
}
