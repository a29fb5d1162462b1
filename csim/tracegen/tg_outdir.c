#include "tg_outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* Trace files (text or xz), and the binary trace caches rfsim once kept next to them
 * (kernel-N.traceg.rfc, or one being written: kernel-N.traceg.rfc.partial.<pid>), which are
 * derived from them; rfsim now keeps its caches in the user's cache folder. */
static int is_trace_file(const char *name) {
  return !strcmp(name, "kernelslist.g") || ends_with(name, ".traceg") ||
         ends_with(name, ".traceg.xz") || ends_with(name, ".traceg.rfc") ||
         strstr(name, ".traceg.rfc.partial.") != NULL;
}

/* mkdir -p of the folder that will hold `path`. */
static int make_parents(const char *path, rf_diag *d) {
  char buf[TG_PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  char *slash = strrchr(buf, '/');
  if (!slash || slash == buf) return 0;
  *slash = '\0';
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0777) < 0 && errno != EEXIST)
      return rf_fail(d, "%s: cannot create folder: %s", buf, strerror(errno));
    *p = '/';
  }
  if (mkdir(buf, 0777) < 0 && errno != EEXIST)
    return rf_fail(d, "%s: cannot create folder: %s", buf, strerror(errno));
  return 0;
}

/* Deletes the plain files of a folder and the folder itself (best effort). */
static void remove_folder(const char *dir) {
  DIR *dp = opendir(dir);
  if (dp) {
    struct dirent *e;
    char path[TG_PATH_MAX + 256];
    while ((e = readdir(dp)) != NULL) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
    closedir(dp);
  }
  rmdir(dir);
}

int tg_outdir_begin(tg_outdir *o, const char *final, rf_diag *d) {
  size_t n = strlen(final);
  while (n > 1 && final[n - 1] == '/') n--;
  if (n == 0 || n + 16 >= TG_PATH_MAX)
    return rf_fail(d, "expected an output folder path, found '%s'", final);
  memcpy(o->final, final, n);
  o->final[n] = '\0';
  if (make_parents(o->final, d) < 0) return -1;
  snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", o->final);
  if (!mkdtemp(o->tmp))
    return rf_fail(d, "%s: cannot create a temporary folder: %s", o->tmp, strerror(errno));
  /* mkdtemp makes it private (0700); the result is an ordinary shared build product. */
  if (chmod(o->tmp, 0755) < 0) {
    int e = errno;
    tg_outdir_abort(o);
    return rf_fail(d, "%s: cannot set permissions: %s", o->final, strerror(e));
  }
  return 0;
}

tg_stream *tg_outdir_open(tg_outdir *o, const char *name, tg_stream_kind kind, char *path_out,
                          size_t path_size, rf_diag *d) {
  int n = snprintf(path_out, path_size, "%s/%s", o->tmp, name);
  if (n < 0 || (size_t)n >= path_size) {
    rf_fail(d, "%s/%s: path too long", o->tmp, name);
    return NULL;
  }
  return tg_stream_open(path_out, kind, d);
}

/* Checks that an existing OUTDIR holds only trace files before it is replaced. */
static int check_replaceable(const char *dir, rf_diag *d) {
  DIR *dp = opendir(dir);
  if (!dp) return rf_fail(d, "%s: expected a folder to replace, found something else", dir);
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(dp)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (!is_trace_file(e->d_name))
      rc = rf_fail(d, "%s: expected a folder holding only trace files to replace, found '%s'",
                   dir, e->d_name);
  }
  closedir(dp);
  return rc;
}

int tg_outdir_commit(tg_outdir *o, rf_diag *d) {
  struct stat st;
  if (lstat(o->final, &st) < 0) {
    if (errno != ENOENT) return rf_fail(d, "%s: %s", o->final, strerror(errno));
    if (rename(o->tmp, o->final) < 0)
      return rf_fail(d, "%s: cannot rename into place: %s", o->final, strerror(errno));
    o->tmp[0] = '\0';
    return 0;
  }
  if (!S_ISDIR(st.st_mode))
    return rf_fail(d, "%s: expected a folder to replace, found a file", o->final);
  if (check_replaceable(o->final, d) < 0) return -1;
  char old[TG_PATH_MAX + 16];
  snprintf(old, sizeof old, "%s.old.XXXXXX", o->final);
  if (!mkdtemp(old)) return rf_fail(d, "%s: cannot create: %s", old, strerror(errno));
  if (rename(o->final, old) < 0) {
    int e = errno;
    rmdir(old);
    return rf_fail(d, "%s: cannot move aside: %s", o->final, strerror(e));
  }
  if (rename(o->tmp, o->final) < 0) {
    int e = errno;
    if (rename(old, o->final) < 0) { /* leave the old folder where it is, and say so */
      return rf_fail(d, "%s: cannot rename into place (%s); the previous folder is at %s",
                     o->final, strerror(e), old);
    }
    return rf_fail(d, "%s: cannot rename into place: %s", o->final, strerror(e));
  }
  o->tmp[0] = '\0';
  remove_folder(old);
  return 0;
}

void tg_outdir_abort(tg_outdir *o) {
  if (o->tmp[0]) remove_folder(o->tmp);
  o->tmp[0] = '\0';
}

