#include "tg_text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *tg_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

const char *tg_skip_space(const char *s) {
  while (*s == ' ' || *s == '\t') s++;
  return s;
}

const char *tg_scan_u64(const char *s, uint64_t *v) {
  if (!isdigit((unsigned char)*s)) return NULL;
  uint64_t x = 0;
  for (; isdigit((unsigned char)*s); s++) {
    unsigned digit = (unsigned)(*s - '0');
    if (x > (UINT64_MAX - digit) / 10) return NULL;
    x = x * 10 + digit;
  }
  *v = x;
  return s;
}

int tg_parse_u64(const char *s, uint64_t *v) {
  const char *end = tg_scan_u64(s, v);
  return end && *end == '\0';
}

int tg_parse_fraction(const char *s, double *v) {
  if (!*s || isspace((unsigned char)*s)) return 0;
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (errno || *end != '\0' || !isfinite(x) || x < 0.0 || x > 1.0) return 0;
  *v = x;
  return 1;
}

int tg_read_file(const char *path, size_t max_bytes, char **out, rf_diag *d) {
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) return rf_fail(d, "%s: cannot open: %s", path, strerror(errno));
  char *buf = rf_calloc(max_bytes + 1, 1, d);
  if (!buf) {
    fclose(f);
    return -1;
  }
  size_t n = fread(buf, 1, max_bytes + 1, f);
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(buf);
    return rf_fail(d, "%s: read error", path);
  }
  if (n > max_bytes) {
    free(buf);
    return rf_fail(d, "%s: expected at most %zu bytes, found more", path, max_bytes);
  }
  if (memchr(buf, '\0', n)) {
    free(buf);
    return rf_fail(d, "%s: expected text, found a NUL byte", path);
  }
  buf[n] = '\0';
  *out = buf;
  return 0;
}
