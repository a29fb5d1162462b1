/* The inputs fuzzing found (tests/fixtures/fuzz/<target>/, see `make fuzz`) and the seeds it
 * starts from, replayed through the same target functions: each must be accepted, or rejected
 * with a message that names the file it came from. Under `make test-sanitize` the same replay
 * runs with AddressSanitizer and UBSan. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "fuzz/fuzz_targets.h"

static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open", path);
  size_t cap = 1 << 16, len = 0;
  uint8_t *buf = malloc(cap);
  assert_non_null(buf);
  for (size_t got; (got = fread(buf + len, 1, cap - len, f)) > 0;) {
    len += got;
    if (len == cap) {
      buf = realloc(buf, cap *= 2);
      assert_non_null(buf);
    }
  }
  fclose(f);
  *n = len;
  return buf;
}

/* Replays every file of `dir` whose name ends in `suffix` through target `t`; returns how many
 * there were. */
static int replay_dir(const fuzz_target *t, const char *dir, const char *suffix) {
  DIR *dp = opendir(dir);
  if (!dp) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dp)) != NULL) {
    size_t len = strlen(e->d_name), sl = strlen(suffix);
    if (e->d_name[0] == '.' || len < sl || strcmp(e->d_name + len - sl, suffix)) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t size;
    uint8_t *data = slurp(path, &size);
    rf_diag d = {{0}, 0};
    int r = t->run(data, size, &d);
    free(data);
    if (r < 0) fail_msg("%s: %s", path, d.msg);
    if (r == 1 && !strstr(d.msg, t->file))
      fail_msg("%s: rejected without naming the file: '%s'", path, d.msg);
    n++;
  }
  closedir(dp);
  return n;
}

static void test_found_inputs_and_seeds(void **state) {
  (void)state;
  static const struct {
    const char *target, *seed_dir, *suffix;
  } seeds[] = {
      {"kernel_trace", "tests/fixtures/tracegen/tiny", ".traceg"},
      {"kernelslist", "tests/fixtures/tracegen/tiny", ".g"},
      {"config", "configs", ".config"},
      {"tracegen_spec", "traces", ".spec"},
      {"sass_listing", "tests/fixtures/sass", ".sass"},
      {"cubin", "tests/fixtures/sass", ".cubin"},
  };
  int found = 0, seeded = 0;
  for (int i = 0; i < fuzz_ntargets; i++) {
    char dir[256];
    snprintf(dir, sizeof dir, "tests/fixtures/fuzz/%s", fuzz_targets[i].name);
    found += replay_dir(&fuzz_targets[i], dir, "");
  }
  for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
    seeded += replay_dir(fuzz_target_find(seeds[i].target), seeds[i].seed_dir, seeds[i].suffix);
  assert_true(found > 0);
  assert_true(seeded > 50);
}

/* A parser must answer any input within a bounded amount of memory: libFuzzer's
 * out-of-memory findings become failures here too (an allocation the size of a lying header
 * fails instead of being mapped lazily). AddressSanitizer reserves terabytes of shadow address
 * space, so the limit is left off under it (`make test-sanitize`). */
static void limit_address_space(void) {
#if !defined(__SANITIZE_ADDRESS__)
  struct rlimit r = {1ul << 30, 1ul << 30};
  if (setrlimit(RLIMIT_AS, &r) != 0) perror("setrlimit");
#endif
}

int main(void) {
  limit_address_space();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_found_inputs_and_seeds),
  };
  return cmocka_run_group_tests_name("fuzzing findings", tests, NULL, NULL);
}
