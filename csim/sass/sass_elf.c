#include "sass_elf.h"

#include <stdlib.h>
#include <string.h>

/* ELF64 header and table entry sizes: the format's, not the host's structs, so the reader does
 * not depend on <elf.h> or on the host's layout. */
#define EH_SIZE 64
#define SH_SIZE 64
#define SYM_SIZE 24

static int in_bounds(uint64_t off, uint64_t n, size_t len) { return off <= len && n <= len - off; }

/* A NUL-terminated string at offset `off` of string table `st`, or NULL. */
static const char *str_at(const sass_elf_sec *st, uint64_t off) {
  if (!st || !st->data || off >= st->size) return NULL;
  const char *s = (const char *)st->data + off;
  return memchr(s, 0, st->size - off) ? s : NULL;
}

static int read_sections(const uint8_t *buf, size_t len, sass_elf *e, rf_diag *d) {
  uint64_t shoff = sass_le64(buf + 0x28);
  uint16_t shentsize = sass_le16(buf + 0x3a), shnum = sass_le16(buf + 0x3c);
  uint16_t shstrndx = sass_le16(buf + 0x3e);
  if (shentsize != SH_SIZE || shnum == 0 || shstrndx >= shnum ||
      !in_bounds(shoff, (uint64_t)shnum * SH_SIZE, len))
    return rf_fail(d, "%s: expected an ELF section table inside the file, found %u entries of "
                   "%u bytes at offset %llu (file is %zu bytes)", e->path, shnum, shentsize,
                   (unsigned long long)shoff, len);
  e->sec = rf_calloc(shnum, sizeof *e->sec, d);
  if (!e->sec) return -1;
  e->nsec = shnum;
  uint32_t *name_off = rf_calloc(shnum, sizeof *name_off, d);
  if (!name_off) return -1;
  for (int i = 0; i < shnum; i++) {
    const uint8_t *h = buf + shoff + (uint64_t)i * SH_SIZE;
    sass_elf_sec *s = &e->sec[i];
    name_off[i] = sass_le32(h);
    s->type = sass_le32(h + 4);
    s->flags = sass_le64(h + 8);
    uint64_t off = sass_le64(h + 0x18);
    s->size = sass_le64(h + 0x20);
    s->link = sass_le32(h + 0x28);
    s->info = sass_le32(h + 0x2c);
    if (s->type != SASS_SHT_NOBITS && s->type != 0) {
      if (!in_bounds(off, s->size, len)) {
        free(name_off);
        return rf_fail(d, "%s: section %d ends past the end of the file (offset %llu, %llu "
                       "bytes, file %zu bytes)", e->path, i, (unsigned long long)off,
                       (unsigned long long)s->size, len);
      }
      s->data = buf + off;
    }
  }
  const sass_elf_sec *shstr = &e->sec[shstrndx];
  for (int i = 0; i < shnum; i++) {
    e->sec[i].name = i == 0 ? "" : str_at(shstr, name_off[i]);
    if (!e->sec[i].name) {
      free(name_off);
      return rf_fail(d, "%s: section %d has no name in the section string table", e->path, i);
    }
  }
  free(name_off);
  return 0;
}

static int read_symbols(sass_elf *e, rf_diag *d) {
  int symtab = -1;
  for (int i = 0; i < e->nsec; i++)
    if (e->sec[i].type == SASS_SHT_SYMTAB) symtab = i;
  if (symtab < 0) return 0;
  const sass_elf_sec *s = &e->sec[symtab];
  if (s->size % SYM_SIZE || s->link >= (uint32_t)e->nsec)
    return rf_fail(d, "%s: malformed symbol table (%llu bytes, string table %u)", e->path,
                   (unsigned long long)s->size, s->link);
  const sass_elf_sec *st = &e->sec[s->link];
  e->nsym = (int)(s->size / SYM_SIZE);
  e->sym = rf_calloc((size_t)e->nsym, sizeof *e->sym, d);
  if (!e->sym) return -1;
  for (int i = 0; i < e->nsym; i++) {
    const uint8_t *p = s->data + (size_t)i * SYM_SIZE;
    sass_elf_sym *y = &e->sym[i];
    y->name = str_at(st, sass_le32(p));
    if (!y->name) return rf_fail(d, "%s: symbol %d has no name in the string table", e->path, i);
    y->type = p[4] & 0xf;
    y->bind = p[4] >> 4;
    y->shndx = sass_le16(p + 6);
    y->value = sass_le64(p + 8);
    y->size = sass_le64(p + 16);
  }
  return 0;
}

int sass_elf_open(const uint8_t *buf, size_t len, const char *path, int machine, sass_elf *e,
                  rf_diag *d) {
  memset(e, 0, sizeof *e);
  e->path = path;
  static const uint8_t ident[6] = {0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* little-endian */};
  if (len < EH_SIZE || memcmp(buf, ident, sizeof ident))
    return rf_fail(d, "%s: expected a 64-bit little-endian ELF file, found %s", path,
                   len < EH_SIZE ? "a file shorter than an ELF header" : "another format");
  if (machine && sass_le16(buf + 0x12) != machine)
    return rf_fail(d, "%s: expected an ELF for machine %d, found machine %u", path, machine,
                   sass_le16(buf + 0x12));
  e->sm = (int)(sass_le32(buf + 0x30) & 0xff);
  if (read_sections(buf, len, e, d) < 0 || read_symbols(e, d) < 0) {
    sass_elf_close(e);
    return -1;
  }
  return 0;
}

void sass_elf_close(sass_elf *e) {
  free(e->sec);
  free(e->sym);
  e->sec = NULL;
  e->sym = NULL;
  e->nsec = e->nsym = 0;
}

int sass_elf_section(const sass_elf *e, const char *name) {
  for (int i = 1; i < e->nsec; i++)
    if (!strcmp(e->sec[i].name, name)) return i;
  return -1;
}

int sass_elf_section2(const sass_elf *e, const char *prefix, const char *suffix) {
  size_t n = strlen(prefix);
  for (int i = 1; i < e->nsec; i++)
    if (!strncmp(e->sec[i].name, prefix, n) && !strcmp(e->sec[i].name + n, suffix)) return i;
  return -1;
}
