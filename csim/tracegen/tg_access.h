/* One `load =` / `store =` line of a spec: where it goes, how lanes spread, when it runs. */
#ifndef RFSIM_TG_ACCESS_H
#define RFSIM_TG_ACCESS_H

#include "../common/diag.h"
#include "tg_spec.h"

/* Parses "SPACE PATTERN [key=value ...]" (v is modified). */
int tg_access_parse(const char *path, long line, int is_store, char *v, tg_access *a,
                    rf_diag *d);
/* Checks an access against its kernel (shared memory size, iterations). */
int tg_access_check(const char *path, const tg_kernel_spec *k, const tg_access *a, rf_diag *d);

/* Bytes of shared memory the access may touch, counted from a->offset (0 if not shared). */
uint64_t tg_access_shared_span(const tg_kernel_spec *k, const tg_access *a);

const char *tg_space_name(tg_space s);
const char *tg_pattern_name(tg_pattern p);

#endif
