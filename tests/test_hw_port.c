/* Test of the co-simulation machinery itself (csim/hw/unit.c, wave.c, rtl_shim.cpp):
 *  - lockstep catches a deliberately broken RTL (wm_wlbuf built with `define BROKEN_FOR_TEST,
 *    linked here instead of the real one) at the first cycle where it misbehaves, and reports
 *    it in the documented format, with a waveform holding both values;
 *  - a unit whose RTL is not linked runs in C mode and is refused in RTL mode;
 *  - the FST writer: cycle window, scopes, wide values, the .gtkw, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../csim/hw/warpman/wm_check.h"
#include "../csim/hw/warpman/wm_wlbuf.h"
#include "../tb/hw_tb.h"
#include "fstapi.h"

static void test_mode_parse(void **st) {
  (void)st;
  hw_mode m;
  assert_int_equal(hw_mode_parse("c", &m), 0);
  assert_int_equal(m, HW_C);
  assert_int_equal(hw_mode_parse("rtl", &m), 0);
  assert_int_equal(m, HW_RTL);
  assert_int_equal(hw_mode_parse("lockstep", &m), 0);
  assert_int_equal(m, HW_LOCKSTEP);
  assert_int_equal(hw_mode_parse("verilog", &m), -1);
  assert_string_equal(hw_mode_name(HW_LOCKSTEP), "lockstep");
}

/* wm_check's RTL is not linked into this program. */
static void test_rtl_not_linked(void **st) {
  (void)st;
  rf_diag d;
  assert_null(wm_check_desc.rtl);
  hw_unit *u = wm_check_new("sm2.check", HW_RTL, NULL, NULL, &d);
  assert_null(u);
  assert_non_null(strstr(d.msg, "unit sm2.check"));
  assert_non_null(strstr(d.msg, "not linked"));
  u = wm_check_new("sm2.check", HW_LOCKSTEP, NULL, NULL, &d);
  assert_null(u);
  u = wm_check_new("sm2.check", HW_C, NULL, NULL, &d);
  assert_non_null(u);
  wm_check_in in = {0};
  wm_check_out o;
  in.req_i = 1;
  assert_int_equal(wm_check_step(u, 1, &in, &o, &d), 0);
  assert_int_equal(o.done_o, 1);
  hw_unit_free(u);
}

static void gen(hw_unit *u, uint64_t c, void *vin, hw_rng *r, void *ctx) {
  (void)c;
  (void)ctx;
  wm_wlbuf_in *in = vin;
  hw_tb_random_inputs(u, in, r);
  uint64_t k = hw_rng_below(r, 100);
  in->clr_i = k < 1;
  in->wr_i = k >= 1 && k < 8;
  in->adv_i = hw_rng_below(r, 2);
}

/* Value of the signal with full name `name` at time t, from an FST (NULL if absent). */
static const char *fst_value(void *ctx, const char *name, uint64_t t, char *buf) {
  char path[16][64];
  int depth = 0;
  struct fstHier *h;
  fstReaderIterateHierRewind(ctx);
  while ((h = fstReaderIterateHier(ctx))) {
    if (h->htyp == FST_HT_SCOPE && depth < 16) {
      snprintf(path[depth++], sizeof path[0], "%s", h->u.scope.name);
    } else if (h->htyp == FST_HT_UPSCOPE && depth > 0) {
      depth--;
    } else if (h->htyp == FST_HT_VAR) {
      char full[512] = "";
      for (int i = 0; i < depth; i++) {
        strcat(full, path[i]);
        strcat(full, ".");
      }
      size_t l = strcspn(h->u.var.name, " ");
      strncat(full, h->u.var.name, l);
      if (strcmp(full, name) == 0) {
        fstReaderSetFacProcessMaskAll(ctx);
        return fstReaderGetValueFromHandleAtTime(ctx, t, h->u.var.handle, buf);
      }
    }
  }
  return NULL;
}

static uint64_t bits_value(const char *s) {
  uint64_t v = 0;
  for (; s && *s; s++) v = (v << 1) | (uint64_t)(*s == '1');
  return v;
}

static void test_broken_rtl_caught(void **st) {
  (void)st;
  rf_diag d;
  const uint64_t seed = hw_tb_seed("broken wm_wlbuf", 11), cycles = 200000;
  /* Where should it fail? The fault fires when, after an edge, the entry is valid, its L_TBId
   * ends in 0xF and warp 7 is next. Find the first such cycle with the C model alone. */
  hw_unit *c_u = wm_wlbuf_new(NULL, HW_C, NULL, NULL, &d);
  assert_non_null(c_u);
  hw_rng r = hw_rng_make(seed);
  uint64_t first = 0;
  for (uint64_t c = 1; c <= cycles && !first; c++) {
    wm_wlbuf_in in = {0};
    wm_wlbuf_out o;
    gen(c_u, c, &in, &r, NULL);
    assert_int_equal(wm_wlbuf_step(c_u, c, &in, &o, &d), 0);
    if (o.valid_o && (o.ltb_o & 0xf) == 0xf && o.start_wid_o == 7) first = c;
  }
  hw_unit_free(c_u);
  assert_true(first > 0);
  printf("[ INFO     ] the fault first fires at cycle %" PRIu64 "\n", first);

  char path[256];
  hw_tb_wave_path("broken", path, sizeof path);
  hw_wave *w = wave_open(path, first > 50 ? first - 50 : 0, WAVE_NO_END, &d);
  assert_non_null(w);
  int64_t n = hw_tb_lockstep(&wm_wlbuf_desc, NULL, cycles, seed, gen, NULL, w, &d);
  assert_int_equal(n, -1);
  printf("[ INFO     ] %s\n", d.msg);
  unsigned long long cyc;
  unsigned long long x, y;
  char wave[300];
  int k = sscanf(d.msg,
                 "cycle %llu: unit wm_wlbuf: field ltb_o: expected (C reference) 0x%llx, "
                 "actual (RTL) 0x%llx; waveform: %299s",
                 &cyc, &x, &y, wave);
  assert_int_equal(k, 4);
  assert_int_equal(cyc, first);
  assert_int_equal(x ^ y, 1);
  assert_string_equal(wave, path);
  assert_non_null(strstr(d.msg, "(RTL internals: build/hw/wave/broken.wm_wlbuf.rtl.fst)"));
  assert_int_equal(wave_close(w, &d), 0);

  /* The waveform holds the failing edge: RTL and C reference values side by side. */
  void *f = fstReaderOpen(path);
  assert_non_null(f);
  char b1[64], b2[64];
  uint64_t t = first * 1000 + 500;
  const char *act = fst_value(f, "rfsim.wm_wlbuf.ltb_o", t, b1);
  const char *ref = fst_value(f, "rfsim.wm_wlbuf.ref.ltb_o", t, b2);
  assert_non_null(act);
  assert_non_null(ref);
  assert_int_equal(bits_value(act), y);
  assert_int_equal(bits_value(ref), x);
  assert_true(fstReaderGetEndTime(f) >= t);
  fstReaderClose(f);
}

/* C mode and RTL mode, side by side, also disagree on the broken RTL. */
static void test_broken_rtl_modes_differ(void **st) {
  (void)st;
  rf_diag d;
  assert_int_equal(hw_tb_c_vs_rtl(&wm_wlbuf_desc, NULL, 200000, 11, gen, NULL, &d), -1);
  assert_non_null(strstr(d.msg, "field ltb_o"));
}

static void test_wave_window_and_values(void **st) {
  (void)st;
  rf_diag d;
  char path[256];
  hw_tb_wave_path("window", path, sizeof path);
  hw_wave *w = wave_open(path, 10, 20, &d);
  assert_non_null(w);
  int hc = wave_add_signal_ex(w, "sm0", "cycle", 32, WAVE_PRE, WAVE_DEC, &d);
  int hw = wave_add_signal(w, "sm0.sched", "issued_wid", 6, &d);
  int hwide = wave_add_signal(w, "sm0.lock", "table", 100, &d);
  int hpost = wave_add_signal_ex(w, "sm1", "stall", 3, WAVE_POST, WAVE_HEX, &d);
  assert_true(hc >= 0 && hw >= 0 && hwide >= 0 && hpost >= 0);
  assert_int_equal(wave_add_signal(w, "sm0", "bad name", 1, &d), -1);
  assert_int_equal(wave_add_signal(w, "sm0..x/", "ok", 1, &d), -1);
  assert_int_equal(wave_add_signal(w, "sm0", "wide", 5000, &d), -1);
  for (uint64_t c = 0; c <= 30; c++) {
    uint32_t words[4] = {(uint32_t)c, 0, 0, 0xf}; /* bits 96..99 set */
    wave_set(w, hc, c);
    wave_set(w, hw, c & 63);
    wave_set_words(w, hwide, words);
    wave_set(w, hpost, c % 5);
    wave_tick(w, c);
    if (c == 12) assert_int_equal(wave_add_signal(w, "sm0", "late", 1, &d), -1);
  }
  assert_int_equal(wave_close(w, &d), 0);
  void *f = fstReaderOpen(path);
  assert_non_null(f);
  assert_int_equal(fstReaderGetStartTime(f), 10000);
  assert_int_equal(fstReaderGetEndTime(f), 20500);
  assert_int_equal(fstReaderGetVarCount(f), 5); /* clk + 4 */
  char b[128];
  assert_int_equal(bits_value(fst_value(f, "rfsim.sm0.cycle", 15000, b)), 15);
  assert_int_equal(bits_value(fst_value(f, "rfsim.sm0.cycle", 15400, b)), 15);
  assert_int_equal(bits_value(fst_value(f, "rfsim.sm0.sched.issued_wid", 20000, b)), 20);
  const char *wide = fst_value(f, "rfsim.sm0.lock.table", 13000, b);
  assert_int_equal(strlen(wide), 100);
  assert_memory_equal(wide, "1111", 4);
  assert_int_equal(bits_value(wide + 68), 13);
  /* a POST signal changes at the rising edge, half a cycle after PRE signals */
  assert_int_equal(bits_value(fst_value(f, "rfsim.sm1.stall", 12000, b)), 1);
  assert_int_equal(bits_value(fst_value(f, "rfsim.sm1.stall", 12500, b)), 2);
  assert_int_equal(bits_value(fst_value(f, "rfsim.clk", 12000, b)), 0);
  assert_int_equal(bits_value(fst_value(f, "rfsim.clk", 12500, b)), 1);
  fstReaderClose(f);
  /* the run's GTKWave save file groups by scope */
  FILE *g = fopen("build/hw/wave/window.gtkw", "r");
  assert_non_null(g);
  char text[4096];
  size_t len = fread(text, 1, sizeof text - 1, g);
  text[len] = 0;
  fclose(g);
  assert_non_null(strstr(text, "@800200\n-sm0.sched\n"));
  assert_non_null(strstr(text, "rfsim.sm0.lock.table[99:0]"));
  assert_non_null(strstr(text, "@24\nrfsim.sm0.cycle[31:0]"));
  struct stat sb;
  assert_int_not_equal(stat("build/hw/wave/window.fst.partial", &sb), 0);
}

static void test_wave_errors(void **st) {
  (void)st;
  rf_diag d;
  assert_null(wave_open("/nonexistent-dir/x.fst", 0, 10, &d));
  assert_non_null(strstr(d.msg, "/nonexistent-dir/x.fst"));
  assert_null(wave_open("build/hw/wave/x.fst", 10, 5, &d));
  assert_non_null(strstr(d.msg, "window"));
  /* a wave with nothing in its window is still a valid, empty file */
  char path[256];
  hw_wave *w = wave_open(hw_tb_wave_path("empty", path, sizeof path), 100, 200, &d);
  assert_non_null(w);
  wave_tick(w, 5);
  assert_int_equal(wave_close(w, &d), 0);
  void *f = fstReaderOpen(path);
  assert_non_null(f);
  fstReaderClose(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mode_parse),
      cmocka_unit_test(test_rtl_not_linked),
      cmocka_unit_test(test_broken_rtl_caught),
      cmocka_unit_test(test_broken_rtl_modes_differ),
      cmocka_unit_test(test_wave_window_and_values),
      cmocka_unit_test(test_wave_errors),
  };
  return cmocka_run_group_tests_name("hw_port", tests, NULL, NULL);
}
