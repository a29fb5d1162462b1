/* Whether a loop's next step should run on a team of threads or on the calling thread alone,
 * from the wall time each way takes on this machine now. For loops whose results are the same
 * either way (the SMs of one simulated cycle, gpu -threads), so only the speed depends on it.
 *
 * A team only pays when its members have cores to themselves. When they do not (another job
 * on the machine, a virtual machine whose cores the host shares out), every step waits for a
 * member that is not running: two rfsim -threads 2 at once on two cores took 13 s each, one
 * thread 0.35 s. So the pacer times a short stretch of steps on one thread, then on the team,
 * and runs the next stretch the faster way, probing again after it; while the answer stays
 * the same the stretches grow, so that a steady machine pays little for the probes. A stretch
 * ends early when its steps show that the loop itself changed (SMs idle, then busy). */
#ifndef RFSIM_PACE_H
#define RFSIM_PACE_H

#include <stdint.h>

typedef enum {
  PACE_MEASURED,  /* the faster way, as measured (the default) */
  PACE_TEAM,      /* always the team */
  PACE_ALTERNATE  /* team and one thread by turns, step by step (tests: any mix gives the same) */
} pace_mode;

typedef struct pace {
  pace_mode mode;
  int phase;              /* probing one thread, probing the team, or running the choice */
  int team;               /* the last probe's answer (-1: none yet) */
  uint32_t left;          /* steps left in this phase */
  uint32_t stretch;       /* steps to run the choice before probing again */
  double start;           /* when this phase (in a stretch: this block of steps) began (s) */
  double alone;           /* the one-thread probe's time (s) */
  double step_time;       /* in a stretch: what a step of the chosen way took in its probe (s) */
  int strikes;            /* in a stretch: blocks of steps in a row off step_time (pace.c) */
  uint64_t steps, team_steps;
  double (*clock)(void);  /* seconds, monotonic (tests give their own) */
} pace;

/* "measured", "team", "alternate" (-threads_pace); -1 for anything else. */
int pace_mode_parse(const char *s, pace_mode *mode);
const char *pace_mode_name(pace_mode mode);
void pace_init(pace *p, pace_mode mode);
/* Probes afresh (a new loop: what was measured before says little about it). */
void pace_restart(pace *p);
/* Before each step: 1 to run it on the team, 0 on the calling thread. */
int pace_team(pace *p);
/* The share of the steps so far run on the team (0 before the first). */
double pace_team_share(const pace *p);

#endif
