/* Small strict number and token parsers shared by the trace reader and the tools. The tp_parse_
 * ones accept only the whole token (no trailing garbage); the tp_read_ ones under them stop where
 * the number does (for the fast line reader and tp_next_i64). All reject overflow. */
#ifndef RFSIM_TRACE_PARSE_H
#define RFSIM_TRACE_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Byte classes, one load a byte: TP_BLANK separates tokens (space, tab), TP_END ends one (a
 * blank or the NUL). */
enum { TP_BLANK = 1, TP_END = 2 };
extern const uint8_t tp_byte_class[256];
static inline int tp_ends_token(char c) { return tp_byte_class[(unsigned char)c] & TP_END; }
/* s past its blanks; like strchr, as mutable as the caller's s. */
static inline char *tp_skip_blanks(const char *s) {
  while (tp_byte_class[(unsigned char)*s] & TP_BLANK) s++;
  return (char *)s;
}

/* s without its leading blanks and trailing blanks and CRs (cut off in place). */
char *tp_trim(char *s);
/* The same for s of length *n (strlen(s) == *n): a line as the line reader gives it. *n becomes
 * the length of what it returns. */
char *tp_trim_n(char *s, size_t *n);
/* Readers that stop where the number does, for a caller that knows what may follow it: the byte
 * after the number, with its value in *v; NULL if s does not start with one or it overflows. The
 * tp_parse_ functions below are these with the whole of s used. Inline: the fast line reader
 * calls them for most of a cold run's bytes. */

/* A hex digit's value plus one; 0 for any other byte. */
extern const uint8_t tp_hex_plus1[256];

/* Hex digits past the 16th: they fit only behind leading zeros (out of line: rare). */
const char *tp_read_hex64_long(const char *s, uint64_t *v);

/* An optional 0x or 0X, then hex digits. The loop is bounded at 16 so it can be unrolled. */
static inline const char *tp_read_hex64(const char *s, uint64_t *v) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  uint64_t x = 0;
  int digits = 0;
  for (unsigned dgt; (dgt = tp_hex_plus1[(unsigned char)s[digits]]) != 0; digits++) {
    if (digits == 16) return tp_read_hex64_long(s, v);
    x = x << 4 | (dgt - 1);
  }
  if (!digits) return NULL;
  *v = x;
  return s + digits;
}

/* Decimal digits past the 19th: they may overflow (out of line: rare). */
const char *tp_read_u64_long(const char *s, uint64_t *v);

/* Decimal digits. The first 19 cannot overflow (below 10^19 < 2^64), so the loop is bounded at
 * 19 and can be unrolled. */
static inline const char *tp_read_u64(const char *s, uint64_t *v) {
  uint64_t x = 0;
  int digits = 0;
  for (unsigned dgt; (dgt = (unsigned)(unsigned char)s[digits] - '0') <= 9; digits++) {
    if (digits == 19) return tp_read_u64_long(s, v);
    x = x * 10 + dgt;
  }
  if (!digits) return NULL;
  *v = x;
  return s + digits;
}

/* An optional + or -, then decimal digits, as an int64. */
static inline const char *tp_read_i64(const char *s, int64_t *v) {
  int neg = *s == '-';
  uint64_t x;
  const char *p = tp_read_u64(s + (neg || *s == '+'), &x);
  if (!p || x > (uint64_t)INT64_MAX + (uint64_t)neg) return NULL;
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  return p;
}

/* Hex with optional 0x prefix. */
int tp_parse_hex64(const char *s, uint64_t *v);
int tp_parse_u64(const char *s, uint64_t *v);
int tp_parse_i64(const char *s, int64_t *v);
int tp_parse_int(const char *s, int lo, int hi, int *v);
/* `n` integers in [lo, hi] separated by commas, each with optional blanks around it
 * ("1, 2,3"); the whole of s must be used. */
int tp_parse_int_list(const char *s, int n, int lo, int hi, int *v);
/* A "key = value" line whose trimmed key is `key`: returns the trimmed value (in place), or NULL
 * if the line is not one. */
char *tp_key_value(char *line, const char *key);

/* Tokenizer over a mutable line: returns the next space-separated token (NUL-terminated in
 * place) or NULL at the end. */
char *tp_next_token(char **cursor);
/* The next token read as tp_parse_i64 reads it, in one pass over it (the address deltas are most
 * of a trace's text): 1 with *v, 0 at the end (as tp_next_token's NULL), -1 if the token is not
 * such a number, with the cursor left at it for tp_next_token to give it to the message. */
int tp_next_i64(char **cursor, int64_t *v);

#endif
