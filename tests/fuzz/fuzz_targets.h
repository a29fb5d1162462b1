/* The parsers rfsim exposes to users' files, each as a function of one input (the bytes of a
 * file). The libFuzzer entry (fuzz_entry.c, `make fuzz`) and the regression test of the inputs
 * fuzzing found (tests/test_fuzz_regressions.c, part of `make test`) call the same functions,
 * so a crash once found stays tested. A target returns 0 when its parser accepted the input and
 * 1 when it rejected it with a message; any other outcome (a crash, a sanitizer report, a
 * rejection without a file:line message) is the bug being looked for. */
#ifndef RFSIM_FUZZ_TARGETS_H
#define RFSIM_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

#include "../../csim/common/diag.h"

typedef int (*fuzz_target_fn)(const uint8_t *data, size_t size, rf_diag *d);

typedef struct fuzz_target {
  const char *name;   /* fixture folder tests/fixtures/fuzz/<name>/, corpus name */
  const char *file;   /* the file name the input is written as */
  fuzz_target_fn run;
} fuzz_target;

extern const fuzz_target fuzz_targets[];
extern const int fuzz_ntargets;

/* the SASS interpreter's inputs (fuzz_sass.c) */
int fuzz_sass_listing(const uint8_t *data, size_t size, rf_diag *d);
int fuzz_cubin(const uint8_t *data, size_t size, rf_diag *d);

/* The target called `name`, or NULL. */
const fuzz_target *fuzz_target_find(const char *name);

#endif
