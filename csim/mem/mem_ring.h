/* Typed FIFO rings for the memory model's queues. A macro rather than a void* ring so that every
 * push and pop is a plain struct copy the compiler can inline: these run several times per
 * simulated cycle. Capacity is fixed at init; `reserve` grows a ring where the model allows an
 * unbounded queue, and is only ever called where failure can be reported (as a stall). */
#ifndef RFSIM_MEM_RING_H
#define RFSIM_MEM_RING_H

#include <stdint.h>
#include <stdlib.h>

#include "../common/diag.h"

/* Not every ring uses every operation; clang warns about unused static functions in .c files. */
#define RING_FN static inline __attribute__((unused))

#define RING_DEFINE(name, type)                                                                    \
  typedef struct name {                                                                            \
    type *buf;                                                                                     \
    uint32_t cap, head, count;                                                                     \
  } name;                                                                                          \
                                                                                                   \
  RING_FN int name##_init(name *r, uint32_t cap, rf_diag *d) {                                     \
    r->head = r->count = 0;                                                                        \
    r->cap = cap;                                                                                  \
    r->buf = rf_calloc(cap, sizeof(type), d);                                                      \
    return r->buf ? 0 : -1;                                                                        \
  }                                                                                                \
  RING_FN void name##_free(name *r) {                                                              \
    free(r->buf);                                                                                  \
    r->buf = NULL;                                                                                 \
    r->cap = r->count = r->head = 0;                                                               \
  }                                                                                                \
  RING_FN int name##_full(const name *r) { return r->count >= r->cap; }                            \
  RING_FN uint32_t name##_room(const name *r) { return r->cap - r->count; }                        \
  RING_FN type *name##_head(const name *r) { return &r->buf[r->head]; }                            \
  RING_FN type *name##_at(const name *r, uint32_t i) {                                             \
    uint32_t k = r->head + i;                                                                      \
    return &r->buf[k >= r->cap ? k - r->cap : k];                                                  \
  }                                                                                                \
  /* A push whose entry the caller fills in place (the ring has room): an element built on the    \
   * stack a field at a time and then copied whole is read back in wide loads that span several   \
   * of its narrow stores, which the host cannot forward (a stall of a dozen cycles). */          \
  RING_FN type *name##_push_new(name *r) {                                                         \
    type *e = name##_at(r, r->count);                                                              \
    r->count++;                                                                                    \
    return e;                                                                                      \
  }                                                                                                \
  RING_FN void name##_push(name *r, const type *v) { *name##_push_new(r) = *v; }                   \
  /* An emptied ring starts again at its first entry: most queues here are empty or nearly so      \
   * most of the time, and then the next push writes a line the host touched recently rather       \
   * than the one after the last, which left its caches a whole lap ago (the order of what is      \
   * queued is the same). */                                                                       \
  RING_FN void name##_pop(name *r) {                                                               \
    r->head = --r->count == 0 || r->head + 1 == r->cap ? 0 : r->head + 1;                          \
  }                                                                                                \
  /* Ensures room for `need` more elements, growing (and unwrapping) the buffer if needed. */      \
  RING_FN int name##_reserve(name *r, uint32_t need, rf_diag *d) {                                 \
    if (r->cap - r->count >= need) return 0;                                                       \
    uint64_t want = (uint64_t)r->cap * 2;                                                          \
    if (want < (uint64_t)r->count + need) want = (uint64_t)r->count + need;                        \
    if (want < 8) want = 8;                                                                        \
    if (want > UINT32_MAX / 2) return rf_fail(d, "queue " #name " would exceed 2^31 entries");     \
    type *nb = rf_calloc((size_t)want, sizeof(type), d);                                           \
    if (!nb) return -1;                                                                            \
    for (uint32_t i = 0; i < r->count; i++) nb[i] = *name##_at(r, i);                              \
    free(r->buf);                                                                                  \
    r->buf = nb;                                                                                   \
    r->head = 0;                                                                                   \
    r->cap = (uint32_t)want;                                                                       \
    return 0;                                                                                      \
  }

#endif
