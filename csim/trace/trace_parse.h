/* Small strict number and token parsers shared by the trace reader and the tools. They accept
 * only the whole token (no trailing garbage) and reject overflow. */
#ifndef RFSIM_TRACE_PARSE_H
#define RFSIM_TRACE_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* s without its leading blanks and trailing blanks and CRs (cut off in place). */
char *tp_trim(char *s);
/* The same for s of length n (strlen(s) == n): a line as the line reader gives it. */
char *tp_trim_n(char *s, size_t n);
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
