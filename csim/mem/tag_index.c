/* A tag array's key -> line index (tag_index.h). */
#include "tag_index.h"

#include <stdlib.h>

int tag_index_init(tag_index *x, size_t lines, rf_diag *d) {
  size_t slots = 2;
  while (slots < 2 * lines) slots <<= 1; /* at most half full: short probes */
  x->mask = (uint32_t)(slots - 1);
  /* (on cache lines: a slot never straddles two, which tag_index_prefetch relies on) */
  x->slots = rf_calloc_lines(slots, sizeof *x->slots, d);
  if (!x->slots) return -1;
  tag_index_clear(x);
  return 0;
}

void tag_index_free(tag_index *x) {
  free(x->slots);
  x->slots = NULL;
}

void tag_index_clear(tag_index *x) {
  for (uint32_t s = 0; s <= x->mask; s++) x->slots[s].line = -1;
}

void tag_index_put(tag_index *x, uint64_t key, int32_t line) {
  x->slots[tag_index_find(x, key)] = (tag_slot){.key = key, .line = line};
}

void tag_index_remove(tag_index *x, uint64_t key, int32_t line) {
  uint32_t s = tag_index_find(x, key);
  if (x->slots[s].line != line) return; /* absent, or last installed elsewhere */
  /* Backward shift: later entries of the probe run move into the hole when their home slot
   * does not lie cyclically in (hole, their slot]. */
  uint32_t hole = s;
  for (uint32_t j = (s + 1) & x->mask; x->slots[j].line >= 0; j = (j + 1) & x->mask) {
    uint32_t home = tag_index_slot(x, x->slots[j].key);
    int between = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (between) continue;
    x->slots[hole] = x->slots[j];
    hole = j;
  }
  x->slots[hole].line = -1;
}
