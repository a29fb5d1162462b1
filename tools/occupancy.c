/* occupancy: resident thread blocks per SM under register or scratchpad sharing, for the
 * papers' sharing percentages (0, 10, 30, 50, 70, 90 %: t = 1, 0.9, 0.7, 0.5, 0.3, 0.1), one row
 * per workload (the first kernel of each kernelslist), computed by csim/policy/share_plan.c,
 * the same code the regshare/spshare policies dispatch with.
 *
 *   occupancy -config FILE [-config FILE ...] -resource registers|scratchpad
 *             [-paper TABLE_FILE] KERNELSLIST...
 *
 * With -paper (lines "name v0 v10 v30 v50 v70 v90", # comments), each row is set beside the
 * paper's and every differing entry is marked; the exit status is 1 if any entry differs or a
 * paper row has no workload. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csim/common/diag.h"
#include "../csim/config/config.h"
#include "../csim/policy/share_plan.h"
#include "../csim/trace/trace.h"

#define NPCT 6
static const int sharing_pct[NPCT] = {0, 10, 30, 50, 70, 90};

typedef struct paper_row {
  char name[64];
  int v[NPCT];
  int used;
} paper_row;

static int usage(void) {
  fprintf(stderr, "usage: occupancy -config FILE [-config FILE ...] -resource registers|scratchpad "
                  "[-paper TABLE_FILE] KERNELSLIST...\n");
  return 2;
}

static int read_paper(const char *path, paper_row *rows, int max, int *n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "occupancy: %s: cannot open\n", path);
    return -1;
  }
  char line[512];
  int ln = 0;
  *n = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    char *s = line + strspn(line, " \t");
    if (*s == '#' || *s == '\n' || *s == '\0') continue;
    paper_row r = {{0}, {0}, 0};
    char extra[8];
    int k = sscanf(s, "%63s %d %d %d %d %d %d %7s", r.name, &r.v[0], &r.v[1], &r.v[2], &r.v[3],
                   &r.v[4], &r.v[5], extra);
    if (k != 7 || *n >= max) {
      fprintf(stderr, "occupancy: %s:%d: expected a name and %d integers, found '%.*s'\n", path,
              ln, NPCT, (int)strcspn(s, "\n"), s);
      fclose(f);
      return -1;
    }
    rows[(*n)++] = r;
  }
  fclose(f);
  return 0;
}

/* build/traces/regshare_mum/kernelslist.g -> regshare_mum */
static void workload_name(const char *list, char *out, size_t n) {
  const char *end = strrchr(list, '/');
  if (!end) {
    snprintf(out, n, "%s", list);
    return;
  }
  const char *start = end;
  while (start > list && start[-1] != '/') start--;
  snprintf(out, n, "%.*s", (int)(end - start), start);
}

int main(int argc, char **argv) {
  gpu_config c;
  config_defaults(&c);
  config_notes notes;
  config_notes_init(&notes, NULL);
  rf_diag d = {{0}, 0};
  const char *paper = NULL, *resource = NULL;
  int nconfigs = 0, first_list = argc;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-config") && i + 1 < argc) {
      if (config_load_file(&c, argv[++i], &notes, &d) < 0) {
        fprintf(stderr, "occupancy: %s\n", d.msg);
        return 1;
      }
      nconfigs++;
    } else if (!strcmp(argv[i], "-resource") && i + 1 < argc) {
      resource = argv[++i];
    } else if (!strcmp(argv[i], "-paper") && i + 1 < argc) {
      paper = argv[++i];
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "occupancy: unknown option '%s'\n", argv[i]);
      return usage();
    } else {
      first_list = i;
      break;
    }
  }
  if (!nconfigs || !resource || first_list >= argc) return usage();
  share_resource r;
  if (!strcmp(resource, "registers")) r = SHARE_REGISTERS;
  else if (!strcmp(resource, "scratchpad")) r = SHARE_SCRATCHPAD;
  else {
    fprintf(stderr, "occupancy: -resource: expected registers or scratchpad, found '%s'\n",
            resource);
    return 2;
  }
  if (config_validate(&c, &d) < 0) {
    fprintf(stderr, "occupancy: %s\n", d.msg);
    return 1;
  }
  paper_row rows[128];
  int nrows = 0;
  if (paper && read_paper(paper, rows, 128, &nrows) < 0) return 1;

  printf("resident thread blocks per SM with %s sharing (%d registers, %d B scratchpad, "
         "%d threads, %d CTA slots per SM)\n",
         r == SHARE_REGISTERS ? "register" : "scratchpad", c.shader_registers, c.shmem_size,
         c.max_threads_per_sm, c.shader_cta);
  printf("%-24s %-22s", "workload", "threads x regs, smem");
  for (int j = 0; j < NPCT; j++) printf(" %4d%%", sharing_pct[j]);
  if (paper) printf("   paper");
  printf("\n");
  int differ = 0;
  for (int i = first_list; i < argc; i++) {
    trace_list *l;
    if (trace_list_read(argv[i], &l, &d) < 0) {
      fprintf(stderr, "occupancy: %s\n", d.msg);
      return 1;
    }
    const char *kpath = NULL;
    for (int k = 0; k < l->ncmds && !kpath; k++)
      if (l->cmds[k].kind == TRACE_CMD_KERNEL) kpath = l->cmds[k].path;
    trace_kernel *kt;
    if (!kpath || trace_kernel_open(kpath, &kt, &d) < 0) {
      fprintf(stderr, "occupancy: %s: %s\n", argv[i], kpath ? d.msg : "no kernel");
      trace_list_free(l);
      return 1;
    }
    const trace_kernel_info *k = trace_kernel_get_info(kt);
    char name[64], shape[64];
    workload_name(argv[i], name, sizeof name);
    snprintf(shape, sizeof shape, "%d x %d, %d B", k->threads_per_tb, k->nregs, k->shmem);
    paper_row *pr = NULL;
    for (int j = 0; j < nrows; j++)
      if (!strcmp(rows[j].name, name)) pr = &rows[j];
    printf("%-24s %-22s", name, shape);
    int v[NPCT];
    for (int j = 0; j < NPCT; j++) {
      share_plan p;
      share_plan_compute(&c, k, r, 1000 - sharing_pct[j] * 10, &p);
      v[j] = p.resident;
      printf(" %5d", v[j]);
    }
    if (pr) {
      pr->used = 1;
      printf("   ");
      for (int j = 0; j < NPCT; j++) {
        printf(" %d", pr->v[j]);
        if (pr->v[j] != v[j]) printf("(differs)"), differ++;
      }
    } else if (paper) {
      printf("   (not in the paper's table)");
    }
    printf("\n");
    trace_kernel_close(kt);
    trace_list_free(l);
  }
  for (int j = 0; j < nrows; j++)
    if (!rows[j].used) {
      printf("%s: in the paper's table, not given on the command line\n", rows[j].name);
      differ++;
    }
  if (paper)
    printf("%s: %s\n", paper, differ ? "entries differ from the paper" :
                                       "every entry equals the paper's");
  return differ ? 1 : 0;
}
