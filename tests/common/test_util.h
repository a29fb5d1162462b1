/* Helpers shared by the test programs: temporary folders with fixture files, and where the
 * shared real traces are (tests that need them are skipped when ../shared is absent). */
#ifndef RFSIM_TEST_UTIL_H
#define RFSIM_TEST_UTIL_H

#include <stdio.h>

/* Creates a fresh temporary folder; returns its path (static storage per call site is the
 * caller's: copy it). */
int tu_mkdtemp(char *out, size_t n);
/* Writes `text` to dir/name. */
int tu_write(const char *dir, const char *name, const char *text);
/* Removes a folder created by tu_mkdtemp with the files written into it. */
void tu_rmtree(const char *dir);
/* Runs `cmd` with system(); its exit status, or -1 if it did not exit normally. */
int tu_sh(const char *cmd);
/* Path of a file under the shared traces folder (SHARED env var, default ../shared), or NULL
 * if it does not exist. */
const char *tu_shared_trace(const char *rel, char *buf, size_t n);

/* Text of a tracer-v5 kernel file (so BAR immediates name barriers): `ntb` blocks of `nwarps`
 * warps, warp w running bodies[w % nbodies] (instruction lines without PC and mask, each ending
 * in '\n'; PCs are assigned here, every lane active). Returns a malloc'd string or NULL. */
char *tu_kernel_text(const char *name, int ntb, int nwarps, int nregs,
                     const char *const *bodies, int nbodies);

/* Runs every kernel of a kernelslist on a fresh GPU with the units in `mode`; returns the
 * malloc'd text of every kernel's stats and the run total, without the lines that name the
 * -hw mode (`*_hw = ...`), so runs in different modes compare equal; fills *total. Fails the
 * test on any error. */
struct gpu_config;
struct stats_record;
char *tu_run_list(const struct gpu_config *c, int mode, const char *list_path,
                  struct stats_record *total);

/* Configuration checks (run from the repo root). tu_set_ok sets an option as the command line
 * would and fails the test on an error; tu_set_err expects exactly `msg` and the defaults left
 * unchanged; tu_validate_ok / tu_validate_err run config_validate. */
void tu_set_ok(struct gpu_config *c, const char *name, const char *value);
void tu_set_err(const char *name, const char *value, const char *msg);
void tu_validate_ok(const struct gpu_config *c);
void tu_validate_err(const struct gpu_config *c, const char *msg);

#endif
