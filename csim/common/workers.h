/* A fixed team of threads that runs one job on every member, many times a second: the GPU's
 * SMs stepped in parallel once per simulated cycle (gpu -threads). A round costs a few hundred
 * nanoseconds when every member has a core, so members wait by spinning, then by yielding, and
 * sleep only when no round has come for a while (between kernels, while a trace loads). */
#ifndef RFSIM_WORKERS_H
#define RFSIM_WORKERS_H

#include "diag.h"

typedef struct workers workers;

/* The job of one round: member `part` of `n` (0 is the caller of workers_run). */
typedef void (*workers_job)(void *ctx, int part, int n);

/* A team of n members: the caller and n - 1 threads. NULL (with d) if a thread cannot start. */
workers *workers_create(int n, rf_diag *d);
/* Runs job(ctx, part, n) for every part in 0..n-1, part 0 on this thread, and returns when all
 * are done; what the members wrote is then visible to the caller. */
void workers_run(workers *w, workers_job job, void *ctx);
int workers_count(const workers *w);
/* The CPUs this process may run on: its affinity mask (taskset, a container's or a batch job's
 * cpuset), else the machine's online count. */
long workers_cores(void);
void workers_destroy(workers *w);

#endif
