#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/read_file.h"
#include "../sass/sass_elf.h"
#include "tracer.h"

#define SHT_DYNAMIC 6
#define DT_NEEDED 1
#define MAX_PROGRAM_BYTES (1ull << 32)

/* the first DT_NEEDED library whose name starts with prefix, or NULL */
static const char *needed(const sass_elf *e, const char *prefix) {
  for (int i = 0; i < e->nsec; i++) {
    const sass_elf_sec *s = &e->sec[i];
    if (s->type != SHT_DYNAMIC || !s->data || s->link >= (uint32_t)e->nsec) continue;
    const sass_elf_sec *str = &e->sec[s->link];
    for (uint64_t o = 0; o + 16 <= s->size; o += 16) {
      if (sass_le64(s->data + o) != DT_NEEDED) continue;
      uint64_t at = sass_le64(s->data + o + 8);
      if (!str->data || at >= str->size || !memchr(str->data + at, 0, str->size - at)) continue;
      const char *name = (const char *)str->data + at;
      if (!strncmp(name, prefix, strlen(prefix))) return name;
    }
  }
  return NULL;
}

static int has_symbol(const sass_elf *e, const char *name) {
  for (int i = 0; i < e->nsym; i++)
    if (!strcmp(e->sym[i].name, name)) return 1;
  return 0;
}

int tracer_check_program(const char *path, rf_diag *d) {
  uint8_t *buf = NULL;
  size_t len = 0;
  if (rf_read_file(path, MAX_PROGRAM_BYTES, &buf, &len, d) < 0) return -1;
  sass_elf e;
  rf_diag ed;
  if (sass_elf_open(buf, len, path, 0, &e, &ed) < 0) {
    free(buf);
    return rf_fail(d, "%s is not a CUDA program (not a 64-bit ELF executable)", path);
  }
  const char *rt = needed(&e, "libcudart.so");
  int fatbin =
      sass_elf_section(&e, ".nv_fatbin") >= 0 || sass_elf_section(&e, "__nv_module_id") >= 0;
  int rc = 0;
  if (rt && strcmp(rt, "libcudart.so.11.0"))
    rc = rf_fail(d, "%s needs %s; rfsim stands in for CUDA 11's libcudart.so.11.0: rebuild it "
                 "with CUDA 11.8's nvcc -cudart shared", path, rt);
  else if (!rt && (fatbin || has_symbol(&e, "__cudaRegisterFatBinary") ||
                   has_symbol(&e, "cudaLaunchKernel")))
    rc = rf_fail(d, "%s was linked with the static CUDA runtime (nvcc's default), which talks "
                 "to the GPU driver directly: rebuild it with nvcc -cudart shared", path);
  else if (!rt)
    rc = rf_fail(d, "%s is not a CUDA program (it does not use the CUDA runtime)", path);
  sass_elf_close(&e);
  free(buf);
  return rc;
}

int tracer_device_desc(const gpu_config *c, const char *name, char *buf, size_t size) {
  int n = snprintf(buf, size,
                   "name=%s;sms=%d;regs_per_sm=%d;regs_per_block=%d;threads_per_sm=%d;"
                   "ctas_per_sm=%d;smem_per_sm=%d;smem_per_block=%d;clock_khz=%d;"
                   "mem_clock_khz=%d",
                   name, config_num_sms(c), c->shader_registers, c->registers_per_block,
                   c->max_threads_per_sm, c->shader_cta, c->shmem_size, c->shmem_per_block,
                   (int)(c->clk_core * 1000), (int)(c->clk_dram * 1000));
  return n < 0 || (size_t)n >= size ? -1 : 0;
}
