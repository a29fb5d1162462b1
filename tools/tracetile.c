/* tracetile IN_KERNELSLIST OUTDIR --tbs N [--xz]: a trace with its thread blocks replicated to
 * a 1-D grid of N blocks (block i copies block i mod count, identical addresses), for
 * benchmarking the simulator on a large grid from a small real trace; --xz writes the kernel
 * files xz-compressed (kernel-N.traceg.xz). The input is text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/common/diag.h"
#include "../csim/tracegen/tg_tile.h"
#include "../csim/tracegen/tg_text.h"

static int usage(void) {
  fprintf(stderr, "usage: tracetile IN_KERNELSLIST OUTDIR --tbs N [--xz]\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *pos[2] = {NULL, NULL};
  int npos = 0;
  long ntbs = -1;
  tg_stream_kind kind = TG_STREAM_PLAIN;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--xz")) {
      kind = TG_STREAM_XZ;
    } else if (!strcmp(argv[i], "--tbs")) {
      uint64_t v;
      if (i + 1 >= argc || !tg_parse_u64(argv[i + 1], &v) || v < 1 || v > 0x7fffffffu) {
        fprintf(stderr, "tracetile: expected --tbs N with 1 <= N < 2^31, found '%s'\n",
                i + 1 < argc ? argv[i + 1] : "");
        return 2;
      }
      ntbs = (long)v;
      i++;
    } else if (npos < 2 && argv[i][0] != '-') {
      pos[npos++] = argv[i];
    } else {
      return usage();
    }
  }
  if (npos != 2 || ntbs < 0) return usage();
  rf_diag d = {{0}, 0};
  if (tg_tile(pos[0], pos[1], ntbs, kind, &d) < 0) {
    fprintf(stderr, "tracetile: %s\n", d.msg);
    return 1;
  }
  return 0;
}
