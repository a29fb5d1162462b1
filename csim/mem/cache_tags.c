#include "cache_tags.h"

#include <stdlib.h>

#include "mem_internal.h"

/* Keeps a single tag array under 16M lines: anything larger is a typo in a config, and the
 * limit keeps nsets * assoc from overflowing. */
#define MAX_LINES (1L << 24)

int cache_tags_init(cache_tags *t, const cache_config *cfg, const char *what, rf_diag *d) {
  t->lines = NULL;
  if (cfg->nsets < 1 || cfg->assoc < 1)
    return rf_fail(d, "%s: expected at least 1 set and 1 way, found %d sets x %d ways", what,
                   cfg->nsets, cfg->assoc);
  if (cfg->line_size < MEM_SECTOR_BYTES || cfg->line_size > 8 * MEM_SECTOR_BYTES ||
      !mem_is_pow2((uint64_t)cfg->line_size))
    return rf_fail(d, "%s: expected a line size that is a power of two in [32, 256], found %d",
                   what, cfg->line_size);
  if ((long)cfg->nsets * cfg->assoc > MAX_LINES)
    return rf_fail(d, "%s: expected at most %ld lines, found %d sets x %d ways", what, MAX_LINES,
                   cfg->nsets, cfg->assoc);
  if (cfg->replacement != 'L' && cfg->replacement != 'F')
    return rf_fail(d, "%s: expected replacement policy L or F, found '%c'", what,
                   cfg->replacement);
  t->nsets = cfg->nsets;
  t->assoc = cfg->assoc;
  t->line_size = cfg->line_size;
  t->set_bits = mem_is_pow2((uint64_t)cfg->nsets) ? mem_log2((uint64_t)cfg->nsets) : -1;
  t->replacement = cfg->replacement;
  t->index_fn = cfg->set_index_fn ? cfg->set_index_fn : 'L';
  t->clock = 0;
  t->lines = rf_calloc((size_t)cfg->nsets * (size_t)cfg->assoc, sizeof *t->lines, d);
  return t->lines ? 0 : -1;
}

void cache_tags_free(cache_tags *t) {
  free(t->lines);
  t->lines = NULL;
}

static uint32_t reduce(const cache_tags *t, uint64_t x) {
  return t->set_bits >= 0 ? (uint32_t)(x & ((uint64_t)t->nsets - 1))
                          : (uint32_t)(x % (uint64_t)t->nsets);
}

/* GPGPU-Sim's Fermi set hash for 32 or 64 sets of 128-byte lines: the five index bits above the
 * line offset XORed with address bits 13-15, 17 and 19 (and bit 12 prepended for 64 sets), so
 * that power-of-two strides spread over the sets. */
static uint32_t fermi_hash(uint64_t addr, int nsets) {
  uint32_t lower = (uint32_t)(addr >> 7) & 0x1f;
  uint32_t upper = (uint32_t)((addr & 0xe000) >> 13);
  upper |= (uint32_t)((addr & 0x20000) >> 14);
  upper |= (uint32_t)((addr & 0x80000) >> 15);
  uint32_t set = lower ^ upper;
  if (nsets == 64) set |= (uint32_t)((addr & 0x1000) >> 7);
  return set;
}

uint32_t cache_tags_set(const cache_tags *t, uint64_t key) {
  switch (t->index_fn) {
  case 'H':
    if ((t->nsets == 32 || t->nsets == 64) && t->line_size == 128)
      return fermi_hash(key << 7, t->nsets);
    /* Other geometries have no Fermi definition: fall through to the XOR fold. */
    /* fall through */
  case 'P':
  case 'X': {
    /* XOR-fold the next index-sized field of the line number onto the index. */
    int bits = t->set_bits > 0 ? t->set_bits : 8;
    return reduce(t, key ^ (key >> bits));
  }
  default:
    return reduce(t, key);
  }
}

tag_line *cache_tags_probe(cache_tags *t, uint64_t key) {
  tag_line *set = &t->lines[(size_t)cache_tags_set(t, key) * (size_t)t->assoc];
  for (int w = 0; w < t->assoc; w++)
    if (set[w].key == key && !tag_line_free(&set[w])) return &set[w];
  return NULL;
}

tag_line *cache_tags_victim(cache_tags *t, uint64_t key) {
  tag_line *set = &t->lines[(size_t)cache_tags_set(t, key) * (size_t)t->assoc];
  tag_line *best = NULL;
  for (int w = 0; w < t->assoc; w++) {
    tag_line *l = &set[w];
    if (tag_line_free(l)) return l;
    if (l->pending) continue; /* a reserved line waits for its fill */
    if (!best || l->stamp < best->stamp) best = l;
  }
  return best;
}

void cache_tags_install(cache_tags *t, tag_line *l, uint64_t key, uint64_t addr, uint8_t space) {
  l->key = key;
  l->addr = addr;
  l->stamp = ++t->clock;
  l->valid = l->dirty = l->pending = 0;
  l->space = space;
}
