#include "sass_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass_decode.h"
#include "sass_isa.h"
#include "sass_listing.h"

/* sections whose contents live in device memory: __device__ variables and module constants */
static int placed(const sass_elf_sec *s) {
  if (!strncmp(s->name, ".nv.global", 10)) return 1;
  return !strncmp(s->name, ".nv.constant", 12) && !strchr(s->name + 12, '.');
}

static int place_data(sass_module *m, rf_diag *d) {
  const sass_elf *e = &m->cb.elf;
  m->sec_addr = rf_calloc((size_t)e->nsec, sizeof *m->sec_addr, d);
  if (!m->sec_addr) return -1;
  for (int i = 1; i < e->nsec; i++) {
    const sass_elf_sec *s = &e->sec[i];
    if (!placed(s) || s->size == 0) continue;
    if (sass_devmem_alloc_module(m->mem, s->size, &m->sec_addr[i], d) < 0) return -1;
    if (s->data) memcpy(sass_devmem_at(m->mem, m->sec_addr[i], s->size), s->data, s->size);
  }
  return 0;
}

/* the last immediate operand of the instruction a relocation patches */
static sass_opnd *reloc_target(sass_inst *in) {
  for (int i = in->nops - 1; i >= 0; i--)
    if (in->o[i].kind == SO_IMM) return &in->o[i];
  return NULL;
}

static int relocate(sass_module *m, sass_kernel *k, rf_diag *d) {
  const sass_kinfo *ki = k->info;
  for (int r = 0; r < ki->nrel; r++) {
    const sass_reloc *rel = &ki->rel[r];
    const sass_elf_sym *sym = &m->cb.elf.sym[rel->sym];
    uint32_t slot = (uint32_t)(rel->offset >> k->pc_shift);
    sass_inst *in = slot < k->nslots ? &k->code[slot] : NULL;
    sass_opnd *o = in && in->valid ? reloc_target(in) : NULL;
    if (!o || sym->shndx >= m->cb.elf.nsec || !m->sec_addr[sym->shndx])
      return rf_fail(d, "%s: kernel %s: unsupported relocation (type 0x%x of %s at 0x%llx)",
                     m->path, ki->name, rel->type, sym->name, (unsigned long long)rel->offset);
    uint64_t addr = m->sec_addr[sym->shndx] + sym->value;
    switch (rel->type) {
    case SASS_R_ABS32_LO_32: case SASS_R_ABS32_LO_20: case SASS_R_ABS32_LO_32_V:
      o->ival = (uint32_t)addr;
      break;
    case SASS_R_ABS32_HI_32: case SASS_R_ABS32_HI_20: case SASS_R_ABS32_HI_32_V:
      o->ival = (uint32_t)(addr >> 32);
      break;
    default:
      return rf_fail(d, "%s: kernel %s: unsupported relocation type 0x%x (%s at 0x%llx)", m->path,
                     ki->name, rel->type, sym->name, (unsigned long long)rel->offset);
    }
    o->flags &= (uint16_t)~SOF_FLOATTXT;
  }
  return 0;
}

static int is_control_slot(int sm, uint32_t pc) { return sm < 70 && pc % 32 == 0; }

static int decode_kernel(sass_module *m, sass_kernel *k, const sass_listing *l, rf_diag *d) {
  const sass_kinfo *ki = k->info;
  const sass_func_listing *f = sass_listing_find(l, ki->name);
  if (!f)
    return rf_fail(d, "%s: kernel %s is not in the SASS listing %s", m->path, ki->name, l->path);
  k->pc_shift = m->sm >= 70 ? 4 : 3;
  uint32_t isize = 1u << k->pc_shift;
  k->nslots = ki->code_bytes >> k->pc_shift;
  k->code = rf_calloc(k->nslots ? k->nslots : 1, sizeof *k->code, d);
  if (!k->code) return -1;
  for (int i = 0; i < f->n; i++) {
    const sass_line *ln = &f->lines[i];
    if (ln->pc % isize || ln->pc >> k->pc_shift >= k->nslots || is_control_slot(m->sm, ln->pc))
      return rf_fail_at(d, l->path, ln->src_line, "kernel %s: instruction at 0x%x is outside the "
                        "%u bytes of code %s gives it (sm_%d), or on a control word", ki->name,
                        ln->pc, ki->code_bytes, m->path, m->sm);
    sass_inst *in = &k->code[ln->pc >> k->pc_shift];
    in->pc = ln->pc;
    char msg[RF_DIAG_MSG_MAX];
    rf_diag dd;
    if (sass_parse_inst(ln->text, in, &dd) < 0 || sass_prepare(in, m->sm, ki->nregs, &dd) < 0) {
      snprintf(msg, sizeof msg, "%s", dd.msg);
      return rf_fail_at(d, l->path, ln->src_line, "kernel %s (sm_%d code of %s), PC 0x%x, '%s': %s",
                        ki->name, m->sm, m->path, ln->pc, ln->text, msg);
    }
  }
  for (uint32_t s = 0; s < k->nslots; s++) {
    sass_inst *in = &k->code[s];
    if (!in->valid || !in->is_ctrl || in->nops == 0 || in->o[0].kind != SO_IMM) continue;
    /* a target printed on a bundle's control word means the first instruction after it */
    if (is_control_slot(m->sm, (uint32_t)in->k)) in->k += 8;
    uint32_t t = (uint32_t)in->k;
    if (t % isize || t >> k->pc_shift >= k->nslots || !k->code[t >> k->pc_shift].valid)
      return rf_fail(d, "%s: kernel %s (sm_%d code of %s): %s at 0x%x targets 0x%x, which "
                     "holds no instruction", l->path, ki->name, m->sm, m->path, in->opcode, in->pc,
                     t);
  }
  int c2 = ki->const2;
  if (c2 >= 0 && m->cb.elf.sec[c2].data) {
    k->const2 = m->cb.elf.sec[c2].data;
    k->const2_bytes = (uint32_t)m->cb.elf.sec[c2].size;
  }
  uint64_t local = (uint64_t)ki->frame_bytes + ki->max_stack_bytes + ki->min_stack_bytes;
  if (local > 0x100000)
    return rf_fail(d, "%s: kernel %s needs %llu bytes of local memory per thread", m->path,
                   ki->name, (unsigned long long)local);
  k->local_bytes = (uint32_t)((local + 15) & ~15ull);
  return relocate(m, k, d);
}

int sass_module_load(sass_module *m, const uint8_t *cubin, size_t len, const char *cubin_path,
                     const char *listing, size_t listing_len, const char *listing_path,
                     sass_devmem *mem, rf_diag *d) {
  memset(m, 0, sizeof *m);
  m->mem = mem;
  m->path = strdup(cubin_path);
  m->cubin = malloc(len ? len : 1);
  if (!m->path || !m->cubin) {
    sass_module_unload(m);
    return rf_fail(d, "out of memory loading %s", cubin_path);
  }
  memcpy(m->cubin, cubin, len);
  m->cubin_len = len;
  sass_listing l;
  if (sass_cubin_open(m->cubin, len, m->path, &m->cb, d) < 0) {
    free(m->cubin);
    free(m->path);
    memset(m, 0, sizeof *m);
    return -1;
  }
  m->sm = m->cb.elf.sm;
  if (!sass_isa_supported(m->sm)) {
    rf_fail(d, "%s: code for sm_%d: the interpreter runs sm_50-sm_62 (Maxwell, Pascal)", m->path,
            m->sm);
    sass_module_unload(m);
    return -1;
  }
  if (sass_listing_parse(listing, listing_len, listing_path, &l, d) < 0) {
    sass_module_unload(m);
    return -1;
  }
  int rc = place_data(m, d);
  m->nk = m->cb.nk;
  m->k = rc < 0 ? NULL : rf_calloc((size_t)(m->nk ? m->nk : 1), sizeof *m->k, d);
  if (!m->k) rc = -1;
  for (int i = 0; rc == 0 && i < m->nk; i++) {
    m->k[i].info = &m->cb.k[i];
    rc = decode_kernel(m, &m->k[i], &l, d);
  }
  sass_listing_free(&l);
  if (rc < 0) sass_module_unload(m);
  return rc;
}

void sass_module_unload(sass_module *m) {
  if (m->sec_addr)
    for (int i = 0; i < m->cb.elf.nsec; i++)
      if (m->sec_addr[i]) sass_devmem_release_module(m->mem, m->sec_addr[i]);
  for (int i = 0; m->k && i < m->nk; i++) free(m->k[i].code);
  free(m->k);
  free(m->sec_addr);
  sass_cubin_close(&m->cb);
  free(m->cubin);
  free(m->path);
  memset(m, 0, sizeof *m);
}

int sass_module_kernel(const sass_module *m, const char *name) {
  for (int i = 0; i < m->nk; i++)
    if (!strcmp(m->k[i].info->name, name)) return i;
  return -1;
}

int sass_module_symbol(const sass_module *m, const char *name, uint64_t *addr, uint64_t *size) {
  const sass_elf *e = &m->cb.elf;
  for (int i = 0; i < e->nsym; i++) {
    const sass_elf_sym *y = &e->sym[i];
    if (y->type != SASS_STT_OBJECT || strcmp(y->name, name) || y->shndx >= e->nsec ||
        !m->sec_addr[y->shndx])
      continue;
    *addr = m->sec_addr[y->shndx] + y->value;
    *size = y->size;
    return 0;
  }
  return -1;
}

const uint8_t *sass_module_cbank(const sass_module *m, int bank, uint32_t *bytes) {
  char name[32];
  snprintf(name, sizeof name, ".nv.constant%d", bank);
  int s = sass_elf_section(&m->cb.elf, name);
  if (s < 0 || !m->sec_addr[s]) return NULL;
  *bytes = (uint32_t)m->cb.elf.sec[s].size;
  return sass_devmem_at(m->mem, m->sec_addr[s], m->cb.elf.sec[s].size);
}
