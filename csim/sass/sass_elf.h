/* A read-only view of a CUDA cubin (an ELF64 little-endian object), checked as it is read: every
 * offset, size and index taken from the file is bounds-checked against the buffer, so a truncated
 * or forged cubin is an error with the file name and what was wrong, never a crash. The view
 * points into the caller's buffer, which must outlive it. */
#ifndef RFSIM_SASS_ELF_H
#define RFSIM_SASS_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"

#define SASS_SHT_PROGBITS 1
#define SASS_SHT_SYMTAB 2
#define SASS_SHT_STRTAB 3
#define SASS_SHT_NOBITS 8
#define SASS_SHT_REL 9
#define SASS_STT_OBJECT 1
#define SASS_STT_FUNC 2

typedef struct sass_elf_sec {
  const char *name;
  uint32_t type, link, info;
  uint64_t flags, size;
  const uint8_t *data; /* NULL for NOBITS */
} sass_elf_sec;

typedef struct sass_elf_sym {
  const char *name;
  uint64_t value, size;
  uint16_t shndx;
  uint8_t type, bind;
} sass_elf_sym;

typedef struct sass_elf {
  const char *path; /* for messages */
  int sm;           /* target architecture from e_flags, e.g. 61 */
  int nsec, nsym;
  sass_elf_sec *sec;
  sass_elf_sym *sym;
} sass_elf;

#define SASS_EM_CUDA 190
#define SASS_EM_X86_64 62

/* machine: the e_machine the file must have (SASS_EM_CUDA for a cubin), 0 for any */
int sass_elf_open(const uint8_t *buf, size_t len, const char *path, int machine, sass_elf *e,
                  rf_diag *d);
void sass_elf_close(sass_elf *e);
/* Index of the section named `name`, or -1. */
int sass_elf_section(const sass_elf *e, const char *name);
/* Index of the section named prefix + suffix (e.g. ".nv.info." + kernel), or -1. */
int sass_elf_section2(const sass_elf *e, const char *prefix, const char *suffix);

static inline uint16_t sass_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t sass_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t sass_le64(const uint8_t *p) {
  return (uint64_t)sass_le32(p) | (uint64_t)sass_le32(p + 4) << 32;
}

#endif
