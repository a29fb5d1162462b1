/* Checks the synthesis reports (make synth -> build/synth/<unit>.json) against the descriptors:
 * the workload buffer's flip-flop count must equal the sum of its field widths under the
 * parameters it was synthesized with (40 bits for GTX 480: 3 + 26 + 5 + 5 + 1), and no unit
 * may infer a latch. Reads the files from the working directory (the repo root). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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

static void test_no_latches(void **st) {
  (void)st;
  const char *units[] = {"wm_wlbuf", "wm_check"};
  for (unsigned i = 0; i < 2; i++) {
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
      cmocka_unit_test(test_no_latches),
  };
  return cmocka_run_group_tests_name("hw_synth", tests, NULL, NULL);
}
