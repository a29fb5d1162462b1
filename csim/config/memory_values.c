/* Value syntaxes of the memory-pipeline options: GPGPU-Sim's colon and comma lists
 * (-gpgpu_dram_partition_queues, -gpgpu_shmem_option) and -network_mode. Strict like every
 * parser here: the whole text is consumed and each number is range-checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

#define LIST_MAX 1024

int parse_l2_queues(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                    rf_diag *d) {
  (void)o;
  static const char expect[] =
      "<icnt->L2>:<L2->DRAM>:<DRAM->L2>:<L2->icnt> queue entries, each in [1, 65536]";
  char buf[LIST_MAX], *f[5];
  int q[4];
  if (copy_text(buf, sizeof buf, v) != 0 || split_fields(buf, ':', f, 4) != 4)
    return opt_fail(d, s, expect, v);
  for (int i = 0; i < 4; i++) {
    long long x;
    if (parse_ll(f[i], &x) != 0 || x < 1 || x > 65536) return opt_fail(d, s, expect, v);
    q[i] = (int)x;
  }
  memcpy(c->l2_queue, q, sizeof q);
  return 0;
}

void format_l2_queues(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  snprintf(buf, n, "%d:%d:%d:%d", c->l2_queue[0], c->l2_queue[1], c->l2_queue[2],
           c->l2_queue[3]);
}

static int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int parse_shmem_options(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                        rf_diag *d) {
  (void)o;
  char expect[96];
  snprintf(expect, sizeof expect, "1 to %d comma-separated shared memory sizes in KB, each in "
           "[0, 65536]", SHMEM_OPTIONS_MAX);
  char buf[LIST_MAX], *f[SHMEM_OPTIONS_MAX + 1];
  int k[SHMEM_OPTIONS_MAX];
  int n = copy_text(buf, sizeof buf, v) == 0 ? split_fields(buf, ',', f, SHMEM_OPTIONS_MAX) : 0;
  if (n < 1 || n > SHMEM_OPTIONS_MAX) return opt_fail(d, s, expect, v);
  for (int i = 0; i < n; i++) {
    long long x;
    if (parse_ll(f[i], &x) != 0 || x < 0 || x > 65536) return opt_fail(d, s, expect, v);
    k[i] = (int)x;
  }
  /* GPGPU-Sim sorts the list and takes the first size that holds a kernel's shared memory. */
  qsort(k, (size_t)n, sizeof k[0], by_value);
  memset(c->shmem_options, 0, sizeof c->shmem_options);
  memcpy(c->shmem_options, k, (size_t)n * sizeof k[0]);
  c->n_shmem_options = n;
  return 0;
}

void format_shmem_options(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < c->n_shmem_options && used < n; i++) {
    int w = snprintf(buf + used, n - used, "%s%d", i ? "," : "", c->shmem_options[i]);
    if (w < 0) break;
    used += (size_t)w;
  }
}

int parse_network_mode(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                       rf_diag *d) {
  (void)o;
  static const char expect[] = "1 (BookSim-style router) or 2 (local crossbar)";
  if (strcmp(v, "1") == 0) c->network_mode = ICNT_BOOKSIM;
  else if (strcmp(v, "2") == 0) c->network_mode = ICNT_LOCAL;
  else return opt_fail(d, s, expect, v);
  return 0;
}

void format_network_mode(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  snprintf(buf, n, "%d", (int)c->network_mode);
}

int parse_runtime_stat(gpu_config *c, const opt_def *o, const char *v, const opt_site *s,
                       rf_diag *d) {
  (void)o;
  static const char expect[] = "<cycles>[:<flag>], cycles in [1, 2^30]";
  char buf[LIST_MAX], *f[3];
  long long freq, flag;
  int n = copy_text(buf, sizeof buf, v) == 0 ? split_fields(buf, ':', f, 2) : 0;
  if (n < 1 || n > 2 || parse_ll(f[0], &freq) != 0 || freq < 1 || freq > (1LL << 30) ||
      (n == 2 && parse_ll(f[1], &flag) != 0))
    return opt_fail(d, s, expect, v);
  c->stat_sample_cycles = (int)freq;
  return 0;
}

void format_runtime_stat(const gpu_config *c, const opt_def *o, char *buf, size_t n) {
  (void)o;
  snprintf(buf, n, "%d", c->stat_sample_cycles);
}
