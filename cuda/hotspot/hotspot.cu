// hotspot: transient thermal simulation of a chip (Rodinia's HotSpot algorithm): every step,
// each cell's temperature moves by its power plus the heat exchanged with its four neighbours
// and the ambient, through the chip's lateral and vertical thermal resistances:
//   T' = T + dt/C * (P + (T_n + T_s - 2T)/Ry + (T_e + T_w - 2T)/Rx + (T_amb - T)/Rz)
// with the missing neighbours of edge cells replaced by the cell itself. calculate_temp runs
// several steps per launch on a 16 x 16 tile in shared memory ("pyramid"): the block loads the
// tile of temperatures and powers including a halo as wide as the steps, computes one step
// into a third tile, synchronises, copies it back, synchronises, each step one cell narrower,
// and writes the inner cells. Three 16 x 16 float tiles: 3 KB of shared memory.
//
// Rows: register sharing Set-1 (register_sharing Table 2 / resource_sharing Table II: Rodinia
// hotspot calculate_temp, 256 threads, 36 registers: 3 TBs/SM on the Tesla C2050, 6 with 90%
// sharing), WarpMan's HS (8 warps, 3 KB, 8960 registers per TB = 35 per thread, 3 TBs/SM on
// the GTX 480) and FineReg's HS (Type-R). nvcc 11.8 needs 16 registers; the trace allocates
// the paper's 36 (trace.flags: rfsim-trace -regs), which is what makes the kernel register-bound.
// Input (seeded powers and temperatures): a 384 x 384 grid, 2 steps per launch, 2 launches
// (32 x 32 = 1024 TBs per launch). Usage: hotspot [grid [launches]].
#include "../common/bench.h"

#define BS 16
#define STEPS 2 // steps per launch (the pyramid height)

struct Chip {
  float cap_inv_dt, rx_inv, ry_inv, rz_inv, amb;
};

__global__ void calculate_temp(const float *__restrict__ power, const float *__restrict__ src,
                               float *__restrict__ dst, int n, Chip c) {
  __shared__ float t_on[BS][BS], p_on[BS][BS], t_next[BS][BS];
  const int small = BS - 2 * STEPS; // cells a block writes per side
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * small - STEPS, y0 = blockIdx.y * small - STEPS;
  int gx = x0 + tx, gy = y0 + ty;
  bool in = gx >= 0 && gx < n && gy >= 0 && gy < n;
  if (in) {
    t_on[ty][tx] = src[gy * n + gx];
    p_on[ty][tx] = power[gy * n + gx];
  }
  __syncthreads();
  // neighbours in tile coordinates, edge cells of the grid reading themselves
  int w = gx > 0 ? tx - 1 : tx, e = gx < n - 1 ? tx + 1 : tx;
  int nn = gy > 0 ? ty - 1 : ty, s = gy < n - 1 ? ty + 1 : ty;
  bool computed = false;
  for (int k = 1; k <= STEPS; k++) {
    computed = in && tx >= k && tx < BS - k && ty >= k && ty < BS - k;
    if (computed) {
      float t = t_on[ty][tx];
      t_next[ty][tx] = t + c.cap_inv_dt * (p_on[ty][tx] + (t_on[nn][tx] + t_on[s][tx] - 2.0f * t) * c.ry_inv +
                                          (t_on[ty][e] + t_on[ty][w] - 2.0f * t) * c.rx_inv +
                                          (c.amb - t) * c.rz_inv);
    }
    __syncthreads();
    if (k == STEPS) break;
    if (computed) t_on[ty][tx] = t_next[ty][tx];
    __syncthreads();
  }
  if (computed) dst[gy * n + gx] = t_next[ty][tx];
}

static void host_step(const float *p, const float *t, float *o, int n, const Chip &c) {
  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      int i = y * n + x;
      float v = t[i];
      float tn = t[(y > 0 ? y - 1 : y) * n + x], ts = t[(y < n - 1 ? y + 1 : y) * n + x];
      float tw = t[y * n + (x > 0 ? x - 1 : x)], te = t[y * n + (x < n - 1 ? x + 1 : x)];
      o[i] = v + c.cap_inv_dt * (p[i] + (tn + ts - 2.0f * v) * c.ry_inv + (te + tw - 2.0f * v) * c.rx_inv +
                                 (c.amb - v) * c.rz_inv);
    }
}

int main(int argc, char **argv) {
  const char *usage = "hotspot [grid [launches]]";
  int n = bench_arg(argc, argv, 1, 384, usage), launches = bench_arg(argc, argv, 2, 2, usage);
  size_t cells = (size_t)n * n;
  Buf<float> power(cells), a(cells), b(cells);
  Rng r(61);
  for (size_t i = 0; i < cells; i++) {
    power[i] = r.uniform(0.0f, 1.0f) < 0.1f ? r.uniform(1e-3f, 5e-3f) : r.uniform(0.0f, 1e-4f);
    a[i] = r.uniform(322.0f, 345.0f);
  }
  // a 16 mm x 16 mm, 0.5 mm thick silicon chip divided into n x n cells
  const double t_chip = 0.0005, side = 0.016, k_si = 100, heat = 1.75e6, factor = 0.5;
  double gw = side / n, gh = side / n;
  double cap = factor * heat * t_chip * gw * gh, rx = gw / (2 * k_si * t_chip * gh),
         ry = gh / (2 * k_si * t_chip * gw), rz = t_chip / (k_si * gh * gw);
  double dt = 0.001 / (3.0e6 / (factor * t_chip * heat));
  Chip c{(float)(dt / cap), (float)(1 / rx), (float)(1 / ry), (float)(1 / rz), 80.0f};
  float *want = (float *)std::malloc(cells * sizeof(float)), *tmp = (float *)std::malloc(cells * sizeof(float));
  if (!want || !tmp) return 1;
  std::memcpy(want, a.h, cells * sizeof(float));
  power.up();
  a.up();
  int small = BS - 2 * STEPS, blocks = (n + small - 1) / small;
  float *src = a.d, *dst = b.d;
  for (int l = 0; l < launches; l++) {
    calculate_temp<<<dim3(blocks, blocks), dim3(BS, BS)>>>(power.d, src, dst, n, c);
    CK_LAUNCH();
    float *s = src;
    src = dst;
    dst = s;
    for (int k = 0; k < STEPS; k++) {
      host_step(power.h, want, tmp, n, c);
      std::memcpy(want, tmp, cells * sizeof(float));
    }
  }
  CK(cudaMemcpy(tmp, src, cells * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = bench_compare("temperature", tmp, want, cells, 1e-6, 1e-4);
  std::free(want);
  std::free(tmp);
  return bench_done("hotspot", bad);
}
