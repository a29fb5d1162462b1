/* Reads the SASS listing that `cuobjdump -sass` (or `nvdisasm`) prints for one cubin: per
 * function, its name and each instruction's PC and text. Control words (Maxwell/Pascal: every
 * fourth 8-byte slot), encodings, dual-issue braces and `;` are dropped; the text keeps the
 * guard, mnemonic, modifiers and operands, e.g. "@!P0 LDG.E.CG R4, [R4]". */
#ifndef RFSIM_SASS_LISTING_H
#define RFSIM_SASS_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include "../common/diag.h"

typedef struct sass_line {
  uint32_t pc;
  long src_line; /* line in the listing, for messages */
  char *text;
} sass_line;

typedef struct sass_func_listing {
  char *name;
  sass_line *lines;
  int n, cap;
} sass_func_listing;

typedef struct sass_listing {
  const char *path;
  int sm;  /* from "code for sm_NN", 0 if absent */
  sass_func_listing *f;
  int n, cap;
} sass_listing;

/* Parses `text` (len bytes, need not be NUL-terminated). */
int sass_listing_parse(const char *text, size_t len, const char *path, sass_listing *l,
                       rf_diag *d);
void sass_listing_free(sass_listing *l);
const sass_func_listing *sass_listing_find(const sass_listing *l, const char *name);

#endif
