/* -gpgpu_dram_timing_opt: GPGPU-Sim's named form "nbk=16:CCD=2:...:RTPL=2" (keys in any order,
 * separated by ':', ';' or whitespace, since configs wrap the quoted value over two lines) and
 * its legacy positional form "16:2:6:12:28:12:40:12:4:5:12[:nbkgrp:CCDL:RTPL]". As in GPGPU-Sim
 * the eleven core timings are required and bank groups default to off (nbkgrp=1, CCDL=RTPL=0). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "config_internal.h"

typedef struct timing_key {
  const char *key;
  size_t offset; /* in dram_timing */
  int lo, required;
} timing_key;

#define K(name, field, lo, req) {name, offsetof(dram_timing, field), lo, req}

/* In positional order. */
static const timing_key keys[] = {
  K("nbk", nbk, 1, 1),    K("CCD", tCCD, 0, 1), K("RRD", tRRD, 0, 1),  K("RCD", tRCD, 0, 1),
  K("RAS", tRAS, 0, 1),   K("RP", tRP, 0, 1),   K("RC", tRC, 0, 1),    K("CL", CL, 0, 1),
  K("WL", WL, 0, 1),      K("CDLR", tCDLR, 0, 1), K("WR", tWR, 0, 1),  K("nbkgrp", nbkgrp, 1, 0),
  K("CCDL", tCCDL, 0, 0), K("RTPL", tRTPL, 0, 0),
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))
#define NREQUIRED 11
#define TIMING_MAX 100000

static int *slot(dram_timing *t, int k) { return (int *)((char *)t + keys[k].offset); }
static const int *cslot(const dram_timing *t, int k) {
  return (const int *)((const char *)t + keys[k].offset);
}

static int set_value(dram_timing *t, int k, const char *text, const opt_site *s, rf_diag *d) {
  long long v;
  if (parse_ll(text, &v) != 0 || v < keys[k].lo || v > TIMING_MAX) {
    char expect[64];
    snprintf(expect, sizeof expect, "an integer in [%d, %d] for %s", keys[k].lo, TIMING_MAX,
             keys[k].key);
    return opt_fail(d, s, expect, text);
  }
  *slot(t, k) = (int)v;
  return 0;
}

static int parse_positional(dram_timing *t, char *buf, const char *v, const opt_site *s,
                            rf_diag *d) {
  char *f[NKEYS + 1];
  int n = split_fields(buf, ':', f, NKEYS);
  if (n < NREQUIRED || n > NKEYS)
    return opt_fail(d, s,
                    "key=value pairs, or 11 to 14 colon-separated timings "
                    "nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR[:nbkgrp:CCDL:RTPL]",
                    v);
  for (int k = 0; k < n; k++)
    if (set_value(t, k, f[k], s, d) != 0) return -1;
  return 0;
}

static int find_key(const char *name) {
  for (int k = 0; k < NKEYS; k++)
    if (strcmp(keys[k].key, name) == 0) return k;
  return -1;
}

static int parse_named(dram_timing *t, char *buf, const char *v, const opt_site *s,
                       rf_diag *d) {
  int seen[NKEYS] = {0};
  for (char *item = buf; *item;) {
    size_t len = strcspn(item, ": ;\t\r\n");
    char *next = item + len + (item[len] != '\0');
    item[len] = '\0';
    if (len > 0) {
      char *eq = strchr(item, '=');
      if (!eq) return opt_fail(d, s, "<key>=<cycles>", item);
      *eq = '\0';
      int k = find_key(item);
      if (k < 0)
        return opt_fail(d, s,
                        "a DRAM timing key (nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, "
                        "nbkgrp, CCDL, RTPL)",
                        item);
      if (set_value(t, k, eq + 1, s, d) != 0) return -1;
      seen[k] = 1;
    }
    item = next;
  }
  for (int k = 0; k < NREQUIRED; k++) {
    if (!seen[k]) {
      char expect[64];
      snprintf(expect, sizeof expect, "a value for %s (%s=<cycles>)", keys[k].key, keys[k].key);
      return opt_fail(d, s, expect, v);
    }
  }
  return 0;
}

int parse_dram_timing(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                      rf_diag *d) {
  (void)o;
  char buf[1024];
  dram_timing t;
  memset(&t, 0, sizeof t);
  t.nbkgrp = 1; /* bank groups off unless given, as in GPGPU-Sim */
  if (copy_text(buf, sizeof buf, v) != 0) return opt_fail(d, s, "at most 1023 characters", v);
  int rc = strchr(v, '=') ? parse_named(&t, buf, v, s, d) : parse_positional(&t, buf, v, s, d);
  if (rc != 0) return -1;
  c->dram = t;
  return 0;
}

void format_dram_timing(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  size_t used = 0;
  buf[0] = '\0';
  for (int k = 0; k < NKEYS && used < n; k++) {
    int w = snprintf(buf + used, n - used, "%s%s=%d", k ? ":" : "", keys[k].key,
                     *cslot(&c->dram, k));
    if (w < 0) return;
    used += (size_t)w;
  }
}
