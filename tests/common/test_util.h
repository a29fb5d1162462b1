/* Helpers shared by the test programs: temporary folders with fixture files, and where the
 * shared real traces are (tests that need them are skipped when ../shared is absent). */
#ifndef RFSIM_TEST_UTIL_H
#define RFSIM_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>

/* Creates a fresh temporary folder; returns its path (static storage per call site is the
 * caller's: copy it). */
int tu_mkdtemp(char *out, size_t n);
/* Writes `text` to dir/name. */
int tu_write(const char *dir, const char *name, const char *text);
/* Removes a folder created by tu_mkdtemp with the files written into it. */
void tu_rmtree(const char *dir);
/* How many entries of `dir` (not starting with '.') have `containing` in their name; -1 if the
 * folder cannot be read. */
int tu_count_files(const char *dir, const char *containing);
/* Runs `cmd` with system(); its exit status, or -1 if it did not exit normally. */
int tu_sh(const char *cmd);
/* Points the user's cache folder (XDG_CACHE_HOME) at build/test-cache, so that a test that
 * runs bin/rfsim, or reads traces through the default cache folder, never writes to the
 * user's home (tests/run.sh does the same for every binary). Call first in main(). */
void tu_private_cache(void);
/* Path of a file under the shared traces folder (SHARED env var, default ../shared), or NULL
 * if it does not exist. */
const char *tu_shared_trace(const char *rel, char *buf, size_t n);

/* Text of a tracer-v5 kernel file (so BAR immediates name barriers): `ntb` blocks of `nwarps`
 * warps, warp w running bodies[w % nbodies] (instruction lines without PC and mask, each ending
 * in '\n'; PCs are assigned here, every lane active). Returns a malloc'd string or NULL. */
char *tu_kernel_text(const char *name, int ntb, int nwarps, int nregs,
                     const char *const *bodies, int nbodies);
/* A new temporary folder `dir` (dirn bytes) holding kernel-1.traceg with `text` and a
 * kernelslist.g naming it, whose path goes to `list` (listn bytes); fails the test on an error.
 * tu_rmtree(dir) removes it. */
void tu_kernel_dir(char *dir, size_t dirn, char *list, size_t listn, const char *text);

/* Runs every kernel of a kernelslist on a fresh GPU with the units in `mode`; returns the
 * malloc'd text of every kernel's stats and the run total, without the lines that name the
 * -hw mode (`*_hw = ...`), so runs in different modes compare equal; fills *total. Fails the
 * test on any error. */
struct gpu_config;
struct stats_record;
char *tu_run_list(const struct gpu_config *c, int mode, const char *list_path,
                  struct stats_record *total);
/* The same with the policy `ops` instead of the config's (NULL: the config's) and a per-cycle
 * observer (obs_cycle NULL: none). */
struct gpu;
struct policy_ops;
char *tu_run_list_with(const struct gpu_config *c, int mode, const struct policy_ops *ops,
                       void (*obs_cycle)(void *ctx, const struct gpu *g, uint64_t now),
                       void *obs_ctx, const char *list_path, struct stats_record *total);
/* The same with the SMs stepped on `threads` threads (gpu_set_threads), the team stepping
 * every cycle (PACE_TEAM: a test of the threads must not leave them to the pacer, which on a
 * busy machine steps on one thread). */
char *tu_run_list_threads(const struct gpu_config *c, int mode, const struct policy_ops *ops,
                          void (*obs_cycle)(void *ctx, const struct gpu *g, uint64_t now),
                          void *obs_ctx, int threads, const char *list_path,
                          struct stats_record *total);
/* ... and with the pace given (a pace_mode: gpu_set_pace). */
char *tu_run_list_paced(const struct gpu_config *c, int mode, const struct policy_ops *ops,
                        void (*obs_cycle)(void *ctx, const struct gpu *g, uint64_t now),
                        void *obs_ctx, int threads, int pace, const char *list_path,
                        struct stats_record *total);
/* tu_run_list_threads with the config's policy, no observer, and `setup` called on the GPU
 * before its first kernel; the text alone (its callers compare runs). */
char *tu_run_list_setup(const struct gpu_config *c, void (*setup)(struct gpu *g, void *ctx),
                        void *setup_ctx, int threads, const char *list_path);

/* Reads the kernel trace `text_path` as text and `path` (the same trace, or a copy in another
 * form: xz) through the cache options `o` (NULL: no cache), in lockstep, failing the test at
 * the first field of a header or thread block that differs. Returns whether the second started
 * out reading a cache; *tbs (if given) gets the thread-block count. */
struct trace_cache_opts;
struct trace_tb;
int tu_compare_kernels(const char *text_path, const char *path, const struct trace_cache_opts *o,
                       long *tbs);
/* The kernel files a kernelslist names, in order: their count, and *out a malloc'd array of
 * malloc'd paths. Fails the test if the list cannot be read. */
int tu_list_kernels(const char *list_path, char ***out);
/* Compresses the file `src` into the xz archive `dst` with liblzma (the trace writer's stream,
 * tg_stream), never the xz program. */
void tu_xz_file(const char *src, const char *dst);
/* An xz copy of a trace folder in `dir`: every kernel file compressed to NAME.xz and named so
 * in the copy of kernelslist.g, whose other lines are kept. Writes the copy's list path. */
void tu_xz_folder(const char *list, const char *dir, char *out_list, size_t n);
/* Fails the test unless the two thread blocks are equal, field by field. */
void tu_assert_same_tb(const struct trace_tb *a, const struct trace_tb *b);

/* A cmocka fixture for a test that writes files: tu_fixture_setup makes *state a tu_fixture
 * with a fresh folder (tu_mkdtemp), which tu_fixture_teardown removes with all it holds. */
typedef struct tu_fixture {
  char dir[512];
} tu_fixture;
int tu_fixture_setup(void **state);
int tu_fixture_teardown(void **state);
/* A test run with the fixture, for the cmocka_unit_test list. */
#define TU_FIXTURE_TEST(test) \
  cmocka_unit_test_setup_teardown(test, tu_fixture_setup, tu_fixture_teardown)
/* A path inside the fixture's folder, returned by value so several can be alive in one call:
 * tu_path_in(f, "a").s stays valid until the end of the full expression. */
typedef struct tu_path {
  char s[1024];
} tu_path;
tu_path tu_path_in(const tu_fixture *f, const char *name);
/* The whole of a file, malloc'd and NUL-terminated, its length in *n (n may be NULL); fails
 * the test if it cannot be read. tu_same_file: whether two files hold the same bytes. */
char *tu_slurp(const char *path, size_t *n);
int tu_same_file(const char *a, const char *b);
/* Opens kernel file `name` in `dir` and reads its TBs one by one into `fn`; fails the test on
 * a reader error. */
struct trace_kernel_info;
typedef void (*tu_tb_fn)(const struct trace_kernel_info *in, const struct trace_tb *tb,
                         void *arg);
void tu_for_each_tb(const char *dir, const char *name, tu_tb_fn fn, void *arg);

/* tracegen specs given as text (named t.spec in messages), failing the test on any error:
 * parsed (free with tg_spec_free), generated into `outdir` as plain text, or parsed and planned
 * (free both with tu_tg_plan_done). */
struct tg_spec;
struct tg_plan;
struct tg_spec *tu_tg_parse_ok(const char *text);
void tu_tg_generate_ok(const char *text, const char *outdir);
typedef struct tu_tg_plans {
  struct tg_spec *s;
  struct tg_plan *plans;
} tu_tg_plans;
tu_tg_plans tu_tg_plan_of(const char *text);
void tu_tg_plan_done(tu_tg_plans *pf);

/* Configuration checks (run from the repo root). tu_set_ok sets an option as the command line
 * would and fails the test on an error; tu_set_err expects exactly `msg` and the defaults left
 * unchanged; tu_validate_ok / tu_validate_err run config_validate. TU_ORIGIN is the origin they
 * give config_set (its messages begin "command line: "). */
#define TU_ORIGIN "command line"
void tu_set_ok(struct gpu_config *c, const char *name, const char *value);
/* The config file `file` (from the repo root) with the options opts[0..n) set after it, as a
 * configuration file's lines would be, then validated; fails the test on any error. */
void tu_load_config(struct gpu_config *c, const char *file, const char *const (*opts)[2],
                    size_t n);
/* For each of runs[0..n) (a generated workload's name under build/traces, a config file):
 * each(config, the workload's kernelslist.g). */
void tu_each_workload(const char *const (*runs)[2], size_t n,
                      void (*each)(const struct gpu_config *c, const char *list));
void tu_set_err(const char *name, const char *value, const char *msg);
void tu_validate_ok(const struct gpu_config *c);
void tu_validate_err(const struct gpu_config *c, const char *msg);
/* Fails the test unless `cc` is an enabled cache of this geometry, these policy letters
 * (replacement, write, allocation, write-allocate, set index, MSHR type) and these MSHR entries,
 * merge limit and miss queue entries. */
struct cache_config;
void tu_expect_cache(const struct cache_config *cc, int sectored, int sets, int line, int ways,
                     const char *letters, int entries, int merge, int missq);

#endif
