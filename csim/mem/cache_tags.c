#include "cache_tags.h"

#include <stdlib.h>

#include "mem_internal.h"

/* Keeps a single tag array under 16M lines: anything larger is a typo in a config, and the
 * limit keeps nsets * assoc from overflowing. */
#define MAX_LINES (1L << 24)

int cache_tags_init(cache_tags *t, const cache_config *cfg, int max_assoc, int dirty_percent,
                    const char *what, rf_diag *d) {
  t->lines = NULL;
  t->keys = NULL;
  t->stamps = NULL;
  t->empty = NULL;
  t->index = (tag_index){0};
  if (cfg->nsets < 1 || cfg->assoc < 1 || !mem_is_pow2((uint64_t)cfg->nsets))
    return rf_fail(d, "%s: expected a power-of-two number of sets and at least 1 way, found "
                      "%d sets x %d ways", what, cfg->nsets, cfg->assoc);
  if (cfg->line_size < MEM_SECTOR_BYTES || cfg->line_size > 8 * MEM_SECTOR_BYTES ||
      !mem_is_pow2((uint64_t)cfg->line_size))
    return rf_fail(d, "%s: expected a line size that is a power of two in [32, 256], found %d",
                   what, cfg->line_size);
  if (max_assoc < cfg->assoc) max_assoc = cfg->assoc;
  if ((long)cfg->nsets * max_assoc > MAX_LINES)
    return rf_fail(d, "%s: expected at most %ld lines, found %d sets x %d ways", what, MAX_LINES,
                   cfg->nsets, max_assoc);
  if (cfg->replacement != 'L' && cfg->replacement != 'F')
    return rf_fail(d, "%s: expected replacement policy L or F, found '%c'", what,
                   cfg->replacement);
  char fn = cfg->set_index_fn ? cfg->set_index_fn : 'L';
  if (fn == 'P' && !mem_ipoly_defined(mem_log2((uint64_t)cfg->nsets)))
    return rf_fail(d, "%s: expected 16, 32 or 64 sets for the IPOLY set index (P), found %d",
                   what, cfg->nsets);
  t->nsets = cfg->nsets;
  t->assoc = cfg->assoc;
  t->max_assoc = max_assoc;
  t->line_size = cfg->line_size;
  t->set_bits = mem_log2((uint64_t)cfg->nsets);
  t->sectored = cfg->sectored;
  t->replacement = cfg->replacement;
  t->index_fn = fn;
  t->ipoly = fn == 'P' ? mem_ipoly_table_of(t->set_bits) : NULL;
  t->dirty_percent = dirty_percent;
  t->index_of = NULL;
  t->index_ctx = NULL;
  t->ndirty = 0;
  t->clock = 0;
  t->way_words = (max_assoc + 63) / 64;
  size_t n = (size_t)cfg->nsets * (size_t)max_assoc;
  size_t masks = (size_t)cfg->nsets * (size_t)t->way_words;
  t->lines = rf_calloc(n, sizeof *t->lines, d);
  t->keys = t->lines ? rf_calloc(n, sizeof *t->keys, d) : NULL;
  t->stamps = t->keys ? rf_calloc(n, sizeof *t->stamps, d) : NULL;
  t->empty = t->stamps ? rf_calloc(3 * masks, sizeof(uint64_t), d) : NULL;
  if (t->empty && (max_assoc < TAG_INDEX_WAYS || tag_index_init(&t->index, n, d) == 0)) {
    t->fetching = t->empty + masks;
    t->modified = t->fetching + masks;
    cache_tags_set_assoc(t, cfg->assoc);
    return 0;
  }
  cache_tags_free(t);
  return -1;
}

void cache_tags_free(cache_tags *t) {
  free(t->lines);
  free(t->keys);
  free(t->stamps);
  free(t->empty);
  tag_index_free(&t->index);
  t->lines = NULL;
  t->keys = NULL;
  t->stamps = NULL;
  t->empty = NULL;
}

/* Where line i's bit is in the per-set way masks: its word and the bit. */
typedef struct way_pos {
  size_t word;
  uint64_t bit;
} way_pos;

static way_pos way_pos_of(const cache_tags *t, int32_t i) {
  uint32_t set = (uint32_t)i / (uint32_t)t->max_assoc;
  uint32_t way = (uint32_t)i - set * (uint32_t)t->max_assoc;
  return (way_pos){(size_t)set * (size_t)t->way_words + (way >> 6), 1ull << (way & 63)};
}

static void way_bit(uint64_t *masks, way_pos p, int on) {
  masks[p.word] = on ? masks[p.word] | p.bit : masks[p.word] & ~p.bit;
}

/* The ways in use in word w of a set's masks. */
static uint64_t in_use(const cache_tags *t, int w) {
  int left = t->assoc - w * 64;
  return left >= 64 ? ~0ull : left > 0 ? (1ull << left) - 1 : 0;
}

void cache_tags_set_assoc(cache_tags *t, int assoc) {
  if (assoc < 1) assoc = 1;
  if (assoc > t->max_assoc) assoc = t->max_assoc;
  t->assoc = assoc;
  t->gen++;
  size_t n = (size_t)t->nsets * (size_t)t->max_assoc;
  for (size_t i = 0; i < n; i++) {
    t->lines[i] = (tag_line){0};
    t->keys[i] = 0;
    t->stamps[i] = 0;
  }
  size_t masks = (size_t)t->nsets * (size_t)t->way_words;
  for (size_t i = 0; i < 3 * masks; i++) t->empty[i] = 0;
  for (size_t set = 0; set < masks; set += (size_t)t->way_words) /* every way in use: empty */
    for (int w = 0; w < t->way_words; w++) t->empty[set + (size_t)w] = in_use(t, w);
  if (t->index.slots) tag_index_clear(&t->index);
  t->ndirty = 0;
}

void cache_tags_touch(cache_tags *t, tag_line *l) {
  if (t->replacement != 'F') t->stamps[l - t->lines] = ++t->clock;
}

/* Line i's bits in the set masks (empty, being fetched into), from its sectors. */
static void sector_masks(cache_tags *t, int32_t i) {
  way_pos p = way_pos_of(t, i);
  way_bit(t->empty, p, tag_line_free(&t->lines[i]));
  way_bit(t->fetching, p, t->lines[i].pending != 0);
}

void cache_tags_sectors_changed(cache_tags *t, tag_line *l, uint64_t key) {
  int32_t i = (int32_t)(l - t->lines);
  sector_masks(t, i);
  if (t->index.slots) tag_index_sectors(&t->index, key, i, l->valid, l->pending, l->unreadable);
}

/* GPGPU-Sim's Fermi set hash for 32 or 64 sets: the five index bits above the line offset
 * XORed with address bits 13-15, 17 and 19 (and bit 12 prepended for 64 sets), so that
 * power-of-two strides spread over the sets. */
static uint32_t fermi_hash(uint64_t addr, int line_log2, int nsets) {
  uint32_t lower = (uint32_t)(addr >> line_log2) & 0x1f;
  uint32_t upper = (uint32_t)((addr & 0xe000) >> 13);
  upper |= (uint32_t)((addr & 0x20000) >> 14);
  upper |= (uint32_t)((addr & 0x80000) >> 15);
  uint32_t set = lower ^ upper;
  if (nsets == 64) set |= (uint32_t)((addr & 0x1000) >> 7);
  return set;
}

uint32_t cache_tags_set(const cache_tags *t, uint64_t key) {
  if (t->index_of) key = t->index_of(t->index_ctx, key);
  uint32_t index = (uint32_t)(key & ((uint64_t)t->nsets - 1));
  uint64_t high = key >> t->set_bits;
  switch (t->index_fn) {
  case 'H': {
    int line_log2 = mem_log2((uint64_t)t->line_size);
    if (t->nsets == 32 || t->nsets == 64) return fermi_hash(key << line_log2, line_log2, t->nsets);
    return index; /* no Fermi definition for other set counts (config_validate refuses them) */
  }
  case 'P':
    return mem_ipoly_lookup(t->ipoly, high, index);
  case 'X':
    return mem_xor_index(high, index, (uint32_t)t->nsets);
  default:
    return index;
  }
}

static size_t set_base(const cache_tags *t, uint64_t key) {
  return (size_t)cache_tags_set(t, key) * (size_t)t->max_assoc;
}

/* Through the index: the slot of the live line holding `key`, or NULL. A key lives only in the
 * line it was last installed in (installs follow a lookup that found it nowhere), and only
 * while that line holds something (the slot's copy says). */
static const tag_slot *indexed(const cache_tags *t, uint64_t key) {
  const tag_slot *s = tag_index_slot_of(&t->index, key);
  return s->line >= 0 && (s->valid | s->pending) ? s : NULL;
}

/* The live line holding `key` in the set at `base`, or NULL (a freed slot keeps its old key).
 * Through the index where there is one (TAG_INDEX_WAYS ways or more), else over the set's
 * ways, four keys a step (a miss reads every way). */
static tag_line *find(cache_tags *t, size_t base, uint64_t key) {
  if (t->index.slots) {
    const tag_slot *s = indexed(t, key);
    return s ? &t->lines[s->line] : NULL;
  }
  const uint64_t *keys = t->keys + base;
  int n = t->assoc, w = 0;
  for (; w + 4 <= n; w += 4)
    if ((keys[w] == key) | (keys[w + 1] == key) | (keys[w + 2] == key) | (keys[w + 3] == key))
      break;
  for (; w < n; w++)
    if (keys[w] == key && !tag_line_free(&t->lines[base + (size_t)w]))
      return &t->lines[base + (size_t)w];
  return NULL;
}

tag_line *cache_tags_probe(cache_tags *t, uint64_t key) { return find(t, set_base(t, key), key); }

/* GPGPU-Sim's -gpgpu_l1_cache_write_ratio: a dirty line is a victim only while at least
 * dirty_percent of the lines are dirty. */
static int dirty_ok(const cache_tags *t) {
  return (long)t->ndirty * 100 >= (long)t->dirty_percent * t->nsets * t->assoc;
}

/* Word `word` of the masks (a set's words follow each other) as a mask of the lines that may
 * be replaced: those holding something, with nothing being fetched into them, dirty ones only
 * while dirty lines may go (`ok`). */
static uint64_t replaceable(const cache_tags *t, size_t word, int ok) {
  uint64_t m = ~t->empty[word] & ~t->fetching[word];
  return ok ? m : m & ~t->modified[word];
}

/* The replacement candidate of set `set`: an empty way first (the lowest), else the least
 * recently used (FIFO: oldest) line that may be replaced, else NULL. */
static tag_line *pick_victim(cache_tags *t, uint32_t set) {
  size_t first = (size_t)set * (size_t)t->way_words, base = (size_t)set * (size_t)t->max_assoc;
  for (int w = 0; w < t->way_words; w++) {
    uint64_t empty = t->empty[first + (size_t)w];
    if (empty) return &t->lines[base + (size_t)w * 64 + (size_t)__builtin_ctzll(empty)];
  }
  int ok = dirty_ok(t);
  const uint64_t *stamps = &t->stamps[base];
  size_t best = SIZE_MAX;
  uint64_t oldest = UINT64_MAX; /* (a line holding something has a stamp, below this) */
  for (int w = 0; w < t->way_words; w++)
    for (uint64_t m = replaceable(t, first + (size_t)w, ok) & in_use(t, w); m; m &= m - 1) {
      size_t way = (size_t)w * 64 + (size_t)__builtin_ctzll(m);
      if (stamps[way] < oldest) {
        oldest = stamps[way];
        best = way;
      }
    }
  return best == SIZE_MAX ? NULL : &t->lines[base + best];
}

tag_line *cache_tags_victim(cache_tags *t, uint64_t key) {
  return pick_victim(t, cache_tags_set(t, key));
}

/* Whether pick_victim would find a line, from the masks alone. */
static int has_victim(const cache_tags *t, uint32_t set) {
  size_t first = (size_t)set * (size_t)t->way_words;
  int ok = dirty_ok(t);
  for (int w = 0; w < t->way_words; w++)
    if ((t->empty[first + (size_t)w] | replaceable(t, first + (size_t)w, ok)) & in_use(t, w))
      return 1;
  return 0;
}

/* What a lookup finds in a line holding the key, from its sectors. */
static tag_status present(uint8_t valid, uint8_t pending, uint8_t unreadable, uint8_t need,
                          int is_write) {
  if (pending & need) return TAG_HIT_RESERVED;
  if ((valid & need) == need) {
    /* A sector written only in part cannot be read from the line. */
    if (!is_write && (unreadable & need)) return TAG_SECTOR_MISS;
    return TAG_HIT;
  }
  return TAG_SECTOR_MISS;
}

tag_status cache_tags_lookup(cache_tags *t, uint64_t key, uint8_t need, int is_write,
                             tag_line **line) {
  if (t->index.slots) { /* the slot's copy of the sectors: the line is not read */
    const tag_slot *s = indexed(t, key);
    if (s) {
      *line = &t->lines[s->line];
      return present(s->valid, s->pending, s->unreadable, need, is_write);
    }
    *line = NULL;
    return has_victim(t, cache_tags_set(t, key)) ? TAG_MISS : TAG_FULL;
  }
  uint32_t set = cache_tags_set(t, key);
  tag_line *l = find(t, (size_t)set * (size_t)t->max_assoc, key);
  *line = l;
  if (!l) return has_victim(t, set) ? TAG_MISS : TAG_FULL;
  return present(l->valid, l->pending, l->unreadable, need, is_write);
}

/* Empties l: no sectors, clean (the index's copy is the caller's to keep). */
static void empty_line(cache_tags *t, tag_line *l) {
  cache_tags_set_dirty(t, l, 0);
  l->valid = l->pending = l->unreadable = 0;
  sector_masks(t, (int32_t)(l - t->lines));
}

void cache_tags_install(cache_tags *t, tag_line *l, uint64_t key, uint64_t addr, uint8_t space) {
  int32_t i = (int32_t)(l - t->lines);
  t->gen++;
  empty_line(t, l);
  if (t->index.slots) { /* (the old key's slot goes, with its copy; the new one's is empty) */
    tag_index_remove(&t->index, t->keys[i], i);
    tag_index_put(&t->index, key, i);
  }
  t->keys[i] = key;
  l->addr = addr;
  t->stamps[i] = ++t->clock;
  l->space = space;
}

void cache_tags_set_dirty(cache_tags *t, tag_line *l, uint8_t dirty) {
  if (!l->dirty != !dirty) {
    t->ndirty += dirty ? 1 : -1;
    way_bit(t->modified, way_pos_of(t, (int32_t)(l - t->lines)), dirty != 0);
  }
  l->dirty = dirty;
}

void cache_tags_clear(cache_tags *t, tag_line *l) {
  empty_line(t, l);
  if (t->index.slots) {
    int32_t i = (int32_t)(l - t->lines);
    tag_index_sectors(&t->index, t->keys[i], i, 0, 0, 0);
  }
}
