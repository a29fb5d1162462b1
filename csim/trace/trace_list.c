/* kernelslist.g: MemcpyHtoD lines and kernel file names, one per line. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../common/checked.h"
#include "line_reader.h"
#include "trace.h"
#include "trace_parse.h"

static char *join_dir(const char *list_path, const char *name, rf_diag *d) {
  const char *slash = strrchr(list_path, '/');
  size_t dir_len = slash ? (size_t)(slash - list_path) + 1 : 0;
  size_t n = dir_len + strlen(name) + 1;
  char *p = rf_calloc(n, 1, d);
  if (!p) return NULL;
  memcpy(p, list_path, dir_len);
  strcpy(p + dir_len, name);
  return p;
}

static int parse_memcpy(const char *path, long line, char *s, trace_cmd *c, rf_diag *d) {
  /* MemcpyHtoD,0x00007fb02d700000,4096 */
  char *addr = strchr(s, ',');
  char *bytes = addr ? strchr(addr + 1, ',') : NULL;
  if (!addr || !bytes)
    return rf_fail_at(d, path, line, "expected 'MemcpyHtoD,<hex address>,<bytes>', found '%s'",
                      s);
  *addr++ = '\0';
  *bytes++ = '\0';
  if (!tp_parse_hex64(tp_trim(addr), &c->addr))
    return rf_fail_at(d, path, line, "expected a hex address, found '%s'", addr);
  if (!tp_parse_u64(tp_trim(bytes), &c->bytes))
    return rf_fail_at(d, path, line, "expected a byte count, found '%s'", bytes);
  uint64_t end;
  if (!rf_add_u64(c->addr, c->bytes, &end))
    return rf_fail_at(d, path, line,
                      "expected a copy inside the 64-bit address space, found %llu bytes at 0x%llx",
                      (unsigned long long)c->bytes, (unsigned long long)c->addr);
  c->kind = TRACE_CMD_MEMCPY;
  return 0;
}

int trace_list_read(const char *path, trace_list **out, rf_diag *d) {
  *out = NULL;
  line_reader r;
  if (line_reader_open(&r, path, d) < 0) return -1;
  trace_list *l = rf_calloc(1, sizeof *l, d);
  int rc = l ? 0 : -1;
  if (l) {
    l->path = strdup(path);
    if (!l->path) rc = rf_fail(d, "out of memory");
  }
  int cap = 0;
  char *s;
  size_t len;
  int got;
  while (rc == 0 && (got = line_reader_next(&r, &s, &len, d)) > 0) {
    s = tp_trim(s);
    if (*s == '\0' || *s == '#') continue;
    if (l->ncmds == cap) {
      if (cap > INT_MAX / 2) {
        rc = rf_fail_at(d, path, r.lineno, "expected at most %d commands, found more", cap);
        break;
      }
      cap = cap ? cap * 2 : 16;
      trace_cmd *nc = rf_realloc(l->cmds, (size_t)cap, sizeof *nc, d);
      if (!nc) { rc = -1; break; }
      l->cmds = nc;
    }
    trace_cmd *c = &l->cmds[l->ncmds];
    memset(c, 0, sizeof *c);
    c->line = r.lineno;
    if (strncmp(s, "MemcpyHtoD", 10) == 0) {
      rc = parse_memcpy(path, r.lineno, s, c, d);
    } else if (strncmp(s, "MemcpyDtoH", 10) == 0) {
      continue; /* device-to-host copies do not affect the simulated kernels */
    } else if (strncmp(s, "kernel", 6) == 0 && strchr(s, ' ') == NULL) {
      c->kind = TRACE_CMD_KERNEL;
      c->path = join_dir(path, s, d);
      if (!c->path) rc = -1;
      else l->nkernels++;
    } else {
      rc = rf_fail_at(d, path, r.lineno,
                      "expected 'MemcpyHtoD,<addr>,<bytes>' or a kernel file name "
                      "'kernel-N.traceg', found '%s'", s);
    }
    if (rc == 0) l->ncmds++;
  }
  if (rc == 0 && got < 0) rc = -1;
  if (rc == 0 && l->nkernels == 0)
    rc = rf_fail_at(d, path, 0, "expected at least one kernel, found none");
  line_reader_close(&r);
  if (rc < 0) {
    trace_list_free(l);
    return -1;
  }
  *out = l;
  return 0;
}

void trace_list_free(trace_list *l) {
  if (!l) return;
  for (int i = 0; i < l->ncmds; i++) free(l->cmds[i].path);
  free(l->cmds);
  free(l->path);
  free(l);
}
