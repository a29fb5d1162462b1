#include "tg_stream.h"

#include <errno.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STREAM_BUF (1u << 20) /* text gathered before it is written or compressed */
#define XZ_OUT_BUF (256u << 10)
#define XZ_PRESET 1

struct tg_stream {
  FILE *f;
  char *path;
  tg_stream_kind kind;
  uint8_t *buf;
  size_t n;
  lzma_stream strm; /* xz */
  uint8_t *out;     /* xz: compressed bytes on their way to f */
  char why[200];    /* the first failure; empty while all is well */
};

static int fail(tg_stream *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(tg_stream *s, const char *fmt, ...) {
  if (!s->why[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static int put_file(tg_stream *s, const void *p, size_t n) {
  if (n && fwrite(p, 1, n, s->f) != n) return fail(s, "write error: %s", strerror(errno));
  return 0;
}

/* Runs the compressor over what is in strm.next_in until it is consumed (LZMA_RUN) or the
 * archive is complete (LZMA_FINISH), writing its output to the file. */
static int xz_pump(tg_stream *s, lzma_action action) {
  for (;;) {
    s->strm.next_out = s->out;
    s->strm.avail_out = XZ_OUT_BUF;
    lzma_ret ret = lzma_code(&s->strm, action);
    if (put_file(s, s->out, XZ_OUT_BUF - s->strm.avail_out) < 0) return -1;
    if (ret == LZMA_STREAM_END) return 0;
    if (ret != LZMA_OK) return fail(s, "xz compression failed (liblzma error %d)", (int)ret);
    if (action == LZMA_RUN && s->strm.avail_in == 0) return 0;
  }
}

static int flush(tg_stream *s) {
  if (s->why[0]) return -1;
  size_t n = s->n;
  s->n = 0;
  if (s->kind == TG_STREAM_PLAIN) return put_file(s, s->buf, n);
  s->strm.next_in = s->buf;
  s->strm.avail_in = n;
  return xz_pump(s, LZMA_RUN);
}

static int start_xz(tg_stream *s) {
  lzma_stream init = LZMA_STREAM_INIT;
  s->strm = init;
  s->out = malloc(XZ_OUT_BUF);
  if (!s->out) return fail(s, "out of memory");
  /* The threaded encoder cuts the archive into blocks (3 x the dictionary: 3 MiB at preset
   * 1) that a reader can decode in parallel; one thread keeps the writer's load to a core.
   * Its output does not depend on the thread count. */
  lzma_mt mt = {.threads = 1, .preset = XZ_PRESET, .check = LZMA_CHECK_CRC64};
  lzma_ret ret = lzma_stream_encoder_mt(&s->strm, &mt);
  if (ret != LZMA_OK) return fail(s, "cannot start the xz compressor (liblzma error %d)", (int)ret);
  return 0;
}

static void release(tg_stream *s) {
  if (s->kind == TG_STREAM_XZ) lzma_end(&s->strm);
  free(s->out);
  free(s->buf);
  free(s->path);
  free(s);
}

tg_stream *tg_stream_open(const char *path, tg_stream_kind kind, rf_diag *d) {
  tg_stream *s = rf_calloc(1, sizeof *s, d);
  if (!s) return NULL;
  s->kind = kind;
  s->path = strdup(path);
  s->buf = malloc(STREAM_BUF);
  if (!s->path || !s->buf) {
    release(s);
    rf_fail(d, "out of memory");
    return NULL;
  }
  s->f = fopen(path, "wb");
  if (!s->f) {
    rf_fail(d, "%s: cannot create: %s", path, strerror(errno));
    release(s);
    return NULL;
  }
  if (kind == TG_STREAM_XZ && start_xz(s) < 0) {
    rf_fail(d, "%s: %s", path, s->why);
    fclose(s->f);
    release(s);
    return NULL;
  }
  return s;
}

int tg_stream_write(tg_stream *s, const void *buf, size_t n) {
  if (s->why[0]) return -1;
  const uint8_t *p = buf;
  while (n > 0) {
    if (s->n == STREAM_BUF && flush(s) < 0) return -1;
    size_t k = STREAM_BUF - s->n < n ? STREAM_BUF - s->n : n;
    memcpy(s->buf + s->n, p, k);
    s->n += k;
    p += k;
    n -= k;
  }
  return 0;
}

int tg_stream_puts(tg_stream *s, const char *text) {
  return tg_stream_write(s, text, strlen(text));
}

int tg_stream_printf(tg_stream *s, const char *fmt, ...) {
  if (s->why[0]) return -1;
  for (int pass = 0; pass < 2; pass++) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf((char *)s->buf + s->n, STREAM_BUF - s->n, fmt, ap);
    va_end(ap);
    if (k < 0) return fail(s, "formatting failed");
    if ((size_t)k < STREAM_BUF - s->n) {
      s->n += (size_t)k;
      return 0;
    }
    if (pass == 0 && flush(s) < 0) return -1; /* room for it after a flush? */
  }
  /* longer than the whole buffer: formatted on its own */
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *big = k >= 0 ? malloc((size_t)k + 1) : NULL;
  if (!big) return fail(s, "out of memory");
  va_start(ap, fmt);
  vsnprintf(big, (size_t)k + 1, fmt, ap);
  va_end(ap);
  int rc = tg_stream_write(s, big, (size_t)k);
  free(big);
  return rc;
}

int tg_stream_close(tg_stream *s, rf_diag *d) {
  int rc = flush(s);
  if (rc == 0 && s->kind == TG_STREAM_XZ) {
    s->strm.next_in = NULL;
    s->strm.avail_in = 0;
    rc = xz_pump(s, LZMA_FINISH);
  }
  if (ferror(s->f)) rc = fail(s, "write error");
  if (fclose(s->f) != 0) rc = fail(s, "write error: %s", strerror(errno));
  if (rc < 0) rf_fail(d, "%s: %s", s->path, s->why);
  release(s);
  return rc;
}

void tg_stream_abort(tg_stream *s) {
  if (!s) return;
  fclose(s->f);
  release(s);
}

const char *tg_stream_path(const tg_stream *s) { return s->path; }
