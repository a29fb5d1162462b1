/* libFuzzer entry for one target, chosen at build time with -DFUZZ_TARGET_NAME="\"name\"".
 * A rejection must carry a message naming the file (the promise: bad input gets a clear error
 * saying where); a crash or a sanitizer report ends the run with the input saved by libFuzzer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const fuzz_target *t = fuzz_target_find(FUZZ_TARGET_NAME);
  if (!t) abort();
  rf_diag d = {{0}, 0};
  int r = t->run(data, size, &d);
  /* as tests/test_fuzz_regressions.c replays it: a rejection names the file */
  if (r < 0 || (r == 1 && !strstr(d.msg, t->file))) {
    fprintf(stderr, "fuzz %s: %s%s\n", t->name, r < 0 ? "" : "rejected without naming the file: ",
            d.msg);
    abort();
  }
  return 0;
}
