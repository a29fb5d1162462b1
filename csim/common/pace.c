#include "pace.h"

#include <string.h>
#include <time.h>

enum { PROBE_ALONE, PROBE_TEAM, RUN };

/* A probe of 128 steps of a few microseconds each is long against the clock and short against
 * a stretch. A stretch is short after the answer changed (the first steps of a kernel, its
 * SMs still idle, go faster on one thread; what follows need not) and doubles while it stays
 * the same, so a steady machine pays for few probes: where the team wins, the one-thread
 * probes cost under 1% of the steps. The team loses only by a margin: a probe's steps are not
 * the other's (a thread block decoded, a burst of memory traffic), and where a team is truly
 * slower it is so by far (3 to 37 times, seen here). A lost team probe ends as soon as it is
 * behind by the margin. */
enum { PROBE_STEPS = 128, FIRST_STRETCH = 1024, LONGEST_STRETCH = 1 << 17 };
static const double TEAM_MARGIN = 1.25;

/* A stretch's steps are timed in blocks: when two blocks in a row show that the loop is no
 * longer the one probed, in the way that may change the answer, the stretch ends and a probe
 * follows: one thread's steps taking over twice what its probe's did (a kernel's launch
 * latency, SMs idle, gave way to thread blocks), or the team's under half (every SM asleep,
 * waiting on memory). Without it a stretch chosen in the idle cycles ran thousands of busy
 * ones on one thread. Slower team steps are not watched: on a shared machine a burst of
 * another job's work slows them for a while, and the probe it would start measures the burst.
 * One block off the mark does not end a stretch either. */
enum { WATCH_STEPS = 32, WATCH_STRIKES = 2 };
static const double WATCH_RATIO = 2.0;

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *const mode_names[] = {"measured", "team", "alternate"};

const char *pace_mode_name(pace_mode mode) { return mode_names[mode]; }

int pace_mode_parse(const char *s, pace_mode *mode) {
  for (int i = 0; i < (int)(sizeof mode_names / sizeof *mode_names); i++)
    if (!strcmp(s, mode_names[i])) {
      *mode = (pace_mode)i;
      return 0;
    }
  return -1;
}

void pace_init(pace *p, pace_mode mode) {
  *p = (pace){.mode = mode, .clock = seconds_now};
  pace_restart(p);
}

void pace_restart(pace *p) {
  p->phase = PROBE_ALONE;
  p->left = PROBE_STEPS;
  p->stretch = FIRST_STRETCH;
  p->team = -1;
}

/* Runs the answer of a probe for the next stretch; `step_time` is what a step took that way in
 * it (s), and `now` the clock. */
static void run_choice(pace *p, int team, double step_time, double now) {
  if (team == p->team && p->stretch < LONGEST_STRETCH) p->stretch *= 2;
  else if (team != p->team) p->stretch = FIRST_STRETCH;
  p->team = team;
  p->phase = RUN;
  p->left = p->stretch;
  p->step_time = step_time;
  p->start = now;
  p->strikes = 0;
}

/* In a stretch, every WATCH_STEPS steps: whether the loop has changed under it. */
static int loop_changed(pace *p) {
  double now = p->clock(), step_time = (now - p->start) / WATCH_STEPS;
  p->start = now;
  int off = p->team ? step_time * WATCH_RATIO < p->step_time
                    : step_time > p->step_time * WATCH_RATIO;
  p->strikes = off ? p->strikes + 1 : 0;
  return p->strikes >= WATCH_STRIKES;
}

/* Each call starts a step, so a phase's time runs from its first call to the call after its
 * last step: the steps and whatever the loop does between them, the same either way. */
static int measured(pace *p) {
  if (p->phase == RUN) {
    int ran = p->stretch - p->left;
    if (p->left > 0 && !(ran > 0 && ran % WATCH_STEPS == 0 && loop_changed(p))) {
      p->left--;
      return p->team;
    }
    p->phase = PROBE_ALONE;
    p->left = PROBE_STEPS;
  }
  double now;
  if (p->phase == PROBE_ALONE) { /* (the clock at its first step and after its last) */
    if (p->left == PROBE_STEPS) p->start = p->clock();
    if (p->left > 0) {
      p->left--;
      return 0;
    }
    now = p->clock();
    p->alone = now - p->start;
    p->phase = PROBE_TEAM;
    p->left = PROBE_STEPS;
    p->start = now;
  } else {
    now = p->clock(); /* (every team step: it may be behind already) */
  }
  int behind = now - p->start > p->alone * TEAM_MARGIN;
  if (p->left > 0 && !behind) {
    p->left--;
    return 1;
  }
  run_choice(p, !behind, (behind ? p->alone : now - p->start) / PROBE_STEPS, now);
  p->left--;
  return p->team;
}

int pace_team(pace *p) {
  int team = p->mode == PACE_TEAM        ? 1
             : p->mode == PACE_ALTERNATE ? (int)(p->steps & 1)
                                         : measured(p);
  p->steps++;
  p->team_steps += (uint64_t)team;
  return team;
}

double pace_team_share(const pace *p) {
  return p->steps ? (double)p->team_steps / (double)p->steps : 0.0;
}
