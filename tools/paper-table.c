/* paper-table: the papers' benchmark rows (cuda/paper_rows.txt) beside the traced cuda/
 * programs that stand for them: per row, the threads per TB, registers per thread and shared
 * memory per TB of the row's first kernel as traced, the resident TBs per SM on the paper's
 * config and what limits them (GPGPU-Sim's max_cta rule, csim/policy/occupancy.c, the code the
 * baseline dispatches with), for the sharing rows the TBs with 90% sharing (share_plan.c, the
 * code register and scratchpad sharing dispatch with), and, given -ipc, rfsim's baseline IPC;
 * each beside the paper's figure, with `*` where they differ.
 *
 *   paper-table [-rows FILE] [-traces DIR] [-configs DIR] [-ipc FILE] [-paper NAME]
 *
 * -ipc FILE: lines "paper row ipc" (tools/paper_table.sh writes them from baseline runs). The
 * exit status is 0 when every row's trace was found, 1 otherwise (a difference from the paper
 * is a finding the README explains, not a failure). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/common/diag.h"
#include "../csim/config/config.h"
#include "../csim/policy/policy.h"
#include "../csim/policy/share_plan.h"
#include "../csim/trace/trace.h"

#define MAX_ROWS 256
#define FIELD 256

typedef struct row {
  char paper[16], name[32], program[32], kernels[FIELD], limit[16];
  char threads[16], regs[16], smem[16], tbs[16], tbs90[16], ipc[16]; /* "-" when not given */
} row;

typedef struct paper_info {
  const char *name, *config, *label;
  int sharing; /* 0 none, 1 registers, 2 scratchpad */
} paper_info;

static const paper_info papers[] = {
    {"warpman", "gtx480", "WarpMan (GTX 480)", 0},
    {"regshare", "tesla_c2050", "register sharing (Tesla C2050)", 1},
    {"spshare", "tesla_c2050_scratchpad", "scratchpad sharing (Tesla C2050, 16 KB)", 2},
    {"finereg", "gtx980", "FineReg (GTX 980-like)", 0},
    {"larf", "locality_rf", "locality-aware RF (128 KB RF, two-level)", 0},
};
#define NPAPERS (int)(sizeof papers / sizeof papers[0])

static int usage(void) {
  fprintf(stderr, "usage: paper-table [-rows FILE] [-traces DIR] [-configs DIR] [-ipc FILE] "
                  "[-paper NAME]\n");
  return 2;
}

static const paper_info *find_paper(const char *name) {
  for (int i = 0; i < NPAPERS; i++)
    if (!strcmp(papers[i].name, name)) return &papers[i];
  return NULL;
}

static int read_rows(const char *path, row *rows, int *n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "paper-table: %s: cannot open\n", path);
    return -1;
  }
  char line[1024];
  int ln = 0;
  *n = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    char *s = line + strspn(line, " \t");
    if (*s == '#' || *s == '\n' || !*s) continue;
    row r;
    char extra[8];
    int k = sscanf(s, "%15s %31s %31s %255s %15s %15s %15s %15s %15s %15s %15s %7s", r.paper,
                   r.name, r.program, r.kernels, r.threads, r.regs, r.smem, r.tbs, r.tbs90, r.limit,
                   r.ipc, extra);
    if (k != 11 || *n >= MAX_ROWS || !find_paper(r.paper)) {
      fprintf(stderr, "paper-table: %s:%d: expected paper row program kernels threads regs smem "
                      "tbs tbs90 limit ipc (paper one of warpman regshare spshare finereg larf), "
                      "found '%.*s'\n", path, ln, (int)strcspn(s, "\n"), s);
      fclose(f);
      return -1;
    }
    rows[(*n)++] = r;
  }
  fclose(f);
  return 0;
}

/* symbol is name, or the C++ symbol _Z<len><name>... of a function called name */
static int symbol_is(const char *symbol, const char *name, size_t n) {
  if (strlen(symbol) == n && !strncmp(symbol, name, n)) return 1;
  if (strncmp(symbol, "_Z", 2)) return 0;
  char *e;
  unsigned long len = strtoul(symbol + 2, &e, 10);
  return e != symbol + 2 && len == n && !strncmp(e, name, n);
}

/* the first kernel of the row's program whose function is the row's first kernel */
static int row_kernel(const char *traces, const row *r, trace_kernel_info *out, rf_diag *d) {
  char list[FIELD * 2];
  snprintf(list, sizeof list, "%s/%s/kernelslist.g", traces, r->program);
  trace_list *l;
  if (trace_list_read(list, &l, d) < 0) return -1;
  size_t n = strcspn(r->kernels, ",");
  int found = 0;
  for (int i = 0; i < l->ncmds && !found; i++) {
    if (l->cmds[i].kind != TRACE_CMD_KERNEL) continue;
    trace_kernel *k;
    if (trace_kernel_open(l->cmds[i].path, &k, d) < 0) {
      trace_list_free(l);
      return -1;
    }
    const trace_kernel_info *ki = trace_kernel_get_info(k);
    if (symbol_is(ki->name, r->kernels, n)) *out = *ki, found = 1;
    trace_kernel_close(k);
  }
  trace_list_free(l);
  if (!found) rf_fail(d, "%s: no kernel %.*s", list, (int)n, r->kernels);
  return found ? 0 : -1;
}

/* whether the resource the paper names limits the TBs per SM here too: its own limit equals
 * the resident count (several resources may tie, e.g. registers and shared memory) */
static int limit_agrees(const char *paper, const gpu_config *c, const trace_kernel_info *k,
                        int tbs) {
  if (!strcmp(paper, "-")) return 1;
  cta_needs n = policy_cta_needs(c, k);
  int threads = c->max_threads_per_sm / n.threads, slots = c->shader_cta;
  int regs = n.regs > 0 ? c->shader_registers / n.regs : slots;
  int smem = n.shmem > 0 ? c->shmem_size / n.shmem : slots;
  if (!strcmp(paper, "registers")) return regs == tbs;
  if (!strcmp(paper, "threads")) return threads == tbs;
  if (!strcmp(paper, "smem")) return smem == tbs;
  if (!strcmp(paper, "blocks")) return slots == tbs;
  if (!strcmp(paper, "both")) return regs == tbs && threads == tbs;
  if (!strcmp(paper, "S")) return threads == tbs || slots == tbs;
  if (!strcmp(paper, "R")) return regs == tbs || smem == tbs;
  return 0;
}

static int load_config(const char *dir, const char *name, gpu_config *c) {
  char path[FIELD * 2];
  snprintf(path, sizeof path, "%s/%s.config", dir, name);
  config_defaults(c);
  config_notes notes;
  config_notes_init(&notes, NULL);
  rf_diag d = {{0}, 0};
  if (config_load_file(c, path, &notes, &d) < 0 || config_validate(c, &d) < 0) {
    fprintf(stderr, "paper-table: %s\n", d.msg);
    return -1;
  }
  return 0;
}

static const char *lookup_ipc(const char *path, const row *r, char *buf, size_t n) {
  FILE *f = path ? fopen(path, "r") : NULL;
  if (!f) return "-";
  char p[32], name[48], v[32];
  const char *out = "-";
  while (fscanf(f, "%31s %47s %31s", p, name, v) == 3)
    if (!strcmp(p, r->paper) && !strcmp(name, r->name)) {
      snprintf(buf, n, "%s", v);
      out = buf;
    }
  fclose(f);
  return out;
}

/* "paper/rfsim", starred where both are given and differ */
static void cell(char *out, size_t n, const char *paper, double rf, int rf_given, double tol) {
  char r[32] = "-";
  if (rf_given) snprintf(r, sizeof r, rf == (int)rf ? "%.0f" : "%.1f", rf);
  int differ = strcmp(paper, "-") && rf_given && (rf - atof(paper) > tol || atof(paper) - rf > tol);
  snprintf(out, n, "%s/%s%s", paper, r, differ ? "*" : "");
}

int main(int argc, char **argv) {
  const char *rows_path = "cuda/paper_rows.txt", *traces = "build/cuda-traces",
             *configs = "configs";
  const char *ipc = NULL, *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) return usage();
    if (!strcmp(argv[i], "-rows")) rows_path = argv[++i];
    else if (!strcmp(argv[i], "-traces")) traces = argv[++i];
    else if (!strcmp(argv[i], "-configs")) configs = argv[++i];
    else if (!strcmp(argv[i], "-ipc")) ipc = argv[++i];
    else if (!strcmp(argv[i], "-paper")) only = argv[++i];
    else return usage();
  }
  if (only && !find_paper(only)) {
    fprintf(stderr, "paper-table: -paper: expected warpman, regshare, spshare, finereg or larf, "
                    "found '%s'\n", only);
    return 2;
  }
  static row rows[MAX_ROWS];
  int nrows;
  if (read_rows(rows_path, rows, &nrows) < 0) return 1;
  int missing = 0;
  for (int p = 0; p < NPAPERS; p++) {
    const paper_info *pi = &papers[p];
    if (only && strcmp(only, pi->name)) continue;
    gpu_config c;
    if (load_config(configs, pi->config, &c) < 0) return 1;
    printf("%s, configs/%s.config: paper/rfsim, * where they differ\n", pi->label, pi->config);
    printf("  %-14s %-38s %-9s %-10s %-11s %-8s %-24s %-8s %s\n", "row", "program: kernel",
           "threads", "regs", "smem", "TBs/SM", "limit (paper: rfsim)", "TBs 90%", "IPC");
    int n = 0, agree = 0, lagree = 0;
    for (int i = 0; i < nrows; i++) {
      const row *r = &rows[i];
      if (strcmp(r->paper, pi->name)) continue;
      trace_kernel_info k;
      rf_diag d = {{0}, 0};
      char label[96];
      snprintf(label, sizeof label, "%s: %.*s", r->program, (int)strcspn(r->kernels, ","),
               r->kernels);
      if (row_kernel(traces, r, &k, &d) < 0) {
        printf("  %-14s %-38s not traced: %s\n", r->name, label, d.msg);
        missing++;
        continue;
      }
      const char *why = "";
      int tbs = policy_max_ctas(&c, &k, &why);
      char th[32], rg[32], sm[32], tb[32], t90[32] = "-", ip[48], ipbuf[32];
      cell(th, sizeof th, r->threads, k.threads_per_tb, 1, 0);
      cell(rg, sizeof rg, r->regs, k.nregs, 1, 0.5);
      cell(sm, sizeof sm, r->smem, k.shmem, 1, 0);
      cell(tb, sizeof tb, r->tbs, tbs, 1, 0);
      if (pi->sharing) {
        share_plan sp;
        share_plan_compute(&c, &k, pi->sharing == 1 ? SHARE_REGISTERS : SHARE_SCRATCHPAD, 100, &sp);
        cell(t90, sizeof t90, r->tbs90, sp.resident, 1, 0);
      }
      const char *iv = lookup_ipc(ipc, r, ipbuf, sizeof ipbuf);
      cell(ip, sizeof ip, r->ipc, atof(iv), strcmp(iv, "-") != 0, 1e9);
      int la = limit_agrees(r->limit, &c, &k, tbs);
      char lim[48];
      snprintf(lim, sizeof lim, "%s: %s%s", r->limit, why, la ? "" : "*");
      printf("  %-14s %-38s %-9s %-10s %-11s %-8s %-24s %-8s %s\n", r->name, label, th, rg, sm, tb,
             lim, t90, ip);
      n++;
      if (strcmp(r->tbs, "-") && atoi(r->tbs) == tbs) agree++;
      lagree += la && strcmp(r->limit, "-");
    }
    int with_tbs = 0, with_limit = 0;
    for (int i = 0; i < nrows; i++)
      if (!strcmp(rows[i].paper, pi->name)) {
        with_tbs += strcmp(rows[i].tbs, "-") != 0;
        with_limit += strcmp(rows[i].limit, "-") != 0;
      }
    printf(
        "  %d rows traced; TBs/SM equal to the paper's in %d of %d, limiter as the paper says in "
        "%d of %d\n\n",
        n, agree, with_tbs, lagree, with_limit);
  }
  if (missing) printf("paper-table: %d rows have no trace (make cuda-traces)\n", missing);
  return missing ? 1 : 0;
}
