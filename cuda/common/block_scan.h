// block_scan.h: an exclusive prefix sum over a thread block with warp shuffles (each warp's
// inclusive scan, then one warp scans the warps' totals), as cuda/radixsort ranks its keys and
// cuda/isa's split family tests it. WARPS is the block's warp count.
#ifndef CUDA_COMMON_BLOCK_SCAN_H
#define CUDA_COMMON_BLOCK_SCAN_H

// v's exclusive sum over the block; *total gets the sum of all. warp_sums: WARPS + 1 words of
// shared memory. Every thread of the block must call it (it synchronises twice).
template <int WARPS>
__device__ unsigned block_scan(unsigned v, unsigned *warp_sums, unsigned *total) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned x = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    unsigned y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    unsigned s = lane < WARPS ? warp_sums[lane] : 0, t = s;
#pragma unroll
    for (int d = 1; d < WARPS; d <<= 1) {
      unsigned y = __shfl_up_sync(0xffffffffu, t, d);
      if (lane >= d) t += y;
    }
    if (lane < WARPS) warp_sums[lane] = t - s;
    if (lane == WARPS - 1) warp_sums[WARPS] = t;
  }
  __syncthreads();
  *total = warp_sums[WARPS];
  return warp_sums[warp] + x - v;
}

#endif
