/* The pacer (csim/common/pace.c) that chooses, stretch by stretch, whether a cycle's SMs are
 * stepped by the team of threads or by one thread, on a clock of the test's own: each step
 * takes the time the test says a team step or a one-thread step takes, so the choices can be
 * checked exactly. (That any mix of the two gives the same stats is test_threads's.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../csim/common/pace.h"

static double fake_now, team_cost, alone_cost;
static double fake_clock(void) { return fake_now; }

/* Runs n steps as the pacer chooses, advancing the clock by each step's cost; returns the team
 * steps among them. */
static long run_steps(pace *p, long n) {
  long team = 0;
  for (long i = 0; i < n; i++) {
    int t = pace_team(p);
    team += t;
    fake_now += t ? team_cost : alone_cost;
  }
  return team;
}

static void measured_pacer(pace *p, double team, double alone) {
  pace_init(p, PACE_MEASURED);
  p->clock = fake_clock;
  fake_now = 1000.0;
  team_cost = team;
  alone_cost = alone;
}

static void test_modes(void **state) {
  (void)state;
  /* the names -threads_pace takes, each both ways */
  static const struct {
    const char *name;
    pace_mode mode;
  } names[] = {{"measured", PACE_MEASURED}, {"team", PACE_TEAM}, {"alternate", PACE_ALTERNATE}};
  pace_mode m;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    assert_int_equal(pace_mode_parse(names[i].name, &m), 0);
    assert_int_equal(m, names[i].mode);
    assert_string_equal(pace_mode_name(names[i].mode), names[i].name);
  }
  assert_int_equal(pace_mode_parse("fast", &m), -1);
  assert_int_equal(pace_mode_parse("", &m), -1);
  pace p;
  pace_init(&p, PACE_TEAM);
  assert_true(pace_team_share(&p) == 0.0);
  for (int i = 0; i < 100; i++) assert_int_equal(pace_team(&p), 1);
  assert_true(pace_team_share(&p) == 1.0);
  pace_init(&p, PACE_ALTERNATE);
  for (int i = 0; i < 100; i++) assert_int_equal(pace_team(&p), i & 1);
  assert_true(pace_team_share(&p) == 0.5);
}

/* The team twice as fast: 128 steps alone, 128 on the team, then the team for 1024; the next
 * probe agrees, so the stretch after it is 2048. */
static void test_team_faster(void **state) {
  (void)state;
  pace p;
  measured_pacer(&p, 1.0, 2.0);
  assert_int_equal(run_steps(&p, 128), 0); /* the one-thread probe */
  assert_int_equal(run_steps(&p, 128 + 1024), 128 + 1024);
  assert_int_equal(run_steps(&p, 128), 0); /* the one-thread probe */
  assert_int_equal(run_steps(&p, 128 + 2048), 128 + 2048);
  assert_int_equal(pace_team(&p), 0); /* the third probe */
  /* a long run: the one-thread probes are a small share */
  run_steps(&p, 4000000);
  assert_true(pace_team_share(&p) > 0.99);
}

/* The team a little slower (within the margin): it keeps the stretches. */
static void test_team_within_margin(void **state) {
  (void)state;
  pace p;
  measured_pacer(&p, 1.2, 1.0);
  run_steps(&p, 1000000);
  assert_true(pace_team_share(&p) > 0.99);
}

/* The team ten times slower (members waiting for cores they do not get): its probe stops as
 * soon as it is behind by the margin (17 steps of 10 against 128 of 1, x 1.25), and one
 * thread runs stretches that double, so the whole run takes hardly longer than one thread. */
static void test_team_slower(void **state) {
  (void)state;
  pace p;
  measured_pacer(&p, 10.0, 1.0);
  assert_int_equal(run_steps(&p, 128), 0); /* the one-thread probe */
  assert_int_equal(run_steps(&p, 17), 17);
  assert_int_equal(run_steps(&p, 1024), 0);
  assert_int_equal(run_steps(&p, 128), 0); /* the one-thread probe */
  assert_int_equal(run_steps(&p, 17), 17);
  assert_int_equal(run_steps(&p, 2048), 0);
  double start = fake_now;
  long n = 4000000;
  run_steps(&p, n);
  assert_true(fake_now - start < 1.01 * (double)n * alone_cost);
}

/* The machine changes: busy (team slow) for a while, then free; the pacer comes back to the
 * team within a stretch, and a kernel's restart probes at once. */
static void test_machine_changes(void **state) {
  (void)state;
  pace p;
  measured_pacer(&p, 10.0, 1.0);
  run_steps(&p, 300000); /* stretches of one thread grew long */
  team_cost = 0.5;
  long before = (long)p.team_steps;
  run_steps(&p, 140000); /* the longest stretch, then a probe the team wins */
  assert_true((long)p.team_steps - before > 1000);
  team_cost = 10.0;
  run_steps(&p, 100000);
  team_cost = 0.5;
  pace_restart(&p);
  assert_int_equal(run_steps(&p, 128), 0); /* the one-thread probe */
  assert_int_equal(run_steps(&p, 128 + 1024), 128 + 1024);
}

/* The loop changes under a stretch. A kernel's launch latency (SMs idle: one thread eight
 * times faster than the team) gives way to its thread blocks (one thread twice as slow): two
 * blocks of 32 steps in a row slower than twice the one-thread probe's step end the stretch,
 * and a probe chooses the team; one such block (a hiccup of the machine) does not, nor do the
 * team's steps growing slower (a burst of another job). */
static void test_loop_changes(void **state) {
  (void)state;
  pace p;
  measured_pacer(&p, 1.0, 0.125);
  assert_int_equal(run_steps(&p, 128), 0); /* the one-thread probe: 16 */
  assert_int_equal(run_steps(&p, 21), 21); /* the team's, cut when behind (21 > 16 x 1.25) */
  assert_int_equal(run_steps(&p, 100), 0); /* a stretch of one thread */
  fake_now += 50.0;                        /* one block of it off */
  assert_int_equal(run_steps(&p, 1024 - 100), 0);
  assert_int_equal(run_steps(&p, 128), 0); /* the next probes agree: a stretch of 2048 */
  assert_int_equal(run_steps(&p, 21), 21);
  assert_int_equal(run_steps(&p, 100), 0);
  alone_cost = 2.0;
  /* its blocks [96, 128) and [128, 160) are off: it ends after its step 160 */
  assert_int_equal(run_steps(&p, 60), 0);
  assert_int_equal(run_steps(&p, 128), 0);
  assert_int_equal(run_steps(&p, 128 + 64), 128 + 64); /* the team's probe and stretch */
  team_cost = 3.0;
  assert_int_equal(run_steps(&p, 1024 - 64), 1024 - 64);
  assert_int_equal(pace_team(&p), 0); /* the next probe, when the stretch is done */
}

/* The other way: the team chosen, then every SM asleep (one thread 128 times faster than
 * before, the team 4 times): two blocks of team steps under half the probe's end the stretch
 * and a probe chooses one thread. */
static void test_loop_goes_idle(void **state) {
  (void)state;
  pace p;
  measured_pacer(&p, 1.0, 2.0);
  assert_int_equal(run_steps(&p, 128), 0);
  assert_int_equal(run_steps(&p, 128), 128); /* the team's probe: it wins */
  team_cost = 0.25;
  alone_cost = 1.0 / 64;
  assert_int_equal(run_steps(&p, 64), 64); /* the stretch, up to its step 64 */
  assert_int_equal(run_steps(&p, 128), 0); /* the one-thread probe: 2 */
  assert_int_equal(run_steps(&p, 11), 11); /* the team's, cut (11 x 0.25 > 2 x 1.25) */
  assert_int_equal(run_steps(&p, 1024), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_modes),
      cmocka_unit_test(test_team_faster),
      cmocka_unit_test(test_team_within_margin),
      cmocka_unit_test(test_team_slower),
      cmocka_unit_test(test_machine_changes),
      cmocka_unit_test(test_loop_changes),
      cmocka_unit_test(test_loop_goes_idle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
