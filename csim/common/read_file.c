#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rf_read_file(const char *path, size_t max_bytes, uint8_t **out, size_t *len, rf_diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) return rf_fail(d, "%s: cannot open: %s", path, strerror(errno));
  size_t cap = max_bytes < (1 << 16) ? max_bytes : 1 << 16, n = 0;
  uint8_t *b = malloc(cap ? cap : 1);
  /* the buffer doubles while the file fills it, up to max_bytes */
  while (b) {
    n += fread(b + n, 1, cap - n, f);
    if (n < cap || cap == max_bytes) break;
    size_t grown = cap > max_bytes / 2 ? max_bytes : cap * 2;
    uint8_t *nb = realloc(b, grown);
    if (!nb) free(b);
    b = nb;
    cap = grown;
  }
  int err = ferror(f);
  fclose(f);
  if (!b || err) {
    free(b);
    return rf_fail(d, "%s: read error", path);
  }
  *out = b;
  *len = n;
  return 0;
}
