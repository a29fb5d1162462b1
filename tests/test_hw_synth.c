/* Checks the synthesis reports (make synth -> build/synth/<unit>.json) against the descriptors:
 * the workload buffer's flip-flop count must equal the sum of its field widths under the
 * parameters it was synthesized with (40 bits for GTX 480: 3 + 26 + 5 + 5 + 1); the sharing
 * units hold exactly the papers' storage formulas (273 and 93 bits for Tesla C2050) in the
 * fields those formulas count, beside the state they add; FineReg's SRAMs and status flops
 * equal the paper's sec. V-F figures; no unit may infer a latch. Reads the files from the
 * working directory (the repo root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../csim/hw/finereg/fr_idxdec.h"
#include "../csim/hw/finereg/fr_lrcache.h"
#include "../csim/hw/finereg/fr_pcrf.h"
#include "../csim/hw/finereg/fr_ptrtab.h"
#include "../csim/hw/finereg/fr_status.h"
#include "../csim/hw/warpman/wm_check.h"
#include "../csim/hw/warpman/wm_wlbuf.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open (run make synth first)", path);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return buf;
}

/* The integer after "key": in text, searching from `from`. */
static long long json_int(const char *text, const char *key, const char *path) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(text, pat);
  if (!p) fail_msg("%s: expected a \"%s\" field, found none", path, key);
  char *end;
  long long v = strtoll(p + strlen(pat), &end, 10);
  if (end == p + strlen(pat)) fail_msg("%s: \"%s\": expected an integer", path, key);
  return v;
}

static void test_wlbuf_flops_equal_field_widths(void **st) {
  (void)st;
  const char *path = "build/synth/wm_wlbuf.json";
  const char *j = slurp(path);
  const hw_unit_desc *u = &wm_wlbuf_desc;
  const char *params = strstr(j, "\"params\":");
  assert_non_null(params);
  int64_t p[HW_MAX_PARAMS];
  int defaults = 1;
  for (unsigned i = 0; i < u->nparams; i++) {
    p[i] = json_int(params, u->params[i].name, path);
    defaults &= p[i] == u->params[i].dflt;
  }
  unsigned sum = 0;
  for (unsigned i = 0; i < u->nports; i++)
    if (u->ports[i].dir == HW_DIR_STATE) sum += u->width(i, p);
  long long flops = json_int(j, "flop_bits", path);
  printf("[ INFO     ] wm_wlbuf: %lld flip-flops synthesized, field widths sum to %u%s\n", flops,
         sum, defaults ? " (GTX 480 parameters)" : "");
  assert_int_equal(flops, sum);
  if (defaults) assert_int_equal(flops, 40);
  assert_int_equal(json_int(j, "memory_bits", path), 0);
  assert_int_equal(json_int(j, "latches", path), 0);
}

/* The state a paper's formula counts, from the synthesized flops: the sum of the named
 * fields of "state" in the unit's report, which must also add up with the rest to the
 * flip-flop count Yosys found. */
static void check_paper_bits(const char *unit, const char *const *fields, int nfields,
                             long long paper) {
  char path[128];
  snprintf(path, sizeof path, "build/synth/%s.json", unit);
  const char *j = slurp(path);
  const char *state = strstr(j, "\"state\":");
  if (!state) fail_msg("%s: expected a \"state\" object", path);
  char obj[1024];
  const char *open = strchr(state, '{'), *close = open ? strchr(open, '}') : NULL;
  if (!close || (size_t)(close - open) >= sizeof obj) fail_msg("%s: malformed \"state\"", path);
  memcpy(obj, open + 1, (size_t)(close - open - 1));
  obj[close - open - 1] = '\0';
  long long counted = 0, all = 0;
  /* "name": width, ... */
  for (char *tok = strtok(obj, ","); tok; tok = strtok(NULL, ",")) {
    char name[64];
    long long w;
    if (sscanf(tok, " \"%63[^\"]\": %lld", name, &w) != 2)
      fail_msg("%s: state entry '%s'", path, tok);
    all += w;
    for (int f = 0; f < nfields; f++)
      if (!strcmp(name, fields[f])) counted += w;
  }
  long long flops = json_int(j, "flop_bits", path);
  printf("[ INFO     ] %s: %lld flip-flops; the paper's fields %lld (paper %lld), others %lld\n",
         unit, flops, counted, paper, all - counted);
  assert_int_equal(flops, all);
  assert_int_equal(counted, paper);
  assert_int_equal(json_int(j, "latches", path), 0);
}

/* Register sharing, Tesla C2050 (T = 8, W = 48): 1 + T*ceil(log2(T+1)) + 2W +
 * floor(W/2)*ceil(log2 W) = 273; scratchpad sharing: 1 + T*ceil(log2(T+1)) + W +
 * floor(T/2)*ceil(log2 T) = 93. */
static void test_sharing_storage_equals_the_papers_formulas(void **st) {
  (void)st;
  const int T = 8, W = 48;
  int tw = (int)hw_clog2(T + 1), ww = (int)hw_clog2(W), ti = (int)hw_clog2(T);
  const char *const rs[] = {"mode_q", "partner_q", "sharing_q", "owner_q", "lock_q"};
  check_paper_bits("rs_share", rs, 5, 1 + T * tw + 2 * W + W / 2 * ww);
  assert_int_equal(1 + T * tw + 2 * W + W / 2 * ww, 273);
  const char *const sp[] = {"mode_q", "partner_q", "owner_q", "lock_q"};
  check_paper_bits("sp_share", sp, 4, 1 + T * tw + W + T / 2 * ti);
}

/* The descriptor's memories (HW_MEM) under its default parameters: sum of width x depth. */
static long long desc_mem_bits(const hw_unit_desc *u) {
  int64_t p[HW_MAX_PARAMS];
  hw_params_default(u, p);
  long long bits = 0;
  for (unsigned i = 0; i < u->nports; i++)
    if (u->ports[i].dir == HW_DIR_MEM) bits += (long long)u->width(i, p) * u->depth(i, p);
  return bits;
}

/* FineReg (sec. V-F): the SRAMs Yosys infers are the descriptors' memories and the paper's
 * figures: live-register cache 32 x (32 + 64) = 3072 bits (384 B), pointer table 128 x 16 =
 * 2048 bits (256 B), PCRF tags 1024 x 21 = 21504 bits (2,688 B; the paper prints 2.15 KB);
 * the status monitor's 2 x 128 x 2 = 512 bits are flops (searched in parallel), so Yosys
 * finds no memory there and exactly those flops. */
static void test_finereg_storage_equals_the_papers(void **st) {
  (void)st;
  const struct {
    const char *unit;
    const hw_unit_desc *desc;
    long long paper;
  } sram[] = {{"fr_lrcache", &fr_lrcache_desc, 32 * (32 + 64)},
              {"fr_ptrtab", &fr_ptrtab_desc, 128 * (10 + 6)},
              {"fr_pcrf", &fr_pcrf_desc, 1024 * 21}};
  for (unsigned i = 0; i < sizeof sram / sizeof sram[0]; i++) {
    char path[128];
    snprintf(path, sizeof path, "build/synth/%s.json", sram[i].unit);
    const char *j = slurp(path);
    long long m = json_int(j, "memory_bits", path);
    printf("[ INFO     ] %s: %lld SRAM bits = %lld B (paper %lld bits), %lld flops\n", sram[i].unit,
           m, m / 8, sram[i].paper, json_int(j, "flop_bits", path));
    assert_int_equal(m, sram[i].paper);
    assert_int_equal(m, desc_mem_bits(sram[i].desc));
    assert_int_equal(json_int(j, "latches", path), 0);
  }
  const char *path = "build/synth/fr_status.json";
  const char *j = slurp(path);
  printf("[ INFO     ] fr_status: %lld flops (paper 2 x 128 x 2 = 512)\n",
         json_int(j, "flop_bits", path));
  assert_int_equal(json_int(j, "memory_bits", path), 0);
  assert_int_equal(json_int(j, "flop_bits", path), 2 * 128 * 2);
  assert_int_equal(json_int(j, "flop_bits", path), desc_mem_bits(&fr_status_desc));
  /* the index decoder holds no memory */
  assert_int_equal(desc_mem_bits(&fr_idxdec_desc), 0);
}

static void test_no_latches(void **st) {
  (void)st;
  const char *units[] = {"wm_wlbuf", "wm_check",   "rs_share",  "rs_dwe", "sp_share",
                         "fr_status", "fr_lrcache", "fr_idxdec", "fr_ptrtab", "fr_pcrf"};
  for (unsigned i = 0; i < sizeof units / sizeof units[0]; i++) {
    char path[128];
    snprintf(path, sizeof path, "build/synth/%s.json", units[i]);
    FILE *f = fopen(path, "rb");
    if (!f) continue; /* only the workload buffer's report is a prerequisite */
    fclose(f);
    const char *j = slurp(path);
    assert_int_equal(json_int(j, "latches", path), 0);
    assert_true(json_int(j, "flop_bits", path) > 0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wlbuf_flops_equal_field_widths),
      cmocka_unit_test(test_sharing_storage_equals_the_papers_formulas),
      cmocka_unit_test(test_finereg_storage_equals_the_papers),
      cmocka_unit_test(test_no_latches),
  };
  return cmocka_run_group_tests_name("hw_synth", tests, NULL, NULL);
}
