#include "sass_cubin.h"

#include <stdlib.h>
#include <string.h>

/* .nv.info attribute formats and the attributes read here (values as nvcc 11.8 writes them) */
#define EIFMT_NVAL 1
#define EIFMT_BVAL 2
#define EIFMT_HVAL 3
#define EIFMT_SVAL 4
#define EIATTR_PARAM_CBANK 0x0a
#define EIATTR_FRAME_SIZE 0x11
#define EIATTR_MIN_STACK_SIZE 0x12
#define EIATTR_KPARAM_INFO 0x17
#define EIATTR_CBANK_PARAM_SIZE 0x19
#define EIATTR_MAX_STACK_SIZE 0x23
#define EIATTR_REGCOUNT 0x2f
#define REL_SIZE 16
#define MAX_PARAMS 4096

typedef int (*attr_fn)(sass_cubin *c, sass_kinfo *k, int attr, const uint8_t *v, uint32_t n,
                       rf_diag *d);

/* Walks the attributes of one .nv.info section, calling fn for each. */
static int walk_info(sass_cubin *c, int sec, sass_kinfo *k, attr_fn fn, rf_diag *d) {
  const sass_elf_sec *s = &c->elf.sec[sec];
  if (!s->data || !s->size) return 0; /* an empty section (no data: not even an offset) */
  const uint8_t *p = s->data, *end = s->data + s->size;
  while (p < end) {
    if (end - p < 4)
      return rf_fail(d, "%s: %s: expected a 4-byte attribute header at offset %td", c->elf.path,
                     s->name, p - s->data);
    int fmt = p[0], attr = p[1];
    uint32_t n = sass_le16(p + 2);
    const uint8_t *v = p + 4;
    if (fmt == EIFMT_SVAL) {
      if ((uint64_t)(end - v) < n)
        return rf_fail(d, "%s: %s: attribute 0x%x of %u bytes runs past the section end",
                       c->elf.path, s->name, attr, n);
      p = v + n;
    } else if (fmt == EIFMT_NVAL || fmt == EIFMT_BVAL || fmt == EIFMT_HVAL) {
      v = p + 2; /* the value (if any) is the 16-bit field itself */
      n = 2;
      p += 4;
    } else {
      return rf_fail(d, "%s: %s: expected an attribute format 1-4, found %d at offset %td",
                     c->elf.path, s->name, fmt, p - s->data);
    }
    if (fn(c, k, attr, v, n, d) < 0) return -1;
  }
  return 0;
}

static sass_kinfo *kernel_of_sym(sass_cubin *c, uint32_t sym) {
  if (sym >= (uint32_t)c->elf.nsym) return NULL;
  for (int i = 0; i < c->nk; i++)
    if (!strcmp(c->k[i].name, c->elf.sym[sym].name)) return &c->k[i];
  return NULL;
}

/* Module-wide .nv.info: per-function sizes keyed by symbol. */
static int module_attr(sass_cubin *c, sass_kinfo *unused, int attr, const uint8_t *v, uint32_t n,
                       rf_diag *d) {
  (void)unused;
  (void)d;
  if (n < 8 || (attr != EIATTR_REGCOUNT && attr != EIATTR_FRAME_SIZE &&
                attr != EIATTR_MIN_STACK_SIZE && attr != EIATTR_MAX_STACK_SIZE))
    return 0;
  sass_kinfo *k = kernel_of_sym(c, sass_le32(v));
  if (!k) return 0; /* a device function, not a kernel */
  uint32_t x = sass_le32(v + 4);
  if (attr == EIATTR_REGCOUNT) k->nregs = (int)x;
  if (attr == EIATTR_FRAME_SIZE) k->frame_bytes = x;
  if (attr == EIATTR_MIN_STACK_SIZE) k->min_stack_bytes = x;
  if (attr == EIATTR_MAX_STACK_SIZE) k->max_stack_bytes = x;
  return 0;
}

static int kernel_attr(sass_cubin *c, sass_kinfo *k, int attr, const uint8_t *v, uint32_t n,
                       rf_diag *d) {
  if (attr == EIATTR_PARAM_CBANK && n >= 8) {
    k->param_base = sass_le16(v + 4);
  } else if (attr == EIATTR_CBANK_PARAM_SIZE) {
    k->param_bytes = sass_le16(v);
  } else if (attr == EIATTR_KPARAM_INFO) {
    if (n < 12)
      return rf_fail(d, "%s: kernel %s: expected a 12-byte parameter record, found %u bytes",
                     c->elf.path, k->name, n);
    uint32_t ord = sass_le16(v + 4), off = sass_le16(v + 6), size = sass_le32(v + 8) >> 18;
    if (ord >= MAX_PARAMS)
      return rf_fail(d, "%s: kernel %s: parameter ordinal %u beyond %d", c->elf.path, k->name,
                     ord, MAX_PARAMS);
    if ((int)ord >= k->nparams) {
      sass_kparam *p = rf_realloc(k->params, ord + 1, sizeof *p, d);
      if (!p) return -1;
      memset(p + k->nparams, 0, (ord + 1 - (uint32_t)k->nparams) * sizeof *p);
      k->params = p;
      k->nparams = (int)ord + 1;
    }
    k->params[ord].offset = off;
    k->params[ord].size = size;
  }
  return 0;
}

static int read_relocs(sass_cubin *c, sass_kinfo *k, rf_diag *d) {
  int r = sass_elf_section2(&c->elf, ".rel.text.", k->name);
  if (r < 0) return 0;
  const sass_elf_sec *s = &c->elf.sec[r];
  if (s->size % REL_SIZE || !s->data)
    return rf_fail(d, "%s: %s: expected 16-byte relocation records, found %llu bytes",
                   c->elf.path, s->name, (unsigned long long)s->size);
  k->nrel = (int)(s->size / REL_SIZE);
  k->rel = rf_calloc((size_t)k->nrel, sizeof *k->rel, d);
  if (!k->rel) return -1;
  for (int i = 0; i < k->nrel; i++) {
    const uint8_t *p = s->data + (size_t)i * REL_SIZE;
    uint64_t info = sass_le64(p + 8);
    k->rel[i].offset = sass_le64(p);
    k->rel[i].type = (uint32_t)info;
    k->rel[i].sym = (int)(info >> 32);
    if (k->rel[i].sym >= c->elf.nsym || k->rel[i].offset >= k->code_bytes)
      return rf_fail(d, "%s: %s: relocation %d names symbol %d at offset 0x%llx, outside the "
                     "symbol table or the code", c->elf.path, s->name, i, k->rel[i].sym,
                     (unsigned long long)k->rel[i].offset);
  }
  return 0;
}

static int read_kernel(sass_cubin *c, sass_kinfo *k, rf_diag *d) {
  const sass_elf_sec *t = &c->elf.sec[k->text];
  k->code_bytes = (uint32_t)t->size;
  k->nregs = (int)(t->info >> 24); /* EIATTR_REGCOUNT, if present, overrides it */
  k->param_base = 0x140;           /* sm_5x/6x's, if the cubin does not say */
  k->const2 = sass_elf_section2(&c->elf, ".nv.constant2.", k->name);
  int sh = sass_elf_section2(&c->elf, ".nv.shared.", k->name);
  if (sh >= 0) {
    if (c->elf.sec[sh].size > 0xffffff)
      return rf_fail(d, "%s: kernel %s declares %llu bytes of shared memory", c->elf.path,
                     k->name, (unsigned long long)c->elf.sec[sh].size);
    k->shared_bytes = (uint32_t)c->elf.sec[sh].size;
  }
  int info = sass_elf_section2(&c->elf, ".nv.info.", k->name);
  if (info >= 0 && walk_info(c, info, k, kernel_attr, d) < 0) return -1;
  return read_relocs(c, k, d);
}

int sass_cubin_open(const uint8_t *buf, size_t len, const char *path, sass_cubin *c,
                    rf_diag *d) {
  memset(c, 0, sizeof *c);
  if (sass_elf_open(buf, len, path, SASS_EM_CUDA, &c->elf, d) < 0) return -1;
  /* kernels: global function symbols whose code is in .text.<name> */
  for (int i = 0; i < c->elf.nsym; i++) {
    const sass_elf_sym *y = &c->elf.sym[i];
    if (y->type != SASS_STT_FUNC || y->bind != 1 /* GLOBAL */ || y->shndx >= c->elf.nsec)
      continue;
    int text = sass_elf_section2(&c->elf, ".text.", y->name);
    if (text != y->shndx) continue;
    sass_kinfo *k = rf_realloc(c->k, (size_t)c->nk + 1, sizeof *k, d);
    if (!k) goto fail;
    c->k = k;
    memset(&c->k[c->nk], 0, sizeof *k);
    c->k[c->nk].name = y->name;
    c->k[c->nk].text = text;
    c->nk++;
  }
  for (int i = 0; i < c->nk; i++)
    if (read_kernel(c, &c->k[i], d) < 0) goto fail;
  int info = sass_elf_section(&c->elf, ".nv.info");
  if (info >= 0 && walk_info(c, info, NULL, module_attr, d) < 0) goto fail;
  for (int i = 0; i < c->nk; i++)
    if (c->k[i].nregs <= 0 || c->k[i].nregs > 255) {
      rf_fail(d, "%s: kernel %s: expected 1-255 registers, found %d", path, c->k[i].name,
              c->k[i].nregs);
      goto fail;
    }
  return 0;
fail:
  sass_cubin_close(c);
  return -1;
}

void sass_cubin_close(sass_cubin *c) {
  for (int i = 0; i < c->nk; i++) {
    free(c->k[i].params);
    free(c->k[i].rel);
  }
  free(c->k);
  c->k = NULL;
  c->nk = 0;
  sass_elf_close(&c->elf);
}

int sass_cubin_kernel(const sass_cubin *c, const char *name) {
  for (int i = 0; i < c->nk; i++)
    if (!strcmp(c->k[i].name, name)) return i;
  return -1;
}
