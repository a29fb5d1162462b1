/* Software prefetch for the memory side's queues, whose head entries were written cycles
 * earlier and have left the host's caches by the time they are read: on the 2-core VM a read
 * outside the last few MB touched costs 200-500 ns (docs/speed.md, "Queue heads prefetched
 * together"), and a cycle that reads several such heads one after another waits for each in
 * turn. Started together at the beginning of a phase, the loads overlap.
 *
 * Why not a bare __builtin_prefetch in a helper: GCC counts a prefetch as no side effect, so
 * its IPA analysis finds a function that only prefetches pure and deletes every call to it
 * (this happened to icnt.c's first such loop). The empty volatile asm, which costs nothing
 * and no pass removes, keeps the prefetches. */
#ifndef RFSIM_PREFETCH_H
#define RFSIM_PREFETCH_H

#include <stddef.h>

/* The host cache line at p. */
static inline void rf_prefetch(const void *p) {
  __builtin_prefetch(p);
  __asm__ volatile("" : : "r"(p));
}

/* Both host cache lines an entry of at most 64 bytes may straddle (40-56 bytes here: one
 * in two or more crosses a line). */
static inline void rf_prefetch_entry(const void *p, size_t bytes) {
  __builtin_prefetch(p);
  __builtin_prefetch((const char *)p + bytes - 1);
  __asm__ volatile("" : : "r"(p));
}

#endif
