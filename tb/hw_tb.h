/* Shared testbench helpers for unit tests (tests/test_hw_<unit>.c): a seeded RNG, random
 * inputs drawn from the port table, and drivers that run a unit in lockstep or in C and RTL
 * modes side by side. Header-only (static inline) so a test needs no extra object. */
#ifndef RFSIM_TB_HW_TB_H
#define RFSIM_TB_HW_TB_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../csim/hw/unit.h"
#include "../csim/hw/wave.h"

typedef struct hw_rng {
  uint64_t s;
} hw_rng;

static inline uint64_t hw_rng_next(hw_rng *r) { /* xorshift64* */
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1DULL;
}
static inline uint64_t hw_rng_below(hw_rng *r, uint64_t n) { return n ? hw_rng_next(r) % n : 0; }
static inline hw_rng hw_rng_make(uint64_t seed) {
  hw_rng r = {seed * 0x9E3779B97F4A7C15ULL + 1};
  return r;
}

/* The seed: HW_SEED from the environment, else dflt. Printed so a failure can be replayed. */
static inline uint64_t hw_tb_seed(const char *test, uint64_t dflt) {
  const char *e = getenv("HW_SEED");
  uint64_t s = e && *e ? strtoull(e, NULL, 0) : dflt;
  printf("[ SEED     ] %s: HW_SEED=%" PRIu64 "\n", test, s);
  return s;
}

/* Cycle count for random runs: HW_CYCLES from the environment, else dflt. */
static inline uint64_t hw_tb_cycles(uint64_t dflt) {
  const char *e = getenv("HW_CYCLES");
  return e && *e ? strtoull(e, NULL, 0) : dflt;
}

/* build/hw/wave/<name>.fst (directory created). */
static inline const char *hw_tb_wave_path(const char *name, char *buf, size_t len) {
  mkdir("build", 0777);
  mkdir("build/hw", 0777);
  mkdir("build/hw/wave", 0777);
  snprintf(buf, len, "build/hw/wave/%s.fst", name);
  return buf;
}

/* Fills every input port with random bits (masked later by the unit to its width). */
static inline void hw_tb_random_inputs(const hw_unit *u, void *in, hw_rng *r) {
  const hw_unit_desc *d = hw_unit_desc_of(u);
  for (unsigned i = 0; i < d->nports; i++) {
    const hw_port_desc *p = &d->ports[i];
    if (p->dir != HW_DIR_IN) continue;
    if (p->words) {
      uint32_t *w = (uint32_t *)(void *)((char *)in + p->offset);
      for (unsigned k = 0; k < p->words; k++) w[k] = (uint32_t)hw_rng_next(r);
    } else {
      hw_field_set(p, in, hw_rng_next(r));
    }
  }
}

/* 1 if every output field of a and b agrees within its width. */
static inline int hw_tb_outputs_equal(const hw_unit *u, const void *a, const void *b,
                                      char *why, size_t len) {
  const hw_unit_desc *d = hw_unit_desc_of(u);
  for (unsigned i = 0; i < d->nports; i++) {
    const hw_port_desc *p = &d->ports[i];
    if (p->dir != HW_DIR_OUT) continue;
    char x[600], y[600];
    unsigned w = hw_unit_width(u, i);
    hw_field_hex(p, a, w, x, sizeof x);
    hw_field_hex(p, b, w, y, sizeof y);
    if (strcmp(x, y) != 0) {
      snprintf(why, len, "field %s: %s vs %s", p->name, x, y);
      return 0;
    }
  }
  return 1;
}

/* Input generator: fills `in` for cycle c. */
typedef void (*hw_tb_gen)(hw_unit *u, uint64_t c, void *in, hw_rng *r, void *ctx);

/* Runs `cycles` steps of unit desc in lockstep mode with generated inputs. Returns the
 * number of cycles run, or -1 with the lockstep message in d. */
static inline int64_t hw_tb_lockstep(const hw_unit_desc *desc, const int64_t *params,
                                     uint64_t cycles, uint64_t seed, hw_tb_gen gen, void *ctx,
                                     hw_wave *wave, rf_diag *d) {
  hw_unit *u = hw_unit_new(desc, NULL, HW_LOCKSTEP, params, wave, d);
  if (!u) return -1;
  if (wave) wave_tick(wave, 0); /* the reset that hw_unit_new applied, cycle 0 */
  hw_rng r = hw_rng_make(seed);
  void *in = calloc(1, desc->in_size), *out = calloc(1, desc->out_size);
  int64_t rc = 0;
  if (!in || !out) rc = rf_fail(d, "out of memory");
  for (uint64_t c = 1; rc == 0 && c <= cycles; c++) {
    memset(in, 0, desc->in_size);
    gen(u, c, in, &r, ctx);
    if (hw_unit_step(u, c, in, out, d) != 0) rc = -1;
    if (wave) wave_tick(wave, c);
  }
  free(in);
  free(out);
  hw_unit_free(u);
  return rc == 0 ? (int64_t)cycles : -1;
}

/* Runs the same generated input stream through a HW_C and a HW_RTL instance and compares
 * their outputs every cycle (the modes' own paths, not the lockstep comparator). */
static inline int hw_tb_c_vs_rtl(const hw_unit_desc *desc, const int64_t *params,
                                 uint64_t cycles, uint64_t seed, hw_tb_gen gen, void *ctx,
                                 rf_diag *d) {
  hw_unit *c_u = hw_unit_new(desc, "c", HW_C, params, NULL, d);
  if (!c_u) return -1;
  hw_unit *r_u = hw_unit_new(desc, "rtl", HW_RTL, params, NULL, d);
  if (!r_u) {
    hw_unit_free(c_u);
    return -1;
  }
  hw_rng r = hw_rng_make(seed);
  void *in = calloc(1, desc->in_size), *oc = calloc(1, desc->out_size),
       *orr = calloc(1, desc->out_size);
  int rc = (!in || !oc || !orr) ? rf_fail(d, "out of memory") : 0;
  for (uint64_t c = 1; rc == 0 && c <= cycles; c++) {
    memset(in, 0, desc->in_size);
    gen(c_u, c, in, &r, ctx);
    if (hw_unit_step(c_u, c, in, oc, d) || hw_unit_step(r_u, c, in, orr, d)) {
      rc = -1;
      break;
    }
    char why[1400];
    if (!hw_tb_outputs_equal(c_u, oc, orr, why, sizeof why))
      rc = rf_fail(d, "cycle %" PRIu64 ": C mode and RTL mode differ: %s", c, why);
  }
  free(in);
  free(oc);
  free(orr);
  hw_unit_free(c_u);
  hw_unit_free(r_u);
  return rc;
}

/* Bits [lo, lo+n) of a packed word array (a wide port), read bit by bit: the tests' own reading,
 * independent of csim/hw/bitfield.h, which the C references use. */
static inline uint64_t hw_tb_bits(const uint32_t *a, unsigned lo, unsigned n) {
  uint64_t v = 0;
  for (unsigned k = 0; k < n; k++)
    v |= (uint64_t)((a[(lo + k) / 32] >> ((lo + k) % 32)) & 1u) << k;
  return v;
}

/* Index of port `name` in desc, or -1. */
static inline int hw_tb_port(const hw_unit_desc *desc, const char *name) {
  for (unsigned i = 0; i < desc->nports; i++)
    if (strcmp(desc->ports[i].name, name) == 0) return (int)i;
  return -1;
}

/* The unit tests' waveform check: 1000 lockstep cycles (seed 7) recorded in the window 0..400
 * to build/hw/wave/<unit>.fst with a simulator-side "sm0.cycle" signal beside the unit's; then
 * the C-written FST, its .gtkw and the Verilated model's own FST must exist and be non-empty,
 * and no .partial file may be left. 0, or -1 with the reason in d. */
static inline int hw_tb_wave_run(const hw_unit_desc *desc, const int64_t *params, hw_tb_gen gen,
                                 rf_diag *d) {
  char path[256], other[320];
  hw_tb_wave_path(desc->name, path, sizeof path);
  hw_wave *w = wave_open(path, 0, 400, d);
  if (!w) return -1;
  if (wave_add_signal_ex(w, "sm0", "cycle", 32, WAVE_PRE, WAVE_DEC, d) < 0 ||
      hw_tb_lockstep(desc, params, 1000, 7, gen, NULL, w, d) < 0) {
    rf_diag ignored;
    wave_close(w, &ignored);
    return -1;
  }
  if (wave_close(w, d) != 0) return -1;
  struct stat sb;
  if (stat(path, &sb) != 0 || sb.st_size <= 200)
    return rf_fail(d, "%s: expected a recorded FST, found none or an empty one", path);
  snprintf(other, sizeof other, "build/hw/wave/%s.gtkw", desc->name);
  if (stat(other, &sb) != 0) return rf_fail(d, "%s: expected the save file, found none", other);
  snprintf(other, sizeof other, "build/hw/wave/%s.%s.rtl.fst", desc->name, desc->name);
  if (stat(other, &sb) != 0 || sb.st_size <= 200)
    return rf_fail(d, "%s: expected the Verilated model's FST, found none or an empty one", other);
  snprintf(other, sizeof other, "%s.partial", path);
  if (stat(other, &sb) == 0) return rf_fail(d, "%s: left behind after close", other);
  return 0;
}

#endif
