/* The CUDA runtime's binary interface as a program compiled by nvcc 11.8 with -cudart shared
 * expects it: error codes, copy directions, dim3 and the layouts of cudaDeviceProp and
 * cudaFuncAttributes (field for field in the order of CUDA 11.8's driver_types.h, so a program's
 * own struct reads the values at the right offsets). Written from the documented interface; no
 * CUDA header is needed to build it. */
#ifndef RFSIM_CUDART_ABI_H
#define RFSIM_CUDART_ABI_H

#include <stddef.h>

typedef int cudaError_t;
enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
};

enum { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
       cudaMemcpyDeviceToDevice, cudaMemcpyDefault };

typedef struct dim3 {
  unsigned int x, y, z;
} dim3;

typedef struct cudaDeviceProp {
  char name[256];
  unsigned char uuid[16];
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory,
      computeMode, maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear, maxTexture2D[2],
      maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3],
      maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3],
      maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3],
      maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap,
      maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver,
      asyncEngineCount, unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize,
      persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported,
      globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID,
      hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio, pageableMemoryAccess,
      concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
      cooperativeLaunch, cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost,
      maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
} cudaDeviceProp;

typedef struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,
      maxDynamicSharedSizeBytes, preferredShmemCarveout;
} cudaFuncAttributes;

/* cudaDeviceGetAttribute's codes that the device answers */
enum {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
};

/* the wrapper nvcc passes to __cudaRegisterFatBinary */
typedef struct cudart_fatbin_wrapper {
  int magic, version;
  const void *data;
  void *filename_or_fatbins;
} cudart_fatbin_wrapper;
#define CUDART_WRAPPER_MAGIC 0x466243b1
#define CUDART_FATBIN_MAGIC 0xBA55ED50u

#endif
