// isa: kernels that exercise the instructions nvcc emits for integer, 64-bit, float and double
// arithmetic, control flow (divergence, loops, calls, early exit), warp and block operations
// (shuffles, votes, barriers with reductions, atomics) and every memory space, on edge-case and
// seeded random inputs, checked on the host against isa_ref.h. rfsim's tests run the same kernels from the committed cubin and listing
// (tests/fixtures/sass/) without the toolkit. Exits 1 if any result differs.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "isa_ref.h"

__device__ __forceinline__ uint32_t bfe(uint32_t a, uint32_t pos, uint32_t len, bool sgn) {
  uint32_t r;
  if (sgn) asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
  else asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
  return r;
}

__global__ void isa_int(const uint32_t *in, uint32_t *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *i = in + t * ISA_IN;
  uint32_t *o = out + t * ISA_OUT;
  uint32_t a = i[0], b = i[1], c = i[2], s = i[3] & 63;
  int32_t sa = (int32_t)a, sb = (int32_t)b;
  uint32_t bnz = b | 1;
  int32_t sbnz = (int32_t)bnz == -1 ? 3 : (int32_t)bnz;
  o[0] = a + b * c;
  o[1] = a - b;
  o[2] = (uint32_t)__mulhi(sa, sb);
  o[3] = __umulhi(a, b);
  o[4] = a / bnz;
  o[5] = a % bnz;
  o[6] = sa == INT32_MIN && sbnz == -1 ? 0 : (uint32_t)(sa / sbnz);
  o[7] = sa == INT32_MIN && sbnz == -1 ? 0 : (uint32_t)(sa % sbnz);
  o[8] = (uint32_t)(sa / 7 + sa % 5 + (int32_t)(a / 13u));
  o[9] = __popc(a) + __clz(b) + __ffs(a) + __brev(c);
  o[10] = (uint32_t)(min(sa, sb) + max(a, b));
  o[11] = (uint32_t)(sa == INT32_MIN ? sa : abs(sa));
  o[12] = __byte_perm(a, b, c & 0x7777);
  o[13] = __funnelshift_l(a, b, c) ^ __funnelshift_rc(a, b, c);
  o[14] = __funnelshift_lc(b, a, s) + __funnelshift_r(c, b, s);
  o[15] = bfe(a, c & 0x3f, (c >> 8) & 0x3f, false) ^ bfe(b, c & 0x3f, (c >> 8) & 0x3f, true);
  uint32_t r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 0x3f), "r"((c >> 8) & 0x3f));
  o[16] = r;
  o[17] = (a >> (s & 31)) + (uint32_t)(sa >> (s & 31)) + (b << (s & 31));
  o[18] = __sad(sa, sb, c);
  o[19] = (uint32_t)__hadd(sa, sb) + (uint32_t)__rhadd(sa, sb);
  o[20] = (a & b) | (~c & (a ^ b));
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(a));
  o[21] = r;
  o[22] = (uint32_t)__mul24(sa, sb);
  o[23] = (a < b) + 2 * (sa < sb) + 4 * (a == c) + 8 * (sa >= sb) + 16 * (a != b);
}

__global__ void isa_wide(const uint32_t *in, uint32_t *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *i = in + t * ISA_IN;
  uint32_t *o = out + t * ISA_OUT;
  uint64_t x = (uint64_t)i[1] << 32 | i[0], y = (uint64_t)i[3] << 32 | i[2];
  int64_t sx = (int64_t)x, sy = (int64_t)y;
  uint32_t s = i[2] & 63;
  uint64_t ynz = y | 1;
  int64_t synz = (int64_t)ynz == -1 ? 5 : (int64_t)ynz;
  uint64_t r[12];
  r[0] = x + y;
  r[1] = x - y;
  r[2] = x * y;
  r[3] = x / ynz;
  r[4] = (uint64_t)(sx == INT64_MIN && synz == -1 ? 0 : sx % synz);
  r[5] = x << s;
  r[6] = x >> s;
  r[7] = (uint64_t)(sx >> s);
  r[8] = (uint64_t)((x < y) | (sx < sy) << 1 | (x == y) << 2 | (sx >= sy) << 3 | (x > y) << 4);
  r[9] = (uint64_t)(sx < sy ? sx : sy) ^ (x > y ? x : y);
  r[10] = __umul64hi(x, y);
  r[11] = (uint64_t)__mul64hi(sx, sy);
  for (int k = 0; k < 12; k++) {
    o[2 * k] = (uint32_t)r[k];
    o[2 * k + 1] = (uint32_t)(r[k] >> 32);
  }
}

__device__ uint32_t fbits(float f) { return isnan(f) ? 0x7fffffffu : __float_as_uint(f); }

__global__ void isa_float(const uint32_t *in, uint32_t *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *i = in + t * ISA_IN;
  uint32_t *o = out + t * ISA_OUT;
  float a = __uint_as_float(i[0]), b = __uint_as_float(i[1]), c = __uint_as_float(i[2]);
  o[0] = fbits(a + b);
  o[1] = fbits(a * b);
  o[2] = fbits(fmaf(a, b, c));
  o[3] = fbits(a / b);
  o[4] = fbits(sqrtf(a));
  o[5] = fbits(fminf(a, b));
  o[6] = fbits(fmaxf(a, c));
  o[7] = fbits(fabsf(a) - b);
  o[8] = fbits(floorf(a));
  o[9] = fbits(ceilf(b));
  o[10] = fbits(truncf(c));
  o[11] = fbits(rintf(a));
  o[12] = (uint32_t)__float2int_rz(a);
  o[13] = (uint32_t)__float2int_rn(b);
  o[14] = __float2uint_rz(c);
  o[15] = __float_as_uint(__int2float_rn((int)i[3]));
  o[16] = __float_as_uint(__uint2float_rn(i[3]));
  o[17] = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (isnan(a) != 0) << 4 |
          (!(a >= b)) << 5 | (isinf(b) != 0) << 6;
  o[18] = fbits(__saturatef(a));
  o[19] = fbits(copysignf(b, a));
  o[20] = fbits(exp2f(a));
  o[21] = fbits(log2f(fabsf(b)));
  o[22] = fbits(rsqrtf(fabsf(c)));
  o[23] = fbits(sinf(a) + cosf(b));
}

__global__ void isa_double(const uint32_t *in, uint32_t *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *i = in + t * ISA_IN;
  uint32_t *o = out + t * ISA_OUT;
  double x = (double)(int32_t)i[0] * 0.75 + (double)i[1] / 3.0;
  double y = (double)(int32_t)i[2] / 7.0, z = (double)i[3];
  double r[10];
  r[0] = x + y;
  r[1] = x * y;
  r[2] = fma(x, y, z);
  r[3] = y / (z + 1.0);
  r[4] = sqrt(fabs(y));
  r[5] = fmin(x, y) + fmax(y, z);
  r[6] = (double)(float)y;
  r[7] = floor(y) + ceil(z / 3.0);
  r[8] = (double)(long long)(y * 1e6);
  r[9] = (double)((x < y) + 2 * (y <= z) + 4 * (x == x));
  for (int k = 0; k < 10; k++) {
    uint64_t u = isnan(r[k]) ? 0xfff8000000000000ull : (uint64_t)__double_as_longlong(r[k]);
    o[2 * k] = (uint32_t)u;
    o[2 * k + 1] = (uint32_t)(u >> 32);
  }
  o[20] = fbits((float)y);
  o[21] = (uint32_t)(int32_t)y;
  o[22] = (uint32_t)(z <= 0 ? 0u : z >= 4294967295.0 ? 0xffffffffu : (uint32_t)z);
  o[23] = 0;
}


__device__ __noinline__ uint32_t gcd(uint32_t a, uint32_t b) { return b ? gcd(b, a % b) : a; }

__global__ void isa_ctrl(const uint32_t *in, uint32_t *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *i = in + t * ISA_IN;
  uint32_t *o = out + t * ISA_OUT;
  uint32_t a = i[0], b = i[1], c = i[2], d = i[3];
  uint32_t acc = 0;
  for (uint32_t k = 0; k < (a & 63); k++) {
    if ((b >> (k & 31)) & 1) {
      acc += k;
      if (acc > 500) break;
      continue;
    }
    acc ^= c + k;
  }
  o[0] = acc;
  if (a & 1) o[1] = (b & 2) ? a * 3 : b - a;
  else if (c & 4) o[1] = c ^ a;
  else o[1] = 17;
  uint32_t n = a | 1, steps = 0;
  while (n != 1 && steps < 200) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    steps++;
  }
  o[2] = steps;
  o[3] = gcd(a & 0xffff, b & 0xffff);
  uint32_t r;
  switch (a % 9) {
  case 0: r = a * 3; break;
  case 1: r = a ^ 7; break;
  case 2: r = a + 11; break;
  case 3: r = a >> 2; break;
  case 4: r = a * a; break;
  case 5: r = ~a; break;
  case 6: r = a - 99; break;
  case 7: r = a | 0x100; break;
  default: r = 5; break;
  }
  o[4] = r;
  uint32_t s = 0;
  for (uint32_t x = 0; x < (d & 7) + 1; x++)
    for (uint32_t j = 0; j < 8; j++) {
      if (((c >> j) ^ x) & 1) break;
      s += x * 8 + j;
    }
  o[5] = s;
  if ((a & 7) == 0) return;
  for (int k = 6; k < ISA_OUT; k++) o[k] = a * (uint32_t)k + (b ^ (uint32_t)k);
}

__global__ void isa_block(const uint32_t *in, uint32_t *out) {
  __shared__ uint32_t s[ISA_BLOCK], red[ISA_BLOCK];
  __shared__ uint32_t smax, smin, sor, sxor;
  int tid = threadIdx.x, t = blockIdx.x * blockDim.x + tid;
  const uint32_t *i = in + t * ISA_IN;
  uint32_t *o = out + t * ISA_OUT;
  uint32_t *first = out + blockIdx.x * blockDim.x * ISA_OUT;
  uint32_t a = i[0], b = i[1], c = i[2], d = i[3];
  const unsigned full = 0xffffffffu;
  o[0] = __shfl_sync(full, a, b & 31);
  o[1] = __shfl_up_sync(full, a, 3);
  o[2] = __shfl_down_sync(full, a, 5, 16);
  o[3] = __shfl_xor_sync(full, a, 6);
  o[4] = __ballot_sync(full, a & 1);
  o[5] = __any_sync(full, b % 7 == 0) | __all_sync(full, c != 12345) << 1;
  if (a & 2) o[6] = __ballot_sync(__activemask(), b & 1);
  else o[6] = ~__activemask();
  if (tid == 0) {
    smax = 0;
    smin = 0xffffffffu;
    sor = 0;
    sxor = 0;
  }
  o[7] = __syncthreads_count(a & 1);
  o[8] = __syncthreads_or(b == 7);
  o[9] = __syncthreads_and(c != 0);
  red[tid] = a;
  s[tid] = b;
  __syncthreads();
  for (int st = ISA_BLOCK / 2; st > 0; st >>= 1) {
    if (tid < st) red[tid] += red[tid + st];
    __syncthreads();
  }
  o[10] = red[0];
  o[11] = s[(tid + 37) % ISA_BLOCK];
  atomicMax(&smax, b);
  atomicMin(&smin, c);
  atomicOr(&sor, d & 0xff00);
  atomicXor(&sxor, d);
  atomicAdd(first + 20, a & 255);
  atomicMax(first + 21, b);
  atomicAdd((unsigned long long *)(first + 22), (unsigned long long)c << 20);
  __syncthreads();
  o[12] = smax;
  o[13] = smin;
  o[14] = sor ^ sxor;
  o[15] = c;
  for (int k = 16; k < ISA_OUT; k++)
    if (tid != 0 || k < 20) o[k] = a + (uint32_t)k;
}

__constant__ uint32_t ctab[ISA_CTAB];
__device__ uint32_t gtab[16] = {3, 10, 31, 66, 115, 178, 255, 346, 451, 570, 703, 850, 1011, 1186, 1375, 1578};

__device__ __noinline__ uint32_t load_generic(const uint32_t *p, int k) { return p[k]; }

__global__ void isa_mem(const uint32_t *in, uint32_t *out) {
  extern __shared__ uint32_t dyn[];
  __shared__ uint32_t sh[ISA_BLOCK];
  int tid = threadIdx.x, t = blockIdx.x * blockDim.x + tid;
  const uint32_t *i = in + t * ISA_IN;
  uint32_t *o = out + t * ISA_OUT;
  uint32_t a = i[0], b = i[1], c = i[2], d = i[3];
  uint32_t loc[16];
  for (int k = 0; k < 16; k++) loc[k] = a * (uint32_t)k + b;
  o[0] = loc[a & 15] + loc[b & 15];
  o[1] = (t & 1) ? load_generic(loc, c & 15) : load_generic(in + (t ^ 1) * ISA_IN, 3);
  o[2] = ctab[a & (ISA_CTAB - 1)] + ctab[b % ISA_CTAB];
  o[3] = gtab[c & 15];
  const signed char *bytes = (const signed char *)in;
  const short *halves = (const short *)in;
  const unsigned char *ubytes = (const unsigned char *)in;
  o[4] = (uint32_t)(int32_t)bytes[t * ISA_IN * 4 + 1];
  o[5] = (uint32_t)(int32_t)halves[t * ISA_IN * 2 + 5] + ubytes[t * ISA_IN * 4 + 6];
  uint2 v2 = ((const uint2 *)in)[t * 2];
  uint2 w2 = ((const uint2 *)in)[t * 2 + 1];
  o[6] = v2.x ^ w2.x;
  o[7] = v2.y ^ w2.y;
  uint4 v4 = ((const uint4 *)in)[t];
  o[8] = v4.x + v4.y + v4.z + v4.w;
  unsigned char *ob = (unsigned char *)(o + 9);
  ob[0] = (unsigned char)(a + 1);
  ob[1] = 0;
  ((unsigned short *)ob)[1] = (unsigned short)(b + 2);
  dyn[tid] = c;
  sh[tid] = a;
  __syncthreads();
  o[10] = dyn[(tid + 1) % ISA_BLOCK] + 1;
  o[11] = loc[(a + b) & 15] ^ load_generic(sh, tid ^ 2);
  for (int k = 12; k < ISA_OUT; k++) o[k] = (uint32_t)k * d;
}

static void report(int family, int t, int k, uint32_t want, uint32_t got) {
  std::fprintf(stderr, "isa %s: thread %d word %d: expected 0x%08x, got 0x%08x\n",
               isa_family_names[family], t, k, want, got);
}

int main() {
  typedef void (*kernel_t)(const uint32_t *, uint32_t *);
  const kernel_t kernels[ISA_FAMILIES] = {isa_int,  isa_wide,  isa_float, isa_double,
                                          isa_ctrl, isa_block, isa_mem};
  uint32_t ct[ISA_CTAB];
  for (int k = 0; k < ISA_CTAB; k++) ct[k] = isa_ctab(k);
  if (cudaMemcpyToSymbol(ctab, ct, sizeof ct) != cudaSuccess) {
    std::fprintf(stderr, "isa: cudaMemcpyToSymbol failed\n");
    return 1;
  }
  std::vector<uint32_t> in(ISA_THREADS * ISA_IN), out(ISA_THREADS * ISA_OUT);
  uint32_t *din, *dout;
  if (cudaMalloc(&din, in.size() * 4) || cudaMalloc(&dout, out.size() * 4)) {
    std::fprintf(stderr, "isa: cudaMalloc failed\n");
    return 1;
  }
  int bad = 0;
  for (int f = 0; f < ISA_FAMILIES; f++) {
    isa_inputs(f, in.data(), ISA_THREADS);
    cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0xee, out.size() * 4);
    kernels[f]<<<ISA_THREADS / ISA_BLOCK, ISA_BLOCK, ISA_BLOCK * 4>>>(din, dout);
    if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) {
      std::fprintf(stderr, "isa %s: launch failed\n", isa_family_names[f]);
      return 1;
    }
    cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
    int b = isa_check(f, in.data(), out.data(), ISA_THREADS, report);
    std::printf("isa %-6s: %d threads x %d words, %d differ\n", isa_family_names[f], ISA_THREADS,
                ISA_OUT, b);
    bad += b;
  }
  return bad ? 1 : 0;
}
