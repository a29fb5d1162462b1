#include "trace_parse.h"

#include <ctype.h>
#include <string.h>

char *tp_trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
  return s;
}

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

int tp_parse_u64(const char *s, uint64_t *v) {
  if (*s == '\0') return 0;
  uint64_t x = 0;
  for (; *s; s++) {
    if (!isdigit((unsigned char)*s)) return 0;
    uint64_t dgt = (uint64_t)(*s - '0');
    if (x > (UINT64_MAX - dgt) / 10) return 0;
    x = x * 10 + dgt;
  }
  *v = x;
  return 1;
}

int tp_parse_i64(const char *s, int64_t *v) {
  int neg = *s == '-';
  uint64_t x;
  if (!tp_parse_u64(s + (neg || *s == '+'), &x)) return 0;
  if (x > (uint64_t)INT64_MAX + (uint64_t)neg) return 0;
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  return 1;
}

int tp_parse_int(const char *s, int lo, int hi, int *v) {
  int64_t x;
  if (!tp_parse_i64(s, &x) || x < lo || x > hi) return 0;
  *v = (int)x;
  return 1;
}

char *tp_next_token(char **cursor) {
  char *p = *cursor;
  while (*p == ' ' || *p == '\t') p++;
  if (*p == '\0') {
    *cursor = p;
    return NULL;
  }
  char *tok = p;
  while (*p && *p != ' ' && *p != '\t') p++;
  if (*p) *p++ = '\0';
  *cursor = p;
  return tok;
}
