#include "test_util.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tu_mkdtemp(char *out, size_t n) {
  const char *base = getenv("TMPDIR");
  snprintf(out, n, "%s/rfsim-test-XXXXXX", base ? base : "/tmp");
  return mkdtemp(out) ? 0 : -1;
}

int tu_write(const char *dir, const char *name, const char *text) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  int ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

void tu_rmtree(const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) return;
  struct dirent *e;
  char path[1024];
  while ((e = readdir(dp)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) tu_rmtree(path);
    else unlink(path);
  }
  closedir(dp);
  rmdir(dir);
}

const char *tu_shared_trace(const char *rel, char *buf, size_t n) {
  const char *shared = getenv("SHARED");
  snprintf(buf, n, "%s/traces/%s", shared && *shared ? shared : "../shared", rel);
  return access(buf, R_OK) == 0 ? buf : NULL;
}
