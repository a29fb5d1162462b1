/* Where trace caches live: the user's cache folder (or -trace_cache_dir), each trace's cache
 * file named by its canonical path, the source's identity, and the folder's size bound. Nothing
 * is ever written beside a trace: trace folders are often read-only or shared. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace_cache.h"

/* An unfinished cache file untouched this long belongs to a writer that is gone (killed, or on
 * a machine that crashed): a live writer adds to its file with every thread block it reads. */
#define STALE_PARTIAL_SECONDS (24 * 3600)

int trace_cache_user_dir(char *buf, size_t n) {
  /* XDG Base Directory: $XDG_CACHE_HOME if set to an absolute path, else ~/.cache */
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int k;
  if (xdg && xdg[0] == '/') k = snprintf(buf, n, "%s/rfsim", xdg);
  else if (home && home[0] == '/') k = snprintf(buf, n, "%s/.cache/rfsim", home);
  else k = -1;
  if (k < 0 || (size_t)k >= n) {
    if (n) buf[0] = '\0';
    return -1;
  }
  return 0;
}

/* ---- the source's identity ---- */

static void identity_of_stat(const struct stat *st, tc_source *src) {
  src->size = (uint64_t)st->st_size;
  src->dev = (uint64_t)st->st_dev;
  src->ino = (uint64_t)st->st_ino;
  src->mtime_s = (int64_t)st->st_mtim.tv_sec;
  src->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
  src->ctime_s = (int64_t)st->st_ctim.tv_sec;
  src->ctime_ns = (int64_t)st->st_ctim.tv_nsec;
}

int tc_source_of_fd(int fd, const char *path, tc_source *src, rf_diag *d) {
  struct stat st;
  if (fstat(fd, &st) < 0) return rf_fail(d, "%s: cannot stat: %s", path, strerror(errno));
  identity_of_stat(&st, src);
  uint8_t *head = malloc(TC_HEAD_BYTES);
  if (!head) return rf_fail(d, "out of memory");
  size_t got = 0;
  while (got < TC_HEAD_BYTES) { /* pread: the reader's position in the file stays where it is */
    ssize_t k = pread(fd, head + got, TC_HEAD_BYTES - got, (off_t)got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t)k;
  }
  src->head_hash = tc_checksum(head, got);
  free(head);
  return 0;
}

int tc_source_unchanged(const char *path, const tc_source *src) {
  struct stat st;
  tc_source now;
  if (stat(path, &st) < 0) return 0;
  identity_of_stat(&st, &now);
  return now.size == src->size && now.dev == src->dev && now.ino == src->ino &&
         now.mtime_s == src->mtime_s && now.mtime_ns == src->mtime_ns &&
         now.ctime_s == src->ctime_s && now.ctime_ns == src->ctime_ns;
}

/* ---- the cache's place ---- */

int tc_place_of(const char *trace_path, const trace_cache_opts *o, uint64_t reader,
                tc_place *pl) {
  memset(pl, 0, sizeof *pl);
  if (o->dir && *o->dir) {
    if ((size_t)snprintf(pl->dir, sizeof pl->dir, "%s", o->dir) >= sizeof pl->dir) return -1;
  } else if (trace_cache_user_dir(pl->dir, sizeof pl->dir) < 0) {
    return -1;
  }
  char *canon = realpath(trace_path, NULL);
  if (!canon) return -1;
  size_t n = strlen(canon);
  if (n >= sizeof pl->source) {
    free(canon);
    return -1;
  }
  memcpy(pl->source, canon, n + 1);
  free(canon);
  const char *slash = strrchr(pl->source, '/');
  uint64_t h = tc_checksum((const uint8_t *)pl->source, n);
  snprintf(pl->path, sizeof pl->path, "%s/%.200s-%016llx-%08llx%s", pl->dir, slash + 1,
           (unsigned long long)h, (unsigned long long)(reader & 0xffffffffull), TC_SUFFIX);
  pl->max_bytes = o->max_bytes;
  return 0;
}

int tc_make_folder(const char *dir) {
  char buf[TC_PATH_MAX];
  if ((size_t)snprintf(buf, sizeof buf, "%s", dir) >= sizeof buf) return -1;
  struct stat st;
  if (stat(buf, &st) == 0) return S_ISDIR(st.st_mode) ? 0 : -1;
  /* mkdir -p: each missing level, private as XDG asks of the folders it makes */
  for (char *p = buf + 1;; p++) {
    if (*p != '/' && *p != '\0') continue;
    char c = *p;
    *p = '\0';
    if (mkdir(buf, 0700) < 0 && errno != EEXIST) return -1;
    *p = c;
    if (c == '\0') break;
  }
  return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

void tc_touch(const char *cache_path) { utimensat(AT_FDCWD, cache_path, NULL, 0); }

/* ---- the size bound ---- */

typedef struct cache_file {
  char name[256];
  uint64_t bytes;
  struct timespec used;
} cache_file;

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static int older_first(const void *a, const void *b) {
  const struct timespec *x = &((const cache_file *)a)->used, *y = &((const cache_file *)b)->used;
  if (x->tv_sec != y->tv_sec) return x->tv_sec < y->tv_sec ? -1 : 1;
  if (x->tv_nsec != y->tv_nsec) return x->tv_nsec < y->tv_nsec ? -1 : 1;
  return strcmp(((const cache_file *)a)->name, ((const cache_file *)b)->name);
}

void tc_evict(const char *dir, uint64_t max_bytes, const char *keep) {
  DIR *dp = opendir(dir);
  if (!dp) return;
  const char *keep_name = strrchr(keep, '/') ? strrchr(keep, '/') + 1 : keep;
  cache_file *files = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  time_t now = time(NULL);
  char path[TC_PATH_MAX + 260];
  struct dirent *e;
  while ((e = readdir(dp)) != NULL) {
    /* only what rfsim writes there: a folder shared with other files keeps them */
    int partial = strstr(e->d_name, TC_SUFFIX ".partial.") != NULL;
    if (!partial && !ends_with(e->d_name, TC_SUFFIX)) continue;
    if (strlen(e->d_name) >= sizeof files->name) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode)) continue;
    if (partial && now - st.st_mtim.tv_sec > STALE_PARTIAL_SECONDS) {
      unlink(path);
      continue;
    }
    total += (uint64_t)st.st_size;
    if (partial || !strcmp(e->d_name, keep_name)) continue; /* another writer's, or the new one */
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      cache_file *nf = realloc(files, cap * sizeof *nf);
      if (!nf) break;
      files = nf;
    }
    snprintf(files[n].name, sizeof files[n].name, "%s", e->d_name);
    files[n].bytes = (uint64_t)st.st_size;
    files[n].used = st.st_mtim;
    n++;
  }
  closedir(dp);
  if (max_bytes && total > max_bytes) {
    qsort(files, n, sizeof *files, older_first);
    /* Another run may evict the same files at the same time: a file already gone is fine, and
     * a run still reading a deleted cache keeps its open file. */
    for (size_t i = 0; i < n && total > max_bytes; i++) {
      snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
      if (unlink(path) == 0 || errno == ENOENT) total -= files[i].bytes;
    }
  }
  free(files);
}
