/* Reading GPGPU-Sim option files and single overrides. GPGPU-Sim strips '#' comments, joins the
 * file into one whitespace-separated token stream and pairs each `-option` with the next token,
 * where a token opening with '"' runs to the closing quote (so a value may span lines). rfsim
 * does the same, but keeps each token's line number for messages, and instead of aborting on an
 * option it does not model it notes it once and skips its value. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

#define TOKEN_MAX 4096
#define FILE_MAX (16L << 20) /* far beyond any config; guards against reading the wrong file */

/* ---- notes about options rfsim does not model ---- */

void config_notes_init(config_notes *n, FILE *out) {
  n->out = out;
  n->count = 0;
  n->used = 0;
  n->names[0] = '\0';
}

static void note_unknown(config_notes *n, const char *name, const char *origin, long line) {
  if (!n) return;
  for (size_t at = 0; at < n->used; at += strlen(n->names + at) + 1)
    if (strcmp(n->names + at, name) == 0) return;
  size_t len = strlen(name) + 1;
  if (len <= sizeof n->names - n->used) {
    memcpy(n->names + n->used, name, len);
    n->used += len;
  }
  n->count++;
  if (!n->out) return;
  if (line > 0)
    fprintf(n->out, "rfsim: note: option -%s is not modelled and was ignored (%s:%ld)\n", name,
            origin, line);
  else
    fprintf(n->out, "rfsim: note: option -%s is not modelled and was ignored (%s)\n", name,
            origin);
}

/* ---- applying one option ---- */

/* Applies value to c in place (the callers keep a copy for atomicity). */
static int apply(gpu_config *c, const opt_def *o, const char *value, const opt_site *s,
                 rf_diag *d) {
  if (!value) {
    if (o->kind != OPT_BOOL)
      return rf_fail_at(d, s->file, s->line, "-%s: expected a value, found nothing", o->name);
    value = "1"; /* a bare 0/1 option is a flag, as in GPGPU-Sim */
  }
  if (opt_parse_value(c, o, value, s, d) != 0) return -1;
  config_derive(c);
  return 0;
}

int config_set(gpu_config *c, const char *name, const char *value, const char *origin,
               long line, config_notes *notes, rf_diag *d) {
  if (name[0] == '-') name++;
  const opt_def *o = config_find_option(name);
  if (!o) {
    note_unknown(notes, name, origin, line);
    return 1;
  }
  opt_site s = {origin, line, o->name};
  gpu_config tmp = *c;
  if (apply(&tmp, o, value, &s, d) != 0) return -1;
  *c = tmp;
  return 0;
}

/* ---- tokenizer ---- */

typedef struct lexer {
  const char *buf;
  size_t len, pos;
  long line;
  const char *path;
} lexer;

typedef struct token {
  char text[TOKEN_MAX];
  long line;
} token;

static void skip_blank(lexer *lx) {
  while (lx->pos < lx->len) {
    char ch = lx->buf[lx->pos];
    if (ch == '#') {
      while (lx->pos < lx->len && lx->buf[lx->pos] != '\n') lx->pos++;
    } else if (isspace((unsigned char)ch)) {
      if (ch == '\n') lx->line++;
      lx->pos++;
    } else {
      return;
    }
  }
}

/* Fails at the token being read, naming the option when the token is its value. found NULL
 * means the end of the file. */
static int lex_fail(const lexer *lx, long line, const char *opt, const char *expected,
                    const char *found, rf_diag *d) {
  if (!found)
    return opt ? rf_fail_at(d, lx->path, line, "-%s: expected %s, found end of file", opt,
                            expected)
               : rf_fail_at(d, lx->path, line, "expected %s, found end of file", expected);
  if (opt) {
    opt_site s = {lx->path, line, opt};
    return opt_fail(d, &s, expected, found);
  }
  return rf_fail_at(d, lx->path, line, "expected %s, found '%s'", expected, found);
}

/* Appends ch to t (len tracked by caller); -1 when the token is too long. */
static int put(token *t, size_t *len, char ch) {
  if (*len + 1 >= sizeof t->text) return -1;
  t->text[(*len)++] = ch;
  return 0;
}

static int too_long(const lexer *lx, token *t, const char *opt, rf_diag *d) {
  memcpy(t->text + 40, "...", 4); /* show the start; the whole text would flood the message */
  return lex_fail(lx, t->line, opt, "a token of at most 4095 characters", t->text, d);
}

/* A quoted value: runs to the closing quote; whitespace runs (newlines included) become one
 * space, as GPGPU-Sim's token joining does, and '#' still starts a comment. */
static int lex_quoted(lexer *lx, token *t, const char *opt, rf_diag *d) {
  size_t len = 0;
  int space = 0;
  lx->pos++; /* opening quote */
  for (;;) {
    if (lx->pos >= lx->len)
      return lex_fail(lx, t->line, opt, "a closing '\"'", NULL, d);
    char ch = lx->buf[lx->pos];
    if (ch == '"') break;
    if (ch == '#' || isspace((unsigned char)ch)) {
      skip_blank(lx);
      space = len > 0;
      continue;
    }
    if ((space && put(t, &len, ' ') != 0) || put(t, &len, ch) != 0)
      return too_long(lx, t, opt, d);
    space = 0;
    lx->pos++;
  }
  lx->pos++; /* closing quote */
  t->text[len] = '\0';
  if (lx->pos < lx->len && !isspace((unsigned char)lx->buf[lx->pos]) &&
      lx->buf[lx->pos] != '#') {
    char after[2] = {lx->buf[lx->pos], '\0'};
    return lex_fail(lx, lx->line, opt, "whitespace after the closing '\"'", after, d);
  }
  return 0;
}

/* Reads the next token into t. *got = 0 at end of file. opt: the option whose value this is,
 * or NULL, for messages. */
static int lex_next(lexer *lx, token *t, int *got, const char *opt, rf_diag *d) {
  skip_blank(lx);
  *got = 0;
  if (lx->pos >= lx->len) return 0;
  t->line = lx->line;
  *got = 1;
  if (lx->buf[lx->pos] == '"') return lex_quoted(lx, t, opt, d);
  size_t len = 0;
  while (lx->pos < lx->len) {
    char ch = lx->buf[lx->pos];
    if (ch == '#' || isspace((unsigned char)ch)) break;
    if (put(t, &len, ch) != 0) return too_long(lx, t, opt, d);
    lx->pos++;
  }
  t->text[len] = '\0';
  return 0;
}

/* "-name", not a negative number. */
static int is_option(const char *text) {
  return text[0] == '-' && (isalpha((unsigned char)text[1]) || text[1] == '_');
}

/* ---- files ---- */

static int read_all(const char *path, char **out, size_t *out_len, rf_diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) return rf_fail(d, "%s: cannot open config file: %s", path, strerror(errno));
  size_t cap = 8192, len = 0;
  char *buf = rf_realloc(NULL, cap, 1, d);
  int rc = buf ? 0 : -1;
  while (rc == 0) {
    if (len == cap) {
      char *grown = cap < (size_t)FILE_MAX ? rf_realloc(buf, cap * 2, 1, d) : NULL;
      if (!grown) {
        if (cap >= (size_t)FILE_MAX)
          rf_fail(d, "%s: larger than %ld bytes; not a config file", path, FILE_MAX);
        rc = -1; /* d filled either way */
        break;
      }
      buf = grown;
      cap *= 2;
    }
    size_t n = fread(buf + len, 1, cap - len, f);
    len += n;
    if (n == 0) {
      if (ferror(f)) rc = rf_fail(d, "%s: read error: %s", path, strerror(errno));
      break;
    }
  }
  fclose(f); /* read-only: nothing to lose if close fails */
  const char *nul = rc == 0 ? memchr(buf, '\0', len) : NULL;
  if (nul) {
    long line = 1;
    for (const char *p = buf; p < nul; p++) line += *p == '\n';
    rc = rf_fail_at(d, path, line, "expected text, found a NUL byte (binary file?)");
  }
  if (rc != 0) {
    free(buf);
    return -1;
  }
  *out = buf;
  *out_len = len;
  return 0;
}

/* Walks the token stream, applying options to c. */
static int parse_stream(gpu_config *c, lexer *lx, config_notes *notes, rf_diag *d) {
  token *name = rf_calloc(2, sizeof *name, d); /* two 4 KB tokens: keep them off the stack */
  if (!name) return -1;
  token *value = name + 1;
  int got, rc = 0;
  while (rc == 0 && (rc = lex_next(lx, name, &got, NULL, d)) == 0 && got) {
    if (!is_option(name->text)) {
      rc = lex_fail(lx, name->line, NULL, "an option name starting with '-'", name->text, d);
      break;
    }
    const char *opt = name->text + 1;
    const opt_def *o = config_find_option(opt);
    lexer peek = *lx; /* a value is only consumed if it is one */
    int has;
    if ((rc = lex_next(&peek, value, &has, opt, d)) != 0) break;
    int value_like = has && !is_option(value->text);
    if (!o) {
      note_unknown(notes, opt, lx->path, name->line);
      if (value_like) *lx = peek;
      continue;
    }
    opt_site s = {lx->path, name->line, o->name};
    if (o->kind == OPT_BOOL && !value_like) {
      rc = apply(c, o, NULL, &s, d);
    } else if (!has) {
      rc = rf_fail_at(d, lx->path, name->line, "-%s: expected a value, found end of file", opt);
    } else {
      *lx = peek; /* like GPGPU-Sim, the next token is the value even if it looks like -x */
      rc = apply(c, o, value->text, &s, d);
    }
  }
  free(name);
  return rc;
}

int config_load_file(gpu_config *c, const char *path, config_notes *notes, rf_diag *d) {
  char *buf = NULL;
  size_t len = 0;
  if (read_all(path, &buf, &len, d) != 0) return -1;
  lexer lx = {buf, len, 0, 1, path};
  gpu_config tmp = *c; /* all or nothing: a bad line leaves c as it was */
  int rc = parse_stream(&tmp, &lx, notes, d);
  free(buf);
  if (rc == 0) *c = tmp;
  return rc;
}

/* ---- output ---- */

void config_dump(const gpu_config *c, FILE *out) {
  char value[TOKEN_MAX];
  for (size_t i = 0; i < config_option_count; i++) {
    const opt_def *o = &config_options[i];
    if (o->alias) continue;
    opt_format_value(c, o, value, sizeof value);
    fprintf(out, "-%s %s\n", o->name, value);
  }
}

void config_print_help(FILE *out) {
  gpu_config def;
  config_defaults(&def);
  char value[TOKEN_MAX];
  fprintf(out, "# option (GTX 480 default)  # meaning\n");
  for (size_t i = 0; i < config_option_count; i++) {
    const opt_def *o = &config_options[i];
    opt_format_value(&def, o, value, sizeof value);
    fprintf(out, "-%-38s %-20s # %s\n", o->name, value, o->help);
  }
}
