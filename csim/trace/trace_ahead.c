#include "trace_ahead.h"

#include <pthread.h>
#include <stdlib.h>

/* Blocks read ahead: enough that a burst of launches (every SM filling up at a kernel's start
 * takes one block per cluster and cycle) finds them ready, few enough that the ones waiting add
 * little memory (a block of the 41 MB benchmark trace decodes to about 100 KB). */
enum { AHEAD_DEPTH = 8 };

struct trace_ahead {
  trace_kernel *k;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;      /* the reader waits while the ring is full, the taker while empty */
  trace_tb ring[AHEAD_DEPTH];
  size_t size[AHEAD_DEPTH]; /* each one's decoded instructions and addresses, in bytes */
  int head, count;          /* blocks read and not taken */
  size_t bytes;             /* their sizes' sum */
  size_t max_bytes;         /* no more are read while those waiting hold this much */
  int end;                  /* the reader's last answer (0 or -1) follows the ring's blocks */
  rf_diag why;              /* end == -1: the reader's message */
  int stop;                 /* the taker is done: the reader ends before its next read */
  int waiting;              /* a side waits on cond (never both: full and empty exclude) */
};

size_t trace_tb_bytes(const trace_tb *tb) {
  size_t n = (size_t)tb->nwarps * sizeof *tb->warps;
  for (int w = 0; w < tb->nwarps; w++)
    n += tb->warps[w].n * sizeof(trace_inst) + tb->warps[w].naddrs * sizeof(uint64_t);
  return n;
}

int trace_ahead_pays(const trace_kernel *k, const trace_tb *first) {
  if (trace_kernel_get_info(k)->num_tbs < 2) return 0;
  return !trace_kernel_reads_cache(k) || trace_tb_bytes(first) >= TRACE_AHEAD_MIN_BLOCK_BYTES;
}

static int ring_full(const trace_ahead *a) {
  return a->count == AHEAD_DEPTH || (a->count > 0 && a->bytes >= a->max_bytes);
}

/* The reader: blocks into the ring until the kernel ends, a read fails, or the taker stops. */
static void *read_blocks(void *arg) {
  trace_ahead *a = arg;
  for (;;) {
    pthread_mutex_lock(&a->lock);
    while (ring_full(a) && !a->stop) {
      a->waiting = 1;
      pthread_cond_wait(&a->cond, &a->lock);
    }
    int stop = a->stop, at = (a->head + a->count) % AHEAD_DEPTH;
    pthread_mutex_unlock(&a->lock);
    if (stop) return NULL;
    /* (the slot past the ring's blocks is the reader's until it counts it in) */
    rf_diag why;
    int r = trace_kernel_next_tb(a->k, &a->ring[at], &why);
    if (r > 0) a->size[at] = trace_tb_bytes(&a->ring[at]);
    pthread_mutex_lock(&a->lock);
    if (r > 0) a->count++, a->bytes += a->size[at];
    else a->end = r, a->why = why;
    if (a->waiting) {
      a->waiting = 0;
      pthread_cond_broadcast(&a->cond);
    }
    pthread_mutex_unlock(&a->lock);
    if (r <= 0) return NULL;
  }
}

trace_ahead *trace_ahead_start(trace_kernel *k, size_t max_bytes, rf_diag *d) {
  trace_ahead *a = rf_calloc(1, sizeof *a, d);
  if (!a) return NULL;
  a->k = k;
  a->max_bytes = max_bytes;
  a->end = 1; /* (not yet) */
  pthread_mutex_init(&a->lock, NULL);
  pthread_cond_init(&a->cond, NULL);
  if (pthread_create(&a->thread, NULL, read_blocks, a)) {
    pthread_mutex_destroy(&a->lock);
    pthread_cond_destroy(&a->cond);
    free(a);
    rf_fail(d, "could not start the thread that reads the trace ahead");
    return NULL;
  }
  return a;
}

int trace_ahead_next(trace_ahead *a, trace_tb *tb, rf_diag *d) {
  pthread_mutex_lock(&a->lock);
  while (a->count == 0 && a->end > 0) {
    a->waiting = 1;
    pthread_cond_wait(&a->cond, &a->lock);
  }
  int r = 1;
  if (a->count > 0) {
    *tb = a->ring[a->head];
    a->bytes -= a->size[a->head];
    a->head = (a->head + 1) % AHEAD_DEPTH;
    a->count--;
    if (a->waiting) {
      a->waiting = 0;
      pthread_cond_broadcast(&a->cond);
    }
  } else {
    r = a->end;
    if (r < 0 && d) *d = a->why;
  }
  pthread_mutex_unlock(&a->lock);
  return r;
}

int trace_ahead_ready(trace_ahead *a) {
  pthread_mutex_lock(&a->lock);
  int n = a->count;
  pthread_mutex_unlock(&a->lock);
  return n;
}

void trace_ahead_stop(trace_ahead *a) {
  if (!a) return;
  pthread_mutex_lock(&a->lock);
  a->stop = 1;
  pthread_cond_broadcast(&a->cond);
  pthread_mutex_unlock(&a->lock);
  pthread_join(a->thread, NULL);
  for (; a->count > 0; a->count--, a->head = (a->head + 1) % AHEAD_DEPTH)
    trace_tb_free(&a->ring[a->head]);
  pthread_mutex_destroy(&a->lock);
  pthread_cond_destroy(&a->cond);
  free(a);
}
