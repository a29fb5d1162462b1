/* rfsim-trace's checks and set-up around the program it runs: that the program is a CUDA
 * program linked with the shared CUDA 11 runtime (so that rfsim's stand-in libcudart.so.11.0
 * can serve it), and the description of the device the program sees, taken from a config. */
#ifndef RFSIM_TRACER_H
#define RFSIM_TRACER_H

#include <stddef.h>

#include "../common/diag.h"
#include "../config/config.h"

/* 0 if the ELF file at path needs libcudart.so.11.0; otherwise -1 with a message saying what
 * it is instead: linked with the static runtime (rebuild with -cudart shared), another CUDA
 * runtime version, or not a CUDA program. */
int tracer_check_program(const char *path, rf_diag *d);

/* The device description the stand-in runtime reads from RFSIM_DEVICE: the config's SM count,
 * registers, shared memory, threads and CTA slots per SM, clocks. */
int tracer_device_desc(const gpu_config *c, const char *name, char *buf, size_t size);

#endif
