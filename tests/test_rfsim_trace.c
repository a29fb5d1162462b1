/* rfsim-trace's checks around the program, without the CUDA toolkit: a file that is not a
 * program, a program that does not use CUDA, one linked with the static runtime (an ELF with a
 * .nv_fatbin section, as nvcc's default link leaves), a missing cuobjdump and bad options each
 * get one clear line and a non-zero status; a C program linked against the stand-in
 * libcudart.so.11.0 runs on it (device memory round trip), and since it launches no kernel
 * rfsim-trace keeps no trace folder. Needs bin/rfsim-trace, bin/cudart and a C compiler. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/test_util.h"

static char dir[256];

static int setup(void **state) {
  (void)state;
  return tu_mkdtemp(dir, sizeof dir);
}
static int teardown(void **state) {
  (void)state;
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* runs rfsim-trace with args; its exit status, stderr in dir/err */
static int trace(const char *args) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "bin/rfsim-trace %s 2> '%s/err' > '%s/out'", args, dir, dir);
  return tu_sh(cmd);
}

static void expect_err(const char *needle) {
  char p[300], buf[2048] = "";
  snprintf(p, sizeof p, "%s/err", dir);
  FILE *f = fopen(p, "r");
  assert_non_null(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  if (!strstr(buf, needle)) fail_msg("rfsim-trace said '%s', expected '%s'", buf, needle);
}

/* compiles C source into dir/name with extra flags */
static void build(const char *name, const char *src, const char *flags) {
  char c[300], cmd[2400];
  snprintf(c, sizeof c, "%s.c", name);
  assert_int_equal(tu_write(dir, c, src), 0);
  snprintf(cmd, sizeof cmd, "cc -o '%s/%s' '%s/%s' %s", dir, name, dir, c, flags);
  assert_int_equal(tu_sh(cmd), 0);
}

static void test_not_a_program(void **state) {
  (void)state;
  char args[800];
  assert_int_equal(tu_write(dir, "notes.txt", "hello\n"), 0);
  snprintf(args, sizeof args, "-o '%s/t' '%s/notes.txt'", dir, dir);
  assert_int_not_equal(trace(args), 0); /* not executable */
  expect_err("no such executable program");
  snprintf(args, sizeof args, "-o '%s/t' /bin/true", dir);
  assert_int_equal(trace(args), 1);
  expect_err("is not a CUDA program (it does not use the CUDA runtime)");
}

static void test_static_runtime(void **state) {
  (void)state;
  build("static_rt",
        "__attribute__((section(\".nv_fatbin\"), used)) static const char fatbin[16] = {1};\n"
        "int main(void) { return 0; }\n",
        "");
  char args[800];
  snprintf(args, sizeof args, "-o '%s/t' '%s/static_rt'", dir, dir);
  assert_int_equal(trace(args), 1);
  expect_err("linked with the static CUDA runtime");
  expect_err("-cudart shared");
}

static const char *const roundtrip_c =
    "#include <stdio.h>\n"
    "int cudaMalloc(void **p, unsigned long n);\n"
    "int cudaMemcpy(void *d, const void *s, unsigned long n, int kind);\n"
    "int cudaFree(void *p);\n"
    "int main(void) {\n"
    "  int in[4] = {1, 2, 3, 4}, out[4] = {0};\n"
    "  void *d;\n"
    "  if (cudaMalloc(&d, sizeof in) || cudaMemcpy(d, in, sizeof in, 1) ||\n"
    "      cudaMemcpy(out, d, sizeof out, 2) || cudaFree(d)) return 3;\n"
    "  printf(\"%d %d %d %d\\n\", out[0], out[1], out[2], out[3]);\n"
    "  return out[3] == 4 ? 0 : 4;\n"
    "}\n";

static void test_shared_runtime_program(void **state) {
  (void)state;
  char cwd[512], flags[1200], args[1000];
  assert_non_null(getcwd(cwd, sizeof cwd));
  snprintf(flags, sizeof flags, "-L'%s/bin/cudart' -l:libcudart.so.11.0", cwd);
  build("roundtrip", roundtrip_c, flags);
  snprintf(args, sizeof args, "-o '%s/t' '%s/roundtrip'", dir, dir);
  assert_int_equal(trace(args), 1); /* it ran (and checked itself), but launched no kernel */
  expect_err("traced no kernel");
  /* -kernels and -regs items that selected nothing are noted, one line each */
  snprintf(args, sizeof args, "-kernels 3,k1,2-4 -regs k1=40 -o '%s/t' '%s/roundtrip'", dir, dir);
  assert_int_equal(trace(args), 1);
  expect_err("rfsim-trace: note: -kernels 3: selects no launch of the program\n"
             "rfsim-trace: note: -kernels k1: selects no launch of the program\n"
             "rfsim-trace: note: -kernels 2-4: selects no launch of the program\n"
             "rfsim-trace: note: -regs k1=40: no traced launch is of kernel k1\n"
             "rfsim-trace: ");
  char out[300];
  snprintf(out, sizeof out, "%s/out", dir);
  FILE *f = fopen(out, "r");
  char line[64] = "";
  assert_non_null(f);
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  assert_string_equal(line, "1 2 3 4\n");
  char t[300];
  snprintf(t, sizeof t, "%s/t", dir);
  assert_int_not_equal(access(t, F_OK), 0); /* no trace folder left */
  /* without cuobjdump: one line, before running anything */
  snprintf(args, sizeof args, "-cuobjdump /nonexistent/cuobjdump -o '%s/t' '%s/roundtrip'", dir,
           dir);
  assert_int_equal(trace(args), 1);
  expect_err("/nonexistent/cuobjdump: not found; the CUDA 11.8 toolkit provides it");
}

static void test_bad_options(void **state) {
  (void)state;
  assert_int_equal(trace("-budget 0 /bin/true"), 2);
  expect_err("-budget: expected a number of warp instructions >= 1, found '0'");
  assert_int_equal(trace("-sm 80 /bin/true"), 2);
  expect_err("-sm: expected an architecture 50-62 or 70-72, found '80'");
  /* -kernels LIST and the item it finds wrong */
  const char *bad_kernels[][2] = {{"0", "0"},   {"5-2", "5-2"}, {"1,,2", ""},   {"1-", "1-"},
                                  {"-3", "-3"}, {"", ""},       {"k 1", "k 1"}, {"2,1x", "1x"}};
  for (size_t i = 0; i < sizeof bad_kernels / sizeof *bad_kernels; i++) {
    char args[200], msg[300];
    snprintf(args, sizeof args, "-kernels '%s' /bin/true", bad_kernels[i][0]);
    assert_int_equal(trace(args), 2);
    snprintf(msg, sizeof msg, "-kernels: expected launch numbers from 1, ranges a-b with a <= b "
             "and kernel names, comma-separated, found '%s'", bad_kernels[i][1]);
    expect_err(msg);
  }
  assert_int_equal(trace("-frob 1 /bin/true"), 2);
  expect_err("unknown option -frob");
  assert_int_equal(trace(""), 2);
  expect_err("usage: rfsim-trace");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_not_a_program),
      cmocka_unit_test(test_static_runtime),
      cmocka_unit_test(test_shared_runtime_program),
      cmocka_unit_test(test_bad_options),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
