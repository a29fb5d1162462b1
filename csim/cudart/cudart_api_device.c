/* The device, errors, streams and events. There is one device; work runs to completion when it
 * is issued, so every synchronisation returns at once and streams are only names. Events record
 * host time, so cudaEventElapsedTime gives the interpreter's time, not a GPU's. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cudart_state.h"

#define API __attribute__((visibility("default")))

API cudaError_t cudaGetLastError(void) {
  cudart_state *s = cudart();
  cudaError_t e = s->last_error;
  s->last_error = cudaSuccess;
  return e;
}
API cudaError_t cudaPeekAtLastError(void) { return cudart()->last_error; }

static const struct {
  cudaError_t code;
  const char *name, *text;
} errors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration",
     "__global__ function call is not configured"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
};

API const char *cudaGetErrorString(cudaError_t e) {
  for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
    if (errors[i].code == e) return errors[i].text;
  return "unrecognized error code";
}
API const char *cudaGetErrorName(cudaError_t e) {
  for (size_t i = 0; i < sizeof errors / sizeof *errors; i++)
    if (errors[i].code == e) return errors[i].name;
  return "cudaErrorUnknown";
}

API cudaError_t cudaGetDeviceCount(int *n) {
  if (n) *n = 1;
  return cudaSuccess;
}
API cudaError_t cudaGetDevice(int *d) {
  if (d) *d = 0;
  return cudaSuccess;
}
API cudaError_t cudaSetDevice(int d) {
  return d == 0 ? cudaSuccess : (cudart()->last_error = cudaErrorInvalidDevice);
}
API cudaError_t cudaSetDeviceFlags(unsigned f) {
  (void)f;
  return cudaSuccess;
}
API cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
API cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
API cudaError_t cudaThreadSynchronize(void) { return cudaSuccess; }
API cudaError_t cudaDeviceSetCacheConfig(int c) {
  (void)c;
  return cudaSuccess;
}
API cudaError_t cudaDeviceSetSharedMemConfig(int c) {
  (void)c;
  return cudaSuccess;
}
API cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
  (void)limit, (void)value;
  return cudaSuccess;
}
API cudaError_t cudaDriverGetVersion(int *v) {
  if (v) *v = 11080;
  return cudaSuccess;
}
API cudaError_t cudaRuntimeGetVersion(int *v) {
  if (v) *v = 11080;
  return cudaSuccess;
}

API cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device) {
  if (!p || device != 0) return cudart()->last_error = cudaErrorInvalidDevice;
  const cudart_device *v = &cudart()->dev;
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", v->name);
  p->totalGlobalMem = v->global_bytes;
  p->sharedMemPerBlock = (size_t)v->smem_per_block;
  p->regsPerBlock = v->regs_per_block;
  p->warpSize = 32;
  p->memPitch = 1ull << 31;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7fffffff;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->clockRate = v->clock_khz;
  p->totalConstMem = 65536;
  int sm = cudart()->run_sm ? cudart()->run_sm : cudart()->want_sm ? cudart()->want_sm : 61;
  p->major = sm / 10; /* the code the interpreter runs */
  p->minor = sm % 10;
  p->textureAlignment = 512;
  p->multiProcessorCount = v->sms;
  p->unifiedAddressing = 1;
  p->memoryClockRate = v->mem_clock_khz;
  p->memoryBusWidth = v->bus_bits;
  p->l2CacheSize = v->l2_bytes;
  p->maxThreadsPerMultiProcessor = v->threads_per_sm;
  p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  p->sharedMemPerMultiprocessor = (size_t)v->smem_per_sm;
  p->regsPerMultiprocessor = v->regs_per_sm;
  p->sharedMemPerBlockOptin = (size_t)v->smem_per_block;
  p->maxBlocksPerMultiProcessor = v->ctas_per_sm;
  return cudaSuccess;
}

API cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device) {
  cudaDeviceProp p;
  if (!value || cudaGetDeviceProperties(&p, device)) return cudaErrorInvalidValue;
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
  case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: case cudaDevAttrMaxBlockDimZ:
    *value = p.maxThreadsDim[attr - cudaDevAttrMaxBlockDimX]; break;
  case cudaDevAttrMaxGridDimX: case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ:
    *value = p.maxGridSize[attr - cudaDevAttrMaxGridDimX]; break;
  case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
  case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
  case cudaDevAttrWarpSize: *value = 32; break;
  case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
  case cudaDevAttrClockRate: *value = p.clockRate; break;
  case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
  case cudaDevAttrMemoryClockRate: *value = p.memoryClockRate; break;
  case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
  case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
  case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
  case cudaDevAttrUnifiedAddressing: *value = 1; break;
  case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
  case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *value = (int)p.sharedMemPerMultiprocessor;
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
  case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
  default: *value = 0; break;
  }
  return cudaSuccess;
}

/* streams: any non-NULL handle, all work already done */
API cudaError_t cudaStreamCreate(void **s) {
  static int token;
  if (s) *s = &token;
  return cudaSuccess;
}
API cudaError_t cudaStreamCreateWithFlags(void **s, unsigned f) {
  (void)f;
  return cudaStreamCreate(s);
}
API cudaError_t cudaStreamDestroy(void *s) {
  (void)s;
  return cudaSuccess;
}
API cudaError_t cudaStreamSynchronize(void *s) {
  (void)s;
  return cudaSuccess;
}
API cudaError_t cudaStreamQuery(void *s) {
  (void)s;
  return cudaSuccess;
}

typedef struct cudart_event {
  double t;
} cudart_event;

API cudaError_t cudaEventCreate(void **e) {
  if (!e || !(*e = calloc(1, sizeof(cudart_event)))) return cudaErrorMemoryAllocation;
  return cudaSuccess;
}
API cudaError_t cudaEventCreateWithFlags(void **e, unsigned f) {
  (void)f;
  return cudaEventCreate(e);
}
API cudaError_t cudaEventDestroy(void *e) {
  free(e);
  return cudaSuccess;
}
API cudaError_t cudaEventRecord(void *e, void *stream) {
  (void)stream;
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  if (!e) return cudaErrorInvalidResourceHandle;
  ((cudart_event *)e)->t = (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
  return cudaSuccess;
}
API cudaError_t cudaEventSynchronize(void *e) {
  (void)e;
  return cudaSuccess;
}
API cudaError_t cudaEventQuery(void *e) {
  (void)e;
  return cudaSuccess;
}
API cudaError_t cudaEventElapsedTime(float *ms, void *start, void *end) {
  if (!ms || !start || !end) return cudaErrorInvalidResourceHandle;
  *ms = (float)(((cudart_event *)end)->t - ((cudart_event *)start)->t);
  return cudaSuccess;
}
