/* A tag array's key -> line index (tag_index.h). */
#include "tag_index.h"

#include <stdlib.h>

int tag_index_init(tag_index *x, size_t lines, rf_diag *d) {
  size_t slots = 2;
  while (slots < 2 * lines) slots <<= 1; /* at most half full: short probes */
  x->mask = (uint32_t)(slots - 1);
  x->keys = rf_calloc(slots, sizeof *x->keys, d);
  x->line = x->keys ? rf_calloc(slots, sizeof *x->line, d) : NULL;
  if (!x->line) {
    tag_index_free(x);
    return -1;
  }
  tag_index_clear(x);
  return 0;
}

void tag_index_free(tag_index *x) {
  free(x->keys);
  free(x->line);
  x->keys = NULL;
  x->line = NULL;
}

void tag_index_clear(tag_index *x) {
  for (uint32_t s = 0; s <= x->mask; s++) x->line[s] = -1;
}

void tag_index_put(tag_index *x, uint64_t key, int32_t line) {
  uint32_t s = tag_index_find(x, key);
  x->keys[s] = key;
  x->line[s] = line;
}

void tag_index_remove(tag_index *x, uint64_t key, int32_t line) {
  uint32_t s = tag_index_find(x, key);
  if (x->line[s] != line) return; /* absent, or last installed elsewhere */
  /* Backward shift: later entries of the probe run move into the hole when their home slot
   * does not lie cyclically in (hole, their slot]. */
  uint32_t hole = s;
  for (uint32_t j = (s + 1) & x->mask; x->line[j] >= 0; j = (j + 1) & x->mask) {
    uint32_t home = tag_index_slot(x, x->keys[j]);
    int between = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (between) continue;
    x->keys[hole] = x->keys[j];
    x->line[hole] = x->line[j];
    hole = j;
  }
  x->line[hole] = -1;
}
