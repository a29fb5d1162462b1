/* The first run on a bare machine: `make demo` / `make test` must install the Debian packages
 * and then build with them in the same invocation, and without root or sudo the user must see
 * the apt-get line and a non-zero status. Both paths are exercised without touching the
 * machine's packages:
 *  - the toolchain appears only when a stand-in deps step runs: Verilator's root is a path that
 *    does not exist until RFSIM_DEPS creates it, so any rule or variable that make resolved
 *    before the deps step (the bug: "No rule to make target build/hw/vrt/verilated.o") fails;
 *  - dpkg-query, id and sudo are replaced on PATH by scripts that report nothing installed, a
 *    user id of 1000 and no password-less sudo.
 * The nested makes build into a temporary folder and run without the enclosing make's
 * MAKEFLAGS, as a user's first command would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/test_util.h"

#define VERILATOR_ROOT "/usr/share/verilator"

/* Runs `cmd` through sh with the enclosing make's variables removed (make exports its
 * command-line variables, the wrapper's RFSIM_DEPS_CHECKED=1 among them, to every recipe's
 * environment), output to dir/log.
 * Returns the exit status and the log text (malloc'd) in *log. */
static int run_logged(const char *dir, const char *cmd, char **log) {
  char full[4096], path[1024];
  snprintf(full, sizeof full,
           "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u RFSIM_DEPS_CHECKED "
           "-u RFSIM_DEPS -u BUILD -u BIN -u HW_VROOT sh -c '%s' > %s/log 2>&1",
           cmd, dir);
  int st = system(full);
  snprintf(path, sizeof path, "%s/log", dir);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  size_t cap = 1 << 20;
  *log = calloc(1, cap);
  assert_non_null(*log);
  size_t n = fread(*log, 1, cap - 1, f);
  (*log)[n] = '\0';
  fclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static void write_script(const char *dir, const char *name, const char *text) {
  char path[1024];
  assert_int_equal(tu_write(dir, name, text), 0);
  snprintf(path, sizeof path, "%s/%s", dir, name);
  assert_int_equal(chmod(path, 0755), 0);
}

/* `make hw-libs` (a goal that runs the deps step, as `all` does) where the Verilator tree
 * appears only when the deps step runs: libverilated from that tree and a unit's Verilated model
 * must build in the same make. One unit (HW_UNITS=wm_check) stands for all of them: their rules
 * are the same pattern rules, and every unit and the simulator (`all`, about nine minutes of
 * CPU) would add nothing that the normal build does not check. */
static void test_tools_installed_by_deps_step_are_used_in_same_run(void **state) {
  (void)state;
  if (!exists(VERILATOR_ROOT "/include/verilated.cpp")) skip();
  char dir[256], cmd[2048], vroot[512], marker[512];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(vroot, sizeof vroot, "%s/vroot", dir);
  snprintf(marker, sizeof marker, "%s/deps-ran", dir);
  char standin[2048];
  snprintf(standin, sizeof standin,
           "#!/bin/sh\n# stand-in for tools/deps.sh: the toolchain appears now\n"
           "echo once >> %s\nln -sfn " VERILATOR_ROOT " %s\n", marker, vroot);
  write_script(dir, "deps.sh", standin);
  assert_false(exists(vroot));
  snprintf(cmd, sizeof cmd,
           "make -j2 RFSIM_DEPS=%s/deps.sh HW_VROOT=%s HW_UNITS=wm_check BUILD=%s/build "
           "BIN=%s/bin hw-libs", dir, vroot, dir, dir);
  char *log;
  int rc = run_logged(dir, cmd, &log);
  if (rc != 0) fail_msg("first `make` exited %d:\n%.4000s", rc, log);
  free(log);
  /* the deps step ran exactly once, and the tools it brought built libverilated and the unit's
   * model */
  assert_true(exists(vroot));
  char *ran;
  snprintf(cmd, sizeof cmd, "cat %s", marker);
  assert_int_equal(run_logged(dir, cmd, &ran), 0);
  assert_string_equal(ran, "once\n");
  free(ran);
  snprintf(cmd, sizeof cmd, "%s/build/hw/libverilated.a", dir);
  assert_true(exists(cmd));
  snprintf(cmd, sizeof cmd, "%s/build/hw/wm_check/obj/Vwm_check__ALL.a", dir);
  assert_true(exists(cmd));
  tu_rmtree(dir);
}

/* Without root and without password-less sudo: the apt-get line, a non-zero status, and
 * nothing built, for each of the README's two commands and for the goals that need a package
 * of their own besides (named after the common ones, and only for them). */
static void test_no_root_no_sudo_prints_apt_line(void **state) {
  (void)state;
  char dir[256], bindir[512], cmd[2048];
  assert_int_equal(tu_mkdtemp(dir, sizeof dir), 0);
  snprintf(bindir, sizeof bindir, "%s/fakebin", dir);
  assert_int_equal(mkdir(bindir, 0755), 0);
  write_script(bindir, "dpkg-query", "#!/bin/sh\nexit 1\n");
  write_script(bindir, "id", "#!/bin/sh\necho 1000\n");
  write_script(bindir, "sudo", "#!/bin/sh\necho 'sudo: a password is required' >&2\nexit 1\n");
  static const struct {
    const char *goal, *extra;
  } goals[] = {{"demo", ""},
               {"test", ""},
               {"bench-count", " valgrind"},
               {"fuzz", " clang libclang-rt-14-dev"}};
  const char *common = "build-essential zlib1g-dev liblzma-dev libcmocka-dev verilator yosys "
                       "iverilog gtkwave opensta qflow-tech-osu018 gnuplot-nox xvfb";
  for (size_t g = 0; g < sizeof goals / sizeof goals[0]; g++) {
    snprintf(cmd, sizeof cmd, "PATH=%s:$PATH make BUILD=%s/build BIN=%s/bin %s", bindir, dir,
             dir, goals[g].goal);
    char *log;
    int rc = run_logged(dir, cmd, &log);
    if (rc == 0) fail_msg("`make %s` without root or sudo exited 0:\n%s", goals[g].goal, log);
    char want[1024];
    snprintf(want, sizeof want,
             "rfsim: installing missing Debian packages: %s%s\n"
             "rfsim: cannot install (not root, no password-less sudo). Please run:\n"
             "  sudo apt-get install %s%s\n",
             common, goals[g].extra, common, goals[g].extra);
    if (strncmp(log, want, strlen(want)) != 0)
      fail_msg("`make %s` said:\n%s\nexpected it to begin with:\n%s", goals[g].goal, log, want);
    snprintf(cmd, sizeof cmd, "%s/build", dir);
    if (exists(cmd))
      fail_msg("`make %s` built something before its packages were there", goals[g].goal);
    free(log);
  }
  tu_rmtree(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tools_installed_by_deps_step_are_used_in_same_run),
      cmocka_unit_test(test_no_root_no_sudo_prints_apt_line),
  };
  return cmocka_run_group_tests_name("first run on a bare machine", tests, NULL, NULL);
}
