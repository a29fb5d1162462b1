#include "trace_parse.h"

#include <string.h>

const uint8_t tp_byte_class[256] = {['\0'] = TP_END, [' '] = TP_BLANK | TP_END,
                                    ['\t'] = TP_BLANK | TP_END};

const uint8_t tp_hex_plus1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,
    ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
    ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
    ['F'] = 16};

const char *tp_read_hex64_long(const char *s, uint64_t *v) {
  while (*s == '0' && tp_hex_plus1[(unsigned char)s[1]]) s++;
  uint64_t x = 0;
  int digits = 0;
  for (unsigned dgt; (dgt = tp_hex_plus1[(unsigned char)s[digits]]) != 0; digits++) {
    if (digits == 16) return NULL;
    x = x << 4 | (dgt - 1);
  }
  *v = x;
  return s + digits;
}

const char *tp_read_u64_long(const char *s, uint64_t *v) {
  uint64_t x = 0;
  int digits = 0;
  for (unsigned dgt; (dgt = (unsigned)(unsigned char)s[digits] - '0') <= 9; digits++) {
    if (x > (UINT64_MAX - dgt) / 10) return NULL;
    x = x * 10 + dgt;
  }
  *v = x;
  return s + digits;
}

char *tp_trim_n(char *s, size_t *n) {
  size_t k = *n;
  while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t' || s[k - 1] == '\r')) s[--k] = '\0';
  char *t = tp_skip_blanks(s);
  *n = k - (size_t)(t - s);
  return t;
}

char *tp_trim(char *s) {
  size_t n = strlen(s);
  return tp_trim_n(s, &n);
}

int tp_parse_hex64(const char *s, uint64_t *v) {
  uint64_t x;
  const char *end = tp_read_hex64(s, &x);
  if (!end || *end) return 0;
  *v = x;
  return 1;
}

int tp_parse_u64(const char *s, uint64_t *v) {
  uint64_t x;
  const char *end = tp_read_u64(s, &x);
  if (!end || *end) return 0;
  *v = x;
  return 1;
}

int tp_parse_i64(const char *s, int64_t *v) {
  int64_t x;
  const char *end = tp_read_i64(s, &x);
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
  char *k = tp_skip_blanks(line);
  if (strncmp(k, key, n)) return NULL;
  for (char *p = k + n; p < eq; p++)
    if (*p != ' ' && *p != '\t') return NULL;
  return tp_trim(eq + 1);
}

/* Ends a token at `end` (a blank or the NUL), NUL-terminating it there, and moves the cursor
 * past it. */
static void end_token(char **cursor, char *end) {
  if (*end) *end++ = '\0';
  *cursor = end;
}

char *tp_next_token(char **cursor) {
  char *tok = tp_skip_blanks(*cursor), *p = tok;
  if (*tok == '\0') {
    *cursor = tok;
    return NULL;
  }
  while (!tp_ends_token(*p)) p++;
  end_token(cursor, p);
  return tok;
}

int tp_next_i64(char **cursor, int64_t *v) {
  char *tok = tp_skip_blanks(*cursor);
  *cursor = tok;
  if (*tok == '\0') return 0;
  int64_t x;
  const char *end = tp_read_i64(tok, &x);
  if (!end || !tp_ends_token(*end)) return -1; /* (the cursor stays at it) */
  *v = x;
  end_token(cursor, tok + (end - tok)); /* (end, in the mutable line) */
  return 1;
}
