/* A whole file read into memory, for the binary inputs read at once (a CUDA program's ELF, the
 * cubins and SASS listings cuobjdump writes). */
#ifndef RFSIM_READ_FILE_H
#define RFSIM_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* Reads `path` into *out (malloc'ed, *len bytes): all of it, or its first max_bytes if it is
 * longer. 0, or -1 with d: "<path>: cannot open: <why>" or "<path>: read error". */
int rf_read_file(const char *path, size_t max_bytes, uint8_t **out, size_t *len, rf_diag *d);

#endif
