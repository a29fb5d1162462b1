#include "trace_ops.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(trace_op) == 8 + 4 + 4 + 2 + 6 + TRACE_MAX_DST + TRACE_MAX_SRC + 2 + 2,
               "trace_op has implicit padding: ops are compared as bytes");

struct trace_op_block {
  struct trace_op_block *next;
  uint32_t n;
  trace_op op[];
};

int trace_op_set_owns(const trace_op_set *s, const trace_op *op) {
  for (const struct trace_op_block *b = s->blocks; b; b = b->next)
    for (uint32_t i = 0; i < b->n; i++)
      if (op == &b->op[i]) return 1;
  return 0;
}

static uint32_t op_hash(const trace_op *op) {
  uint64_t w[sizeof *op / 8], h = 0;
  memcpy(w, op, sizeof w);
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
    h = (h ^ w[i]) * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(h >> 32);
}

/* Whether two ops are equal byte for byte, a word at a time (no call to memcmp). */
static inline int same_op(const trace_op *a, const trace_op *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  uint64_t diff = 0;
  for (size_t i = 0; i < sizeof *a; i += 8) {
    uint64_t x, y;
    memcpy(&x, p + i, 8);
    memcpy(&y, q + i, 8);
    diff |= x ^ y;
  }
  return diff == 0;
}

/* Doubles the table (or makes its first one), rehashing what it holds. */
static int grow(trace_op_set *s, rf_diag *d) {
  uint32_t n = s->nslots ? s->nslots * 2 : 256;
  const trace_op **slot = calloc(n, sizeof *slot);
  if (!slot) return rf_fail(d, "out of memory");
  for (uint32_t i = 0; i < s->nslots; i++) {
    if (!s->slot[i]) continue;
    uint32_t h = op_hash(s->slot[i]) & (n - 1);
    while (slot[h]) h = (h + 1) & (n - 1);
    slot[h] = s->slot[i];
  }
  free(s->slot);
  s->slot = slot;
  s->nslots = n;
  return 0;
}

const trace_op *trace_op_intern(trace_op_set *s, const trace_op *op, rf_diag *d) {
  _Static_assert(sizeof(trace_op) % 8 == 0, "op_hash reads whole words");
  const trace_op **recent = &s->recent[(op->pc >> 3) % TRACE_OP_RECENT];
  if (*recent && same_op(*recent, op)) return *recent;
  if (2 * (s->n + 1) > s->nslots && grow(s, d) < 0) return NULL;
  uint32_t h = op_hash(op) & (s->nslots - 1);
  for (; s->slot[h]; h = (h + 1) & (s->nslots - 1))
    if (same_op(s->slot[h], op)) return *recent = s->slot[h];
  if (!s->room_left) {
    /* blocks of 64 ops: a kernel has a few hundred */
    struct trace_op_block *b = calloc(1, sizeof *b + 64 * sizeof b->op[0]);
    if (!b) {
      rf_fail(d, "out of memory");
      return NULL;
    }
    b->next = s->blocks;
    b->n = 64;
    s->blocks = b;
    s->room = b->op;
    s->room_left = 64;
  }
  trace_op *kept = s->room++;
  s->room_left--;
  *kept = *op;
  s->slot[h] = kept;
  s->n++;
  return *recent = kept;
}

void trace_op_set_free(trace_op_set *s) {
  for (struct trace_op_block *b = s->blocks, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(s->slot);
  memset(s, 0, sizeof *s);
}

struct trace_op_pool {
  trace_op_set set;
  atomic_int holders;
};

trace_op_pool *trace_op_pool_new(rf_diag *d) {
  trace_op_pool *p = calloc(1, sizeof *p);
  if (!p) {
    rf_fail(d, "out of memory");
    return NULL;
  }
  atomic_init(&p->holders, 1);
  return p;
}

trace_op_set *trace_op_pool_set(trace_op_pool *p) { return &p->set; }

void trace_op_pool_hold(trace_op_pool *p) {
  atomic_fetch_add_explicit(&p->holders, 1, memory_order_relaxed);
}

void trace_op_pool_release(trace_op_pool *p) {
  if (!p || atomic_fetch_sub_explicit(&p->holders, 1, memory_order_acq_rel) != 1) return;
  trace_op_set_free(&p->set);
  free(p);
}
