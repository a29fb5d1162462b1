/* Fuzz targets of the SASS interpreter's inputs (rfsim-trace): a `cuobjdump -sass` listing,
 * loaded with the isa fixture's cubin, and a cubin, loaded with its listing. Either is accepted
 * (and unloaded) or refused with a message naming it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../csim/sass/sass_module.h"
#include "fuzz_targets.h"

#define FIXTURE "tests/fixtures/sass/isa"

static uint8_t *read_fixture(const char *path, size_t *len, rf_diag *d) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    rf_fail(d, "%s: cannot open (run from the repository root)", path);
    return NULL;
  }
  size_t cap = 1 << 20, n = 0;
  uint8_t *b = malloc(cap);
  while (b && (n += fread(b + n, 1, cap - n, f)) == cap) {
    uint8_t *nb = realloc(b, cap *= 2);
    if (!nb) free(b);
    b = nb;
  }
  fclose(f);
  if (!b) rf_fail(d, "out of memory");
  *len = n;
  return b;
}

static int load(const uint8_t *cubin, size_t clen, const char *listing, size_t llen, rf_diag *d) {
  sass_devmem mem;
  sass_devmem_init(&mem, 1ull << 28);
  sass_module m;
  int rc = sass_module_load(&m, cubin, clen, "kernel.cubin", listing, llen, "kernel.sass", &mem, d);
  if (rc == 0) sass_module_unload(&m);
  sass_devmem_free_all(&mem);
  return rc < 0 ? 1 : 0;
}

int fuzz_sass_listing(const uint8_t *data, size_t size, rf_diag *d) {
  size_t clen;
  uint8_t *cubin = read_fixture(FIXTURE ".cubin", &clen, d);
  if (!cubin) return -1;
  int rc = load(cubin, clen, (const char *)data, size, d);
  free(cubin);
  return rc;
}

int fuzz_cubin(const uint8_t *data, size_t size, rf_diag *d) {
  size_t llen;
  uint8_t *listing = read_fixture(FIXTURE ".sass", &llen, d);
  if (!listing) return -1;
  int rc = load(data, size, (const char *)listing, llen, d);
  free(listing);
  return rc;
}
