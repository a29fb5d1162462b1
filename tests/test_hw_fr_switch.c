/* The FineReg units together (csim/hw/finereg/README.md, "Driving a switch"): a driver in the
 * role of the policy runs sec. IV-A's two cases on all five units, stepped every cycle in each
 * -hw mode: (a) a stalled CTA moves its live registers to a PCRF with room, (b) a stalled CTA
 * is swapped with a ready pending CTA whose registers come back from the PCRF while the
 * stalled one's go in. Checks: the registers restored are exactly those saved (warp and index,
 * in order), the status fields, the pointer table, the free count; and the cycles of each
 * switch, which come from the units' valid/done outputs, are the same in every mode and equal
 * the README's count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/finereg/fr_idxdec.h"
#include "../csim/hw/finereg/fr_lrcache.h"
#include "../csim/hw/finereg/fr_pcrf.h"
#include "../csim/hw/finereg/fr_ptrtab.h"
#include "../csim/hw/finereg/fr_status.h"
#include "../tb/hw_tb.h"

#define WARPS 4 /* warps per CTA in this scenario */

typedef struct rmu {
  hw_unit *st, *lrc, *idx, *ptr, *pcrf;
  fr_status_in sti;
  fr_lrcache_in lri;
  fr_idxdec_in ixi;
  fr_ptrtab_in pti;
  fr_pcrf_in pci;
  fr_status_out sto;
  fr_lrcache_out lro;
  fr_idxdec_out ixo;
  fr_ptrtab_out pto;
  fr_pcrf_out pco;
  uint64_t c;
  rf_diag d;
} rmu;

static void check_ok(int rc, const rf_diag *d) {
  if (rc != 0) fail_msg("%s", d->msg);
}

/* One cycle: every unit steps once on the inputs set, which are then cleared. */
static void tick(rmu *m) {
  check_ok(fr_status_step(m->st, m->c, &m->sti, &m->sto, &m->d), &m->d);
  check_ok(fr_lrcache_step(m->lrc, m->c, &m->lri, &m->lro, &m->d), &m->d);
  check_ok(fr_idxdec_step(m->idx, m->c, &m->ixi, &m->ixo, &m->d), &m->d);
  check_ok(fr_ptrtab_step(m->ptr, m->c, &m->pti, &m->pto, &m->d), &m->d);
  check_ok(fr_pcrf_step(m->pcrf, m->c, &m->pci, &m->pco, &m->d), &m->d);
  m->c++;
  memset(&m->sti, 0, sizeof m->sti);
  memset(&m->lri, 0, sizeof m->lri);
  memset(&m->ixi, 0, sizeof m->ixi);
  memset(&m->pti, 0, sizeof m->pti);
  memset(&m->pci, 0, sizeof m->pci);
}

static void setbit(uint32_t *v, unsigned i) { v[i / 32] |= 1u << (i % 32); }

/* The kernel's live-register table (off-chip in the paper): the vector of each stalled PC. */
static uint64_t live_of(uint32_t pc) {
  switch (pc) {
  case 0x40: return 0x5;                   /* R0, R2 (Fig. 6) */
  case 0x48: return 0x8000000000000001ULL; /* R0, R63 */
  case 0x50: return 0x0;                   /* nothing live */
  default: return 0xf0;                    /* R4..R7 */
  }
}

typedef struct saved {
  unsigned n;
  uint16_t wr[256]; /* warp << 6 | reg */
} saved;

/* Switch out CTA v (warps stalled at pc[w]); restore CTA cand from the PCRF when cand >= 0.
 * Returns the cycles from the decision to the status update; fills out with the registers
 * pushed and back with the registers restored. */
static unsigned switch_cta(rmu *m, unsigned v, const uint32_t *pc, int cand, saved *out,
                           saved *back) {
  uint64_t c0 = m->c;
  uint64_t vec[WARPS];
  /* 1. live-register vectors: one lookup per cycle, a miss is filled and looked up again */
  for (unsigned w = 0; w < WARPS; w++) {
    for (;;) {
      m->lri.lk_i = 1;
      m->lri.lk_pc_i = pc[w];
      tick(m);
      assert_int_equal(m->lro.lk_valid_o, 1);
      if (m->lro.hit_o) break;
      m->lri.fill_i = 1; /* the table's vector, loaded (0 extra cycles here) */
      m->lri.fill_pc_i = pc[w];
      m->lri.fill_vec_i = live_of(pc[w]);
      tick(m);
    }
    vec[w] = m->lro.vec_o;
    assert_int_equal(vec[w], live_of(pc[w]));
  }
  /* 2. need = the warps' live registers (the decoder's count at load) */
  unsigned need = 0;
  for (unsigned w = 0; w < WARPS; w++) {
    m->ixi.ld_i = 1;
    m->ixi.ld_vec_i = vec[w];
    tick(m);
    need += (unsigned)m->ixo.cnt_o;
  }
  /* 3. the fit decision, with the candidate's line read from the pointer table */
  m->pti.rd_i = cand >= 0;
  m->pti.rd_cta_i = cand >= 0 ? (unsigned)cand : 0;
  m->pti.need_i = need;
  m->pti.free_i = m->pco.free_cnt_o;
  m->pti.cand_i = cand >= 0;
  tick(m);
  assert_int_equal(m->pto.fit_o, 1);
  unsigned chead = (unsigned)m->pto.rd_head_o, ccnt = (unsigned)m->pto.rd_cnt_o;
  /* 4. move: chain V's live registers while walking C's */
  out->n = back->n = 0;
  unsigned w = 0;
  int building = need > 0, walking = cand >= 0 && ccnt > 0;
  if (building) m->pci.bld_start_i = 1;
  if (walking) {
    m->pci.walk_start_i = 1;
    m->pci.walk_head_i = chead;
  }
  while (w < WARPS && vec[w] == 0) w++;
  if (building) {
    m->ixi.ld_i = 1;
    m->ixi.ld_vec_i = vec[w];
    m->ixi.ld_warp_i = w;
  }
  tick(m);
  unsigned head = (unsigned)m->pco.bld_head_o;
  while (building || walking) {
    if (walking) {
      assert_int_equal(m->pco.walk_valid_o, 1);
      back->wr[back->n++] = (uint16_t)(m->pco.walk_warp_o << 6 | m->pco.walk_reg_o);
      if (m->pco.walk_last_o) walking = 0;
    }
    if (building && m->ixo.valid_o && (m->ixo.last_o || m->pco.bld_room_o)) {
      unsigned nw = w + 1;
      while (nw < WARPS && vec[nw] == 0) nw++;
      int last_of_cta = m->ixo.last_o && nw == WARPS;
      m->pci.bld_push_i = 1;
      m->pci.bld_warp_i = m->ixo.warp_o;
      m->pci.bld_reg_i = m->ixo.idx_o;
      m->pci.bld_last_i = (uint64_t)last_of_cta;
      out->wr[out->n++] = (uint16_t)(m->ixo.warp_o << 6 | m->ixo.idx_o);
      if (m->ixo.last_o && !last_of_cta) {
        w = nw; /* next warp's vector in the step that takes this one's last index */
        m->ixi.ld_i = 1;
        m->ixi.ld_vec_i = vec[w];
        m->ixi.ld_warp_i = w;
      } else {
        m->ixi.pop_i = 1;
      }
    }
    tick(m);
    if (building && m->pco.bld_done_o) building = 0;
  }
  /* 5. bookkeeping: V's chain in the table, V pending (1, 1), C active (2, 2) */
  assert_int_equal(out->n, need);
  m->pti.wr_i = 1;
  m->pti.wr_cta_i = v;
  m->pti.wr_head_i = need ? head : 0;
  m->pti.wr_cnt_i = need ? m->pco.bld_cnt_o : 0;
  m->sti.wa_i = 1;
  m->sti.wa_cta_i = v;
  m->sti.wa_ctx_i = 1;
  m->sti.wa_reg_i = 1;
  if (cand >= 0) {
    m->sti.wb_i = 1;
    m->sti.wb_cta_i = (unsigned)cand;
    m->sti.wb_ctx_i = 2;
    m->sti.wb_reg_i = 2;
  }
  tick(m);
  return (unsigned)(m->c - c0);
}

static unsigned scenario(hw_mode mode, unsigned *cyc_a, unsigned *cyc_b) {
  rmu m = {0};
  m.c = 1;
  m.st = fr_status_new("sm0.fr_status", mode, NULL, NULL, &m.d);
  m.lrc = fr_lrcache_new("sm0.fr_lrcache", mode, NULL, NULL, &m.d);
  m.idx = fr_idxdec_new("sm0.fr_idxdec", mode, NULL, NULL, &m.d);
  m.ptr = fr_ptrtab_new("sm0.fr_ptrtab", mode, NULL, NULL, &m.d);
  m.pcrf = fr_pcrf_new("sm0.fr_pcrf", mode, NULL, NULL, &m.d);
  if (!m.st || !m.lrc || !m.idx || !m.ptr || !m.pcrf) fail_msg("%s", m.d.msg);
  /* launch CTAs 0..3 active */
  for (unsigned k = 0; k < 4; k += 2) {
    m.sti.wa_i = m.sti.wb_i = 1;
    m.sti.wa_cta_i = k;
    m.sti.wb_cta_i = k + 1;
    m.sti.wa_ctx_i = m.sti.wa_reg_i = m.sti.wb_ctx_i = m.sti.wb_reg_i = 2;
    tick(&m);
  }
  /* (a) CTA 1 stalls, nothing pending: its live registers go to the PCRF (Fig. 6a) */
  setbit(m.sti.stall_i, 1);
  tick(&m);
  assert_int_equal(m.sto.vic_valid_o, 1);
  assert_int_equal(m.sto.vic_cta_o, 1);
  assert_int_equal(m.sto.cand_valid_o, 0);
  const uint32_t pc1[WARPS] = {0x40, 0x48, 0x50, 0x40};
  saved out1, back1, out2, back2;
  *cyc_a = switch_cta(&m, 1, pc1, -1, &out1, &back1);
  assert_int_equal(out1.n, 2 + 2 + 0 + 2);
  assert_int_equal(m.pco.free_cnt_o, 1024 - 6);
  m.sti.rd_cta_i = 1;
  tick(&m);
  assert_int_equal(m.sto.rd_ctx_o, 1);
  assert_int_equal(m.sto.rd_reg_o, 1);
  assert_int_equal(m.sto.free_cta_o, 4); /* CTA 1's ACRF space may now take a new CTA */
  /* (b) CTA 2 stalls and CTA 1 is ready: swap (Fig. 6b) */
  setbit(m.sti.stall_i, 2);
  setbit(m.sti.ready_i, 1);
  tick(&m);
  assert_int_equal(m.sto.vic_cta_o, 2);
  assert_int_equal(m.sto.cand_valid_o, 1);
  assert_int_equal(m.sto.cand_cta_o, 1);
  assert_int_equal(m.sto.cand_reg_o, 1);
  const uint32_t pc2[WARPS] = {0x60, 0x60, 0x48, 0x60};
  *cyc_b = switch_cta(&m, 2, pc2, 1, &out2, &back2);
  /* CTA 1's registers came back exactly as saved, in order */
  assert_int_equal(back2.n, out1.n);
  for (unsigned k = 0; k < out1.n; k++) assert_int_equal(back2.wr[k], out1.wr[k]);
  assert_int_equal(out2.n, 4 + 4 + 2 + 4);
  assert_int_equal(m.pco.free_cnt_o, 1024 - 14);
  m.sti.rd_cta_i = 1;
  m.pti.rd_i = 1;
  m.pti.rd_cta_i = 2;
  tick(&m);
  assert_int_equal(m.sto.rd_ctx_o, 2);
  assert_int_equal(m.sto.rd_reg_o, 2);
  assert_int_equal(m.pto.rd_cnt_o, 14);
  unsigned total = (unsigned)m.c;
  hw_unit_free(m.st);
  hw_unit_free(m.lrc);
  hw_unit_free(m.idx);
  hw_unit_free(m.ptr);
  hw_unit_free(m.pcrf);
  return total;
}

static void test_switch_cycles_every_mode(void **st) {
  (void)st;
  unsigned a[3], b[3], t[3];
  hw_mode modes[3] = {HW_C, HW_RTL, HW_LOCKSTEP};
  for (int k = 0; k < 3; k++) t[k] = scenario(modes[k], &a[k], &b[k]);
  printf("[ INFO     ] switch-out to a PCRF with room: %u cycles; swap: %u cycles\n", a[0], b[0]);
  for (int k = 1; k < 3; k++) {
    assert_int_equal(a[k], a[0]);
    assert_int_equal(b[k], b[0]);
    assert_int_equal(t[k], t[0]);
  }
  /* (a): 4 warps, one miss (lookup, fill, lookup) for each of 3 distinct PCs = 4 + 3 x 2,
   * 4 loads, 1 fit, 1 + 6 pushes (start, then one register a cycle), 1 bookkeeping */
  assert_int_equal(a[0], (4 + 3 * 2) + 4 + 1 + (1 + 6) + 1);
  /* (b): PCs 0x60 (one miss) and 0x48 (a hit): 4 + 2, 4 loads, 1 fit, the chain of 14
   * (1 + 14) while the 6 restored ones walk alongside, 1 bookkeeping */
  assert_int_equal(b[0], (4 + 2) + 4 + 1 + (1 + 14) + 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_switch_cycles_every_mode),
  };
  return cmocka_run_group_tests_name("hw_fr_switch", tests, NULL, NULL);
}
