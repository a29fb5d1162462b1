#include "trace_parse.h"

#include <string.h>

static char *skip_blanks(char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

char *tp_trim_n(char *s, size_t n) {
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
  return skip_blanks(s);
}

char *tp_trim(char *s) { return tp_trim_n(s, strlen(s)); }

int tp_parse_hex64(const char *s, uint64_t *v) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  if (*s == '\0') return 0;
  uint64_t x = 0;
  for (; *s; s++) {
    int c = (unsigned char)*s, dgt;
    if (c >= '0' && c <= '9') dgt = c - '0';
    else if (c >= 'a' && c <= 'f') dgt = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') dgt = c - 'A' + 10;
    else return 0;
    if (x >> 60) return 0;
    x = (x << 4) | (uint64_t)dgt;
  }
  *v = x;
  return 1;
}

/* The decimal digits at s, as far as they go: the byte after them, with their value in *v; NULL
 * if there are none or they overflow 64 bits. Below 10^18 after at most 18 digits, so the first
 * 19 cannot overflow: the check waits for the 20th (the address deltas of a cold run are most of
 * the numbers a trace holds). */
static const char *read_digits(const char *s, uint64_t *v) {
  uint64_t x = 0;
  int digits = 0;
  for (unsigned dgt; (dgt = (unsigned)(unsigned char)s[digits] - '0') <= 9; digits++) {
    if (digits >= 19 && x > (UINT64_MAX - dgt) / 10) return NULL;
    x = x * 10 + dgt;
  }
  if (!digits) return NULL;
  *v = x;
  return s + digits;
}

/* An optional sign and decimal digits at s, as an int64: the byte after them, with the value in
 * *v; NULL if they are not one. */
static const char *read_i64(const char *s, int64_t *v) {
  int neg = *s == '-';
  uint64_t x;
  const char *p = read_digits(s + (neg || *s == '+'), &x);
  if (!p || x > (uint64_t)INT64_MAX + (uint64_t)neg) return NULL;
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  return p;
}

int tp_parse_u64(const char *s, uint64_t *v) {
  uint64_t x;
  const char *end = read_digits(s, &x);
  if (!end || *end) return 0;
  *v = x;
  return 1;
}

int tp_parse_i64(const char *s, int64_t *v) {
  int64_t x;
  const char *end = read_i64(s, &x);
  if (!end || *end) return 0;
  *v = x;
  return 1;
}

int tp_parse_int(const char *s, int lo, int hi, int *v) {
  int64_t x;
  if (!tp_parse_i64(s, &x) || x < lo || x > hi) return 0;
  *v = (int)x;
  return 1;
}

int tp_parse_int_list(const char *s, int n, int lo, int hi, int *v) {
  for (int i = 0; i < n; i++) {
    const char *end = strchr(s, ',');
    if ((end != NULL) != (i < n - 1)) return 0;
    if (!end) end = s + strlen(s);
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    size_t len = (size_t)(end - s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
    char num[24];
    if (len == 0 || len >= sizeof num) return 0;
    memcpy(num, s, len);
    num[len] = '\0';
    if (!tp_parse_int(num, lo, hi, &v[i])) return 0;
    s = end + (*end == ',');
  }
  return 1;
}

char *tp_key_value(char *line, const char *key) {
  char *eq = strchr(line, '=');
  if (!eq) return NULL;
  size_t n = strlen(key);
  char *k = skip_blanks(line);
  if (strncmp(k, key, n)) return NULL;
  for (char *p = k + n; p < eq; p++)
    if (*p != ' ' && *p != '\t') return NULL;
  return tp_trim(eq + 1);
}

/* The bytes that end a token: NUL, space and tab (one load a byte instead of three tests). */
static const uint8_t token_end[256] = {['\0'] = 1, [' '] = 1, ['\t'] = 1};

/* Ends a token at `end` (a blank or the NUL), NUL-terminating it there, and moves the cursor
 * past it. */
static void end_token(char **cursor, char *end) {
  if (*end) *end++ = '\0';
  *cursor = end;
}

char *tp_next_token(char **cursor) {
  char *tok = skip_blanks(*cursor), *p = tok;
  if (*tok == '\0') {
    *cursor = tok;
    return NULL;
  }
  while (!token_end[(unsigned char)*p]) p++;
  end_token(cursor, p);
  return tok;
}

int tp_next_i64(char **cursor, int64_t *v) {
  char *tok = skip_blanks(*cursor);
  *cursor = tok;
  if (*tok == '\0') return 0;
  int64_t x;
  const char *end = read_i64(tok, &x);
  if (!end || !token_end[(unsigned char)*end]) return -1; /* (the cursor stays at it) */
  *v = x;
  end_token(cursor, tok + (end - tok)); /* (end, in the mutable line) */
  return 1;
}
