/* Registration of the program's device code and kernel launches: nvcc's generated host code
 * registers each fatbin, its kernels' host stubs and its __device__/__constant__ variables at
 * start-up; a <<<...>>> launch pushes its configuration, which the stub pops and passes to
 * cudaLaunchKernel with a pointer to each argument. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../sass/sass_run.h"
#include "cudart_state.h"

#define API __attribute__((visibility("default")))

static cudaError_t fail(cudaError_t e) { return cudart()->last_error = e; }

API void **__cudaRegisterFatBinary(void *wrapper) {
  cudart_state *s = cudart();
  const cudart_fatbin_wrapper *w = wrapper;
  if (!w || w->magic != CUDART_WRAPPER_MAGIC)
    cudart_die("__cudaRegisterFatBinary: not an nvcc fatbin wrapper");
  cudart_fatbin *fb = realloc(s->fatbins, (size_t)(s->nfatbins + 1) * sizeof *fb);
  if (!fb) cudart_die("out of memory");
  s->fatbins = fb;
  fb[s->nfatbins] = (cudart_fatbin){.data = w->data};
  /* the handle is the fatbin's index + 1, never dereferenced by the program */
  return (void **)(uintptr_t)(++s->nfatbins);
}

API void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }
API void __cudaUnregisterFatBinary(void **handle) { (void)handle; }

API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                const char *deviceName, int thread_limit, void *tid, void *bid,
                                void *bDim, void *gDim, int *wSize) {
  (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
  cudart_state *s = cudart();
  cudart_func *f = realloc(s->funcs, (size_t)(s->nfuncs + 1) * sizeof *f);
  if (!f) cudart_die("out of memory");
  s->funcs = f;
  f[s->nfuncs++] = (cudart_func){.host = hostFun, .fatbin = (int)(uintptr_t)handle - 1,
                                 .name = strdup(deviceName)};
}

API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                           const char *deviceName, int ext, size_t size, int constant,
                           int global) {
  (void)deviceAddress, (void)ext, (void)size, (void)constant, (void)global;
  cudart_state *s = cudart();
  cudart_var *v = realloc(s->vars, (size_t)(s->nvars + 1) * sizeof *v);
  if (!v) cudart_die("out of memory");
  s->vars = v;
  v[s->nvars++] = (cudart_var){.host = hostVar, .fatbin = (int)(uintptr_t)handle - 1,
                               .name = strdup(deviceName)};
}

API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                  const char *deviceName, int ext, size_t size, int constant,
                                  int global) {
  (void)handle, (void)hostVarPtrAddress, (void)deviceAddress, (void)ext, (void)size;
  (void)constant, (void)global;
  cudart_die("__managed__ variable %s: managed memory is not supported", deviceName);
}

API void __cudaRegisterTexture(void **handle, const void *hostVar, const void **deviceAddress,
                               const char *deviceName, int dim, int norm, int ext) {
  (void)handle, (void)hostVar, (void)deviceAddress, (void)dim, (void)norm, (void)ext;
  cudart_die("texture reference %s: textures are not supported", deviceName);
}

API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream) {
  (void)stream;
  cudart_state *s = cudart();
  s->cfg_grid = grid;
  s->cfg_block = block;
  s->cfg_shmem = shmem;
  s->cfg_depth++;
  return 0;
}

API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem,
                                           void *stream) {
  cudart_state *s = cudart();
  if (!s->cfg_depth) return fail(cudaErrorMissingConfiguration);
  s->cfg_depth--;
  *grid = s->cfg_grid;
  *block = s->cfg_block;
  *shmem = s->cfg_shmem;
  if (stream) *(void **)stream = NULL;
  return cudaSuccess;
}

/* the module and kernel index of a host stub, loading its fatbin on first use */
int cudart_find_kernel(cudart_state *s, const void *func, sass_module **mod, int *k) {
  for (int i = 0; i < s->nfuncs; i++) {
    if (s->funcs[i].host != func) continue;
    rf_diag d;
    if (cudart_fatbin_load(s, s->funcs[i].fatbin, &d) < 0) cudart_die("%s", d.msg);
    cudart_fatbin *fb = &s->fatbins[s->funcs[i].fatbin];
    for (int j = 0; j < fb->nmods; j++)
      if ((*k = sass_module_kernel(&fb->mods[j], s->funcs[i].name)) >= 0) {
        *mod = &fb->mods[j];
        return 0;
      }
    cudart_die("kernel %s has no Maxwell/Pascal code in the program", s->funcs[i].name);
  }
  return -1;
}

/* CPU time of the process: the interpreter runs on one core, and its rate should not depend on
 * what else the machine runs */
static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

API cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                                 size_t shmem, void *stream) {
  (void)stream;
  cudart_state *s = cudart();
  sass_module *m;
  int k;
  if (cudart_find_kernel(s, func, &m, &k) < 0) return fail(cudaErrorInvalidDeviceFunction);
  const sass_kinfo *ki = m->k[k].info;
  uint8_t params[4096] = {0};
  if (ki->param_bytes > sizeof params)
    cudart_die("kernel %s: %u bytes of parameters", ki->name, ki->param_bytes);
  for (int i = 0; i < ki->nparams; i++) {
    const sass_kparam *p = &ki->params[i];
    if (p->offset + p->size > ki->param_bytes || (!args && p->size))
      cudart_die("kernel %s: parameter %d outside the parameter area", ki->name, i);
    if (p->size) memcpy(params + p->offset, args[i], p->size);
  }
  int launch = ++s->launches;
  int traced = cudart_trace_wanted(s, launch, ki->name);
  sass_launch L = {.grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z},
                   .dyn_shared = (uint32_t)shmem, .params = params,
                   .params_bytes = ki->param_bytes, .budget = s->budget, .trace_id = launch,
                   .trace_nregs = cudart_trace_regs(s, ki->name, ki->nregs, traced)};
  char path[4096];
  if (traced) {
    L.trace = cudart_trace_open_kernel(s, launch, path, sizeof path);
    L.trace_path = path;
  }
  rf_diag d;
  sass_run_stats st;
  double t0 = now_s();
  if (sass_run(m, k, &L, &s->mem, &st, &d) < 0) cudart_die("%s", d.msg);
  if (traced) {
    s->traced_insts += st.warp_insts;
    s->trace_seconds += now_s() - t0;
    cudart_trace_close_kernel(s, L.trace, path, launch);
  }
  return cudaSuccess;
}

API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *func) {
  cudart_state *s = cudart();
  sass_module *m;
  int k;
  if (!a || cudart_find_kernel(s, func, &m, &k) < 0) return fail(cudaErrorInvalidDeviceFunction);
  const sass_kinfo *ki = m->k[k].info;
  *a = (cudaFuncAttributes){
      .sharedSizeBytes = ki->shared_bytes,
      .localSizeBytes = ki->frame_bytes,
      .maxThreadsPerBlock = 1024,
      .numRegs = ki->nregs,
      .ptxVersion = m->sm,
      .binaryVersion = m->sm,
      .maxDynamicSharedSizeBytes = s->dev.smem_per_block - (int)ki->shared_bytes};
  return cudaSuccess;
}

API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value) {
  (void)func, (void)attr, (void)value;
  return cudaSuccess;
}
API cudaError_t cudaFuncSetCacheConfig(const void *func, int config) {
  (void)func, (void)config;
  return cudaSuccess;
}

/* resident blocks per SM by the usual limits: threads, registers (per warp, rounded to 256),
 * shared memory and block slots */
API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int bs,
                                                              size_t dyn) {
  cudart_state *s = cudart();
  sass_module *m;
  int k;
  if (!n || bs <= 0 || cudart_find_kernel(s, func, &m, &k) < 0) return fail(cudaErrorInvalidValue);
  const sass_kinfo *ki = m->k[k].info;
  int warps = (bs + 31) / 32, regs = ((ki->nregs * 32 + 255) / 256) * 256 * warps;
  long smem = (long)ki->shared_bytes + (long)dyn;
  int r = s->dev.ctas_per_sm;
  if (s->dev.threads_per_sm / (warps * 32) < r) r = s->dev.threads_per_sm / (warps * 32);
  if (regs && s->dev.regs_per_sm / regs < r) r = s->dev.regs_per_sm / regs;
  if (smem && s->dev.smem_per_sm / smem < r) r = (int)(s->dev.smem_per_sm / smem);
  *n = r;
  return cudaSuccess;
}
