/* bin/team-round: what one round of rfsim's thread team costs on this host, the least that
 * -threads N adds to every simulated cycle it steps on the team (csim/common/workers.c: the
 * caller starts a round, every member runs its part, the caller waits for all). The rounds here
 * do no work, so what is timed is the start and the wait alone: on a host whose cores are far
 * apart (a virtual machine's) this is most of what keeps -threads 2 below 2x.
 *
 *   bin/team-round [-threads N] [-rounds R]
 *
 * prints "team-round: -threads N: M ns a round (median of 5 series of R rounds; fastest F ns)".
 * Defaults: N = 2, R = 100000. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../csim/common/workers.h"

enum { SERIES = 5 };

static void empty_part(void *ctx, int part, int n) {
  (void)ctx;
  (void)part;
  (void)n;
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* A whole number in [lo, hi] from the option's value, else an error naming the option. */
static int parse_count(const char *opt, const char *v, long lo, long hi, long *out) {
  char *end;
  long x = v ? strtol(v, &end, 10) : 0;
  if (!v || !*v || *end || x < lo || x > hi) {
    fprintf(stderr, "team-round: %s: expected a whole number in %ld..%ld, found '%s'\n", opt, lo,
            hi, v ? v : "(nothing)");
    return -1;
  }
  *out = x;
  return 0;
}

int main(int argc, char **argv) {
  long threads = 2, rounds = 100000;
  for (int i = 1; i < argc; i += 2) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad;
    if (!strcmp(argv[i], "-threads")) bad = parse_count("-threads", v, 2, 256, &threads);
    else if (!strcmp(argv[i], "-rounds")) bad = parse_count("-rounds", v, 1, 100000000, &rounds);
    else {
      fprintf(stderr, "team-round: unknown option '%s'\nusage: bin/team-round [-threads N] "
                      "[-rounds R]\n", argv[i]);
      bad = 1;
    }
    if (bad) return 2;
  }
  rf_diag d;
  workers *team = workers_create((int)threads, &d);
  if (!team) {
    fprintf(stderr, "team-round: %s\n", d.msg);
    return 1;
  }
  workers_run(team, empty_part, NULL); /* (the members have started and found their first) */
  double ns[SERIES];
  for (int s = 0; s < SERIES; s++) {
    double start = seconds();
    for (long r = 0; r < rounds; r++) workers_run(team, empty_part, NULL);
    ns[s] = (seconds() - start) / (double)rounds * 1e9;
  }
  workers_destroy(team);
  qsort(ns, SERIES, sizeof ns[0], by_value);
  printf("team-round: -threads %ld: %.0f ns a round (median of %d series of %ld rounds; "
         "fastest %.0f ns)\n", threads, ns[SERIES / 2], SERIES, rounds, ns[0]);
  return 0;
}
