/* Self-checks of the memory system for tests; not part of the simulator's API. */
#ifndef RFSIM_MEMSYS_DEBUG_H
#define RFSIM_MEMSYS_DEBUG_H

#include <stdint.h>

#include "mem.h"

/* Scans every queue, MSHR table and DRAM bank and returns how many hold something. When
 * memsys_busy() is false this must be 0: the O(1) work counter and the structures agree. */
uint64_t memsys_debug_residue(const memsys *m);

/* Takes the next request an L1 would send (its miss queue first, then a bypassed access),
 * without a memory system: unit tests play the next level themselves. */
int l1d_debug_take(l1d *l, mem_access *out, uint64_t *created);

#endif
