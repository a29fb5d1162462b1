#ifdef __linux__
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif
#include "workers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

/* Waits of a member before it yields its core, and before it sleeps. A simulated cycle takes
 * microseconds, so a member that spins through the serial part of a cycle finds the next round
 * before it yields; one that has seen no round for about a millisecond sleeps. With more
 * members than cores a spinning member only keeps a working one off its core: members sleep at
 * once. */
enum { SPINS_BEFORE_YIELD = 4096, YIELDS_BEFORE_SLEEP = 2048 };

struct workers {
  int n;
  int spins, yields;        /* before sleeping (0, 0 with more members than cores) */
  pthread_t *threads;
  int started;              /* threads running */
  workers_job job;
  void *ctx;
  atomic_ulong round;       /* incremented to start a round (and to stop) */
  atomic_int pending;       /* members of this round not done yet */
  atomic_int stop;
  atomic_int sleepers;      /* members in pthread_cond_wait (or about to be) */
  pthread_mutex_t lock;
  pthread_cond_t wake;
};

static void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Waits until w->round differs from `seen`; returns the new value. */
static unsigned long await_round(workers *w, unsigned long seen) {
  for (int i = 0; i < w->spins; i++) {
    unsigned long r = atomic_load_explicit(&w->round, memory_order_acquire);
    if (r != seen) return r;
    relax();
  }
  for (int i = 0; i < w->yields; i++) {
    unsigned long r = atomic_load_explicit(&w->round, memory_order_acquire);
    if (r != seen) return r;
    sched_yield();
  }
  /* Sleep. The count is raised before the round is read again, and the starter reads the count
   * after raising the round (both sequentially consistent): either it sees a sleeper and
   * signals under the lock, or this member sees the new round. */
  pthread_mutex_lock(&w->lock);
  atomic_fetch_add(&w->sleepers, 1);
  unsigned long r;
  while ((r = atomic_load(&w->round)) == seen) pthread_cond_wait(&w->wake, &w->lock);
  atomic_fetch_sub(&w->sleepers, 1);
  pthread_mutex_unlock(&w->lock);
  return r;
}

typedef struct member {
  workers *w;
  int part;
} member;

static void *member_main(void *arg) {
  member m = *(member *)arg;
  free(arg);
  workers *w = m.w;
  unsigned long seen = 0;
  for (;;) {
    seen = await_round(w, seen);
    if (atomic_load_explicit(&w->stop, memory_order_acquire)) return NULL;
    w->job(w->ctx, m.part, w->n);
    atomic_fetch_sub_explicit(&w->pending, 1, memory_order_acq_rel);
  }
}

/* Starts the next round (or, with stop set, ends the threads). */
static void start_round(workers *w) {
  atomic_fetch_add(&w->round, 1);
  if (atomic_load(&w->sleepers) > 0) {
    pthread_mutex_lock(&w->lock);
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->lock);
  }
}

/* The cores this process may run on: its affinity mask (taskset, a container's or a batch
 * job's cpuset), not the machine's count. Two members spinning for each other on one core
 * wait out each other's time slices: with both on one CPU a round took 200 us, not 4. */
long workers_cores(void) {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
  return sysconf(_SC_NPROCESSORS_ONLN);
}

workers *workers_create(int n, rf_diag *d) {
  if (n < 1) n = 1;
  workers *w = rf_calloc(1, sizeof *w, d);
  if (!w) return NULL;
  w->n = n;
  long cores = workers_cores();
  int oversubscribed = cores > 0 && n > cores;
  w->spins = oversubscribed ? 0 : SPINS_BEFORE_YIELD;
  w->yields = oversubscribed ? 0 : YIELDS_BEFORE_SLEEP;
  atomic_init(&w->round, 0);
  atomic_init(&w->pending, 0);
  atomic_init(&w->stop, 0);
  atomic_init(&w->sleepers, 0);
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->wake, NULL);
  w->threads = rf_calloc((size_t)n, sizeof *w->threads, d);
  if (!w->threads) {
    workers_destroy(w);
    return NULL;
  }
  for (int i = 1; i < n; i++) {
    member *m = malloc(sizeof *m);
    if (m) *m = (member){w, i};
    if (!m || pthread_create(&w->threads[i], NULL, member_main, m)) {
      free(m);
      rf_fail(d, "-threads %d: could not start thread %d", n, i);
      workers_destroy(w);
      return NULL;
    }
    w->started++;
  }
  return w;
}

void workers_run(workers *w, workers_job job, void *ctx) {
  if (w->n == 1) {
    job(ctx, 0, 1);
    return;
  }
  w->job = job;
  w->ctx = ctx;
  atomic_store_explicit(&w->pending, w->n - 1, memory_order_relaxed);
  start_round(w);
  job(ctx, 0, w->n);
  /* The others' writes become visible through their acq_rel decrements. */
  for (int i = 0; atomic_load_explicit(&w->pending, memory_order_acquire) > 0; i++)
    if (i < w->spins) relax();
    else sched_yield();
}

int workers_count(const workers *w) { return w->n; }

void workers_destroy(workers *w) {
  if (!w) return;
  if (w->started) {
    atomic_store(&w->stop, 1);
    start_round(w);
    for (int i = 1; i <= w->started; i++) pthread_join(w->threads[i], NULL);
  }
  pthread_mutex_destroy(&w->lock);
  pthread_cond_destroy(&w->wake);
  free(w->threads);
  free(w);
}
