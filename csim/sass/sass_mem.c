#include "sass_mem.h"

#include <stdlib.h>
#include <string.h>

void sass_devmem_init(sass_devmem *m, uint64_t limit_bytes) {
  memset(m, 0, sizeof *m);
  m->next = SASS_HEAP_BASE;
  m->limit = limit_bytes;
}

void sass_devmem_free_all(sass_devmem *m) {
  for (int i = 0; i < m->n; i++) free(m->a[i].host);
  free(m->a);
  uint64_t limit = m->limit;
  sass_devmem_init(m, limit);
}

static int alloc(sass_devmem *m, uint64_t size, int is_symbol, uint64_t *addr, rf_diag *d) {
  uint64_t rounded = size ? (size + SASS_ALLOC_ALIGN - 1) / SASS_ALLOC_ALIGN * SASS_ALLOC_ALIGN
                          : SASS_ALLOC_ALIGN;
  if (size > SASS_HEAP_END - SASS_HEAP_BASE || rounded > SASS_HEAP_END - m->next)
    return rf_fail(d, "device memory: cannot allocate %llu bytes: the device address space "
                   "is exhausted", (unsigned long long)size);
  if (m->bytes_live + rounded > m->limit)
    return rf_fail(d, "device memory: cannot allocate %llu bytes: %llu of the device's %llu "
                   "bytes are in use", (unsigned long long)size,
                   (unsigned long long)m->bytes_live, (unsigned long long)m->limit);
  if (m->n == m->cap) {
    int cap = m->cap ? 2 * m->cap : 64;
    sass_alloc *a = rf_realloc(m->a, (size_t)cap, sizeof *a, d);
    if (!a) return -1;
    m->a = a;
    m->cap = cap;
  }
  uint8_t *host = calloc(1, (size_t)rounded);
  if (!host)
    return rf_fail(d, "device memory: out of host memory for %llu bytes",
                   (unsigned long long)size);
  m->a[m->n++] = (sass_alloc){.base = m->next, .size = size ? size : 1, .host = host,
                              .is_symbol = is_symbol};
  *addr = m->next;
  m->next += rounded;
  m->bytes_live += rounded;
  if (m->bytes_live > m->bytes_peak) m->bytes_peak = m->bytes_live;
  return 0;
}

int sass_devmem_alloc(sass_devmem *m, uint64_t size, uint64_t *addr, rf_diag *d) {
  return alloc(m, size, 0, addr, d);
}

int sass_devmem_alloc_module(sass_devmem *m, uint64_t size, uint64_t *addr, rf_diag *d) {
  return alloc(m, size, 1, addr, d);
}

static int find_index(sass_devmem *m, uint64_t addr) {
  if (m->last < m->n && addr - m->a[m->last].base < m->a[m->last].size) return m->last;
  int lo = 0, hi = m->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (addr < m->a[mid].base) hi = mid - 1;
    else if (addr - m->a[mid].base >= m->a[mid].size) lo = mid + 1;
    else return m->last = mid;
  }
  return -1;
}

static int release(sass_devmem *m, uint64_t addr, int is_symbol, rf_diag *d) {
  int i = find_index(m, addr);
  if (i < 0 || m->a[i].base != addr || m->a[i].is_symbol != is_symbol)
    return rf_fail(d, "device memory: 0x%llx is not the start of a live allocation",
                   (unsigned long long)addr);
  uint64_t rounded = (m->a[i].size + SASS_ALLOC_ALIGN - 1) / SASS_ALLOC_ALIGN * SASS_ALLOC_ALIGN;
  m->bytes_live -= rounded;
  free(m->a[i].host);
  memmove(&m->a[i], &m->a[i + 1], (size_t)(m->n - i - 1) * sizeof *m->a);
  m->n--;
  m->last = 0;
  return 0;
}

int sass_devmem_release(sass_devmem *m, uint64_t addr, rf_diag *d) {
  return release(m, addr, 0, d);
}

int sass_devmem_release_module(sass_devmem *m, uint64_t addr) { return release(m, addr, 1, NULL); }

uint8_t *sass_devmem_at(sass_devmem *m, uint64_t addr, uint64_t n) {
  int i = find_index(m, addr);
  if (i < 0) return NULL;
  uint64_t off = addr - m->a[i].base;
  if (n > m->a[i].size - off) return NULL;
  return m->a[i].host + off;
}

const sass_alloc *sass_devmem_find(sass_devmem *m, uint64_t addr) {
  int i = find_index(m, addr);
  return i < 0 ? NULL : &m->a[i];
}
