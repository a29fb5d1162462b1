/* Device memory: allocations live in the interpreter's device address space (sass_mem.h), so a
 * device pointer is a number the host cannot dereference, as on a real GPU; copies check that
 * every device range lies in one allocation and return cudaErrorInvalidValue otherwise, with a
 * message, since a program that ignores the error would go on with wrong data. */
#include <stdlib.h>
#include <string.h>

#include "cudart_state.h"

#define API __attribute__((visibility("default")))

static cudaError_t fail(cudaError_t e, const char *call, const char *what) {
  fprintf(stderr, "rfsim-trace: %s: %s\n", call, what);
  return cudart()->last_error = e;
}

API cudaError_t cudaMalloc(void **p, size_t size) {
  cudart_state *s = cudart();
  uint64_t a;
  rf_diag d;
  if (!p) return fail(cudaErrorInvalidValue, "cudaMalloc", "NULL result pointer");
  if (sass_devmem_alloc(&s->mem, size, &a, &d) < 0)
    return fail(cudaErrorMemoryAllocation, "cudaMalloc", d.msg);
  *p = (void *)(uintptr_t)a;
  return cudaSuccess;
}

API cudaError_t cudaFree(void *p) {
  rf_diag d;
  if (!p) return cudaSuccess;
  if (sass_devmem_release(&cudart()->mem, (uint64_t)(uintptr_t)p, &d) < 0)
    return fail(cudaErrorInvalidDevicePointer, "cudaFree", d.msg);
  return cudaSuccess;
}

API cudaError_t cudaMallocHost(void **p, size_t size) {
  if (!p || !(*p = calloc(1, size ? size : 1)))
    return fail(cudaErrorMemoryAllocation, "cudaMallocHost", "out of host memory");
  return cudaSuccess;
}
API cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags) {
  (void)flags;
  return cudaMallocHost(p, size);
}
API cudaError_t cudaFreeHost(void *p) {
  free(p);
  return cudaSuccess;
}

static uint8_t *dev(cudart_state *s, const void *p, size_t n) {
  return sass_devmem_at(&s->mem, (uint64_t)(uintptr_t)p, n ? n : 1);
}

/* device pointers are found in the device's allocations; everything else is host memory */
static int is_dev(cudart_state *s, const void *p) {
  return sass_devmem_find(&s->mem, (uint64_t)(uintptr_t)p) != NULL;
}

static cudaError_t copy(void *dst, const void *src, size_t n, int kind, const char *call) {
  cudart_state *s = cudart();
  if (kind == cudaMemcpyDefault)
    kind = is_dev(s, dst) ? (is_dev(s, src) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                          : (is_dev(s, src) ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  if (!n) return cudaSuccess;
  uint8_t *d = (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice)
                   ? dev(s, dst, n) : (uint8_t *)dst;
  const uint8_t *sp = (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice)
                          ? dev(s, src, n) : (const uint8_t *)src;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDeviceToDevice)
    return fail(cudaErrorInvalidMemcpyDirection, call, "unknown copy direction");
  if (!d || !sp)
    return fail(cudaErrorInvalidValue, call, "a device range is not inside one allocation");
  memmove(d, sp, n);
  if (kind == cudaMemcpyHostToDevice) cudart_trace_memcpy(s, (uint64_t)(uintptr_t)dst, n);
  return cudaSuccess;
}

API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
  return copy(dst, src, n, kind, "cudaMemcpy");
}
API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *stream) {
  (void)stream;
  return copy(dst, src, n, kind, "cudaMemcpyAsync");
}

API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                             size_t width, size_t height, int kind) {
  for (size_t r = 0; r < height; r++) {
    cudaError_t e = copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind,
                         "cudaMemcpy2D");
    if (e) return e;
  }
  return cudaSuccess;
}

API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height) {
  if (!pitch) return fail(cudaErrorInvalidValue, "cudaMallocPitch", "NULL pitch");
  *pitch = (width + 511) & ~(size_t)511;
  return cudaMalloc(p, *pitch * height);
}

API cudaError_t cudaMemset(void *p, int value, size_t n) {
  uint8_t *d = n ? dev(cudart(), p, n) : NULL;
  if (n && !d) return fail(cudaErrorInvalidValue, "cudaMemset", "not inside one allocation");
  if (n) memset(d, value, n);
  return cudaSuccess;
}
API cudaError_t cudaMemsetAsync(void *p, int value, size_t n, void *stream) {
  (void)stream;
  return cudaMemset(p, value, n);
}

/* a __device__ or __constant__ variable's device address, from its host shadow */
static int symbol(cudart_state *s, const void *host, uint64_t *addr, uint64_t *size) {
  for (int i = 0; i < s->nvars; i++) {
    if (s->vars[i].host != host) continue;
    rf_diag d;
    if (cudart_fatbin_load(s, s->vars[i].fatbin, &d) < 0) cudart_die("%s", d.msg);
    cudart_fatbin *fb = &s->fatbins[s->vars[i].fatbin];
    for (int j = 0; j < fb->nmods; j++)
      if (sass_module_symbol(&fb->mods[j], s->vars[i].name, addr, size) == 0) return 0;
  }
  return -1;
}

API cudaError_t cudaGetSymbolAddress(void **p, const void *sym) {
  uint64_t a, n;
  if (!p || symbol(cudart(), sym, &a, &n) < 0)
    return fail(cudaErrorInvalidSymbol, "cudaGetSymbolAddress", "not a registered variable");
  *p = (void *)(uintptr_t)a;
  return cudaSuccess;
}

API cudaError_t cudaGetSymbolSize(size_t *size, const void *sym) {
  uint64_t a, n;
  if (!size || symbol(cudart(), sym, &a, &n) < 0)
    return fail(cudaErrorInvalidSymbol, "cudaGetSymbolSize", "not a registered variable");
  *size = n;
  return cudaSuccess;
}

static cudaError_t sym_copy(const void *sym, size_t n, size_t off, void *host, int to_dev,
                            const char *call) {
  uint64_t a, size;
  if (symbol(cudart(), sym, &a, &size) < 0)
    return fail(cudaErrorInvalidSymbol, call, "not a registered variable");
  if (off > size || n > size - off)
    return fail(cudaErrorInvalidValue, call, "range beyond the variable");
  void *d = (void *)(uintptr_t)(a + off);
  return to_dev ? copy(d, host, n, cudaMemcpyHostToDevice, call)
                : copy(host, d, n, cudaMemcpyDeviceToHost, call);
}

API cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off,
                                   int kind) {
  (void)kind;
  return sym_copy(sym, n, off, (void *)src, 1, "cudaMemcpyToSymbol");
}
API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off, int kind) {
  (void)kind;
  return sym_copy(sym, n, off, dst, 0, "cudaMemcpyFromSymbol");
}
API cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t off,
                                        int kind, void *stream) {
  (void)stream;
  return cudaMemcpyToSymbol(sym, src, n, off, kind);
}
API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off,
                                          int kind, void *stream) {
  (void)stream;
  return cudaMemcpyFromSymbol(dst, sym, n, off, kind);
}

API cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total) {
  cudart_state *s = cudart();
  if (free_b) *free_b = (size_t)(s->mem.limit - s->mem.bytes_live);
  if (total) *total = (size_t)s->mem.limit;
  return cudaSuccess;
}
