#include "trace_input.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XZ_IN_BLOCK (256u << 10) /* compressed bytes read from the file at a time */
#define XZ_MAX_THREADS 8

static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

struct trace_input {
  int fd;
  char *path;
  int xz;
  /* xz only */
  lzma_stream strm;
  uint8_t *in_buf;
  int in_eof;  /* the file has no more compressed bytes */
  int done;    /* the archive's last stream ended */
};

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* read(2) that retries an interrupted call; -1 with d on an error. */
static long read_some(trace_input *in, void *buf, size_t n, rf_diag *d) {
  for (;;) {
    ssize_t got = read(in->fd, buf, n);
    if (got >= 0) return (long)got;
    if (errno != EINTR) return rf_fail(d, "%s: read error: %s", in->path, strerror(errno));
  }
}

static int start_xz(trace_input *in, rf_diag *d) {
  lzma_stream init = LZMA_STREAM_INIT;
  in->strm = init;
  in->in_buf = malloc(XZ_IN_BLOCK);
  if (!in->in_buf) return rf_fail(d, "out of memory");
  /* Decoding xz is slower than parsing the text it gives (about 55 MB/s a core against 200 on
   * a trace of random addresses), so the archive's blocks are decoded on several threads, ahead
   * of the reader: what the tracer's `xz -T0` and tracegen --xz write is cut into blocks of a
   * few MiB. An archive of a single block is decoded on one thread, all the same.
   * LZMA_CONCATENATED: like `xz -d`, an archive may hold several streams one after another. */
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  lzma_mt mt = {.flags = LZMA_CONCATENATED,
                .threads = (uint32_t)(cpus < 1 ? 1 : cpus > XZ_MAX_THREADS ? XZ_MAX_THREADS : cpus),
                .memlimit_threading = TRACE_XZ_MEMLIMIT / 2,
                .memlimit_stop = TRACE_XZ_MEMLIMIT};
  if (lzma_stream_decoder_mt(&in->strm, &mt) != LZMA_OK)
    return rf_fail(d, "%s: cannot start the xz decoder (out of memory?)", in->path);
  in->xz = 1;
  return 0;
}

int trace_input_open(const char *path, trace_input **out, rf_diag *d) {
  *out = NULL;
  trace_input *in = rf_calloc(1, sizeof *in, d);
  if (!in) return -1;
  in->fd = -1;
  in->path = strdup(path);
  in->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (!in->path || in->fd < 0) {
    int e = errno;
    trace_input_close(in);
    return rf_fail(d, "%s: cannot open: %s", path, strerror(e));
  }
  uint8_t head[sizeof xz_magic];
  ssize_t got = pread(in->fd, head, sizeof head, 0); /* the file position stays at 0 */
  int is_xz = got == (ssize_t)sizeof head && !memcmp(head, xz_magic, sizeof head);
  int rc = 0;
  if (got < 0)
    rc = rf_fail(d, "%s: read error: %s", path, strerror(errno));
  else if (!is_xz && ends_with(path, ".xz"))
    rc = rf_fail(d, "%s: expected an xz archive (the name ends in .xz), found no xz header at "
                    "byte 0", path);
  else if (is_xz)
    rc = start_xz(in, d);
  if (rc < 0) {
    trace_input_close(in);
    return -1;
  }
  *out = in;
  return 0;
}

static long xz_error(trace_input *in, lzma_ret ret, rf_diag *d) {
  unsigned long long at = (unsigned long long)in->strm.total_in;
  switch (ret) {
  case LZMA_BUF_ERROR:
    return rf_fail(d, "%s: truncated xz archive: its data ends at byte %llu, inside a stream",
                   in->path, at);
  case LZMA_MEMLIMIT_ERROR:
    return rf_fail(d, "%s: the xz archive asks for %llu MiB to decode (at byte %llu), more than "
                      "the %llu MiB allowed", in->path,
                   (unsigned long long)(lzma_memusage(&in->strm) >> 20), at,
                   TRACE_XZ_MEMLIMIT >> 20);
  case LZMA_MEM_ERROR: return rf_fail(d, "%s: out of memory decoding xz", in->path);
  case LZMA_FORMAT_ERROR:
    return rf_fail(d, "%s: corrupt xz archive: no xz stream header at byte %llu", in->path, at);
  case LZMA_OPTIONS_ERROR:
    return rf_fail(d, "%s: xz archive with options this liblzma cannot decode, at byte %llu",
                   in->path, at);
  case LZMA_DATA_ERROR:
    /* the threaded decoder checks a block when it has it whole: the damage is in that block */
    return rf_fail(d, "%s: corrupt xz archive: damaged data at or before byte %llu", in->path,
                   at);
  default:
    return rf_fail(d, "%s: xz decoding failed at byte %llu (liblzma error %d)", in->path, at,
                   (int)ret);
  }
}

/* Decodes until some text came out, the archive ended, or it turned out bad. */
static long xz_read(trace_input *in, char *buf, size_t n, rf_diag *d) {
  if (in->done) return 0;
  in->strm.next_out = (uint8_t *)buf;
  in->strm.avail_out = n;
  for (;;) {
    if (in->strm.avail_in == 0 && !in->in_eof) {
      long got = read_some(in, in->in_buf, XZ_IN_BLOCK, d);
      if (got < 0) return -1;
      in->in_eof = got == 0;
      in->strm.next_in = in->in_buf;
      in->strm.avail_in = (size_t)got;
    }
    /* LZMA_FINISH once the file has no more bytes: an archive cut short is then an error
     * (LZMA_BUF_ERROR), not a quiet end of the text */
    lzma_ret ret = lzma_code(&in->strm, in->in_eof ? LZMA_FINISH : LZMA_RUN);
    long produced = (long)(n - in->strm.avail_out);
    if (ret == LZMA_STREAM_END) {
      in->done = 1;
      return produced;
    }
    if (ret != LZMA_OK) return xz_error(in, ret, d);
    if (produced > 0) return produced;
  }
}

long trace_input_read(trace_input *in, char *buf, size_t n, rf_diag *d) {
  if (n == 0) return 0;
  return in->xz ? xz_read(in, buf, n, d) : read_some(in, buf, n, d);
}

int trace_input_fd(const trace_input *in) { return in->fd; }
int trace_input_is_xz(const trace_input *in) { return in->xz; }

void trace_input_close(trace_input *in) {
  if (!in) return;
  if (in->xz) lzma_end(&in->strm);
  if (in->fd >= 0) close(in->fd);
  free(in->in_buf);
  free(in->path);
  free(in);
}
