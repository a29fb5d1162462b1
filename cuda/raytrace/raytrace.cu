// raytrace: a Whitted-style ray tracer (spheres over a checkered floor, one point light with
// shadows, mirror reflections), one thread per pixel. This is WarpMan's RAY (warpman Table 2:
// 6 warps per TB, 12288 registers per TB = 64 per thread, no shared memory, 2 TBs/SM on the
// GTX 480; 512 TBs; nvcc 11.8 needs 45 registers, the trace allocates the paper's 64 with
// rfsim-trace -regs in trace.flags), and its input-dependent imbalance (section 3.2.1, Fig. 5): each pixel's
// bounce loop `for (i = 0; i < 5 && n == i; i++)` runs once more only while its ray keeps
// hitting something, so warps that see the sky stop after one pass and warps on the mirrors
// run up to five, each pass testing every object and casting a shadow ray.
// The paper notes a __syncthreads() in its kernel; with no shared memory it orders nothing, so
// this kernel has none.
//
// The shading is one __host__ __device__ function, and the device code is built without
// fused multiply-adds (-fmad=false, build.flags) and with IEEE division and square root, so the
// host computes the same pixels bit for bit. Input: the scene is fixed, the sphere colours
// seeded; a 256 x 384 image in 16 x 12 blocks (16 x 32 = 512 TBs). Usage: raytrace.
#include "../common/bench.h"

#define NS 9
#define W 256
#define H 384
#define MAXDEPTH 5

struct Sphere {
  float x, y, z, r, refl, cr, cg, cb;
};
struct Scene {
  Sphere s[NS];
  float lx, ly, lz; // the point light
};

__constant__ Scene c_scene;

// distance along the ray to sphere k, or -1
__host__ __device__ inline float hit_sphere(const Sphere &s, float ox, float oy, float oz, float dx,
                                            float dy, float dz) {
  float px = ox - s.x, py = oy - s.y, pz = oz - s.z;
  float b = px * dx + py * dy + pz * dz, c = px * px + py * py + pz * pz - s.r * s.r;
  float disc = b * b - c;
  if (disc < 0.0f) return -1.0f;
  float q = sqrtf(disc), t = -b - q;
  return t > 1e-3f ? t : (-b + q > 1e-3f ? -b + q : -1.0f);
}

// the nearest object: spheres 0..NS-1, NS the floor (y = -1); returns its index or -1
__host__ __device__ inline int nearest(const Scene &sc, float ox, float oy, float oz, float dx,
                                       float dy, float dz, float *tmin) {
  int best = -1;
  float bt = 1e4f;
  for (int k = 0; k < NS; k++) {
    float t = hit_sphere(sc.s[k], ox, oy, oz, dx, dy, dz);
    if (t > 0.0f && t < bt) bt = t, best = k;
  }
  if (dy < 0.0f) {
    float t = (-1.0f - oy) / dy;
    if (t > 1e-3f && t < bt) bt = t, best = NS;
  }
  *tmin = bt;
  return best;
}

__host__ __device__ inline unsigned trace_pixel(const Scene &sc, int x, int y) {
  float ox = 0.0f, oy = 0.6f, oz = -4.0f;
  float dx = (x - 0.5f * W) / H, dy = (0.5f * H - y) / H, dz = 1.5f;
  float len = sqrtf(dx * dx + dy * dy + dz * dz);
  dx /= len, dy /= len, dz /= len;
  float r = 0.0f, g = 0.0f, b = 0.0f, weight = 1.0f;
  int n = 0;
  for (int i = 0; i < MAXDEPTH && n == i; i++) {
    float t;
    int k = nearest(sc, ox, oy, oz, dx, dy, dz, &t);
    if (k >= 0 && t > 0.0f && t < 1e4f) {
      n++;
      float hx = ox + t * dx, hy = oy + t * dy, hz = oz + t * dz, nx, ny, nz, cr, cg, cb, refl;
      if (k < NS) {
        const Sphere &s = sc.s[k];
        nx = (hx - s.x) / s.r, ny = (hy - s.y) / s.r, nz = (hz - s.z) / s.r;
        cr = s.cr, cg = s.cg, cb = s.cb, refl = s.refl;
      } else {
        nx = 0.0f, ny = 1.0f, nz = 0.0f;
        int check = ((int)floorf(hx * 2.0f) + (int)floorf(hz * 2.0f)) & 1;
        cr = cg = cb = check ? 0.9f : 0.2f;
        refl = 0.3f;
      }
      // diffuse light unless another object blocks the light
      float lx = sc.lx - hx, ly = sc.ly - hy, lz = sc.lz - hz;
      float ld = sqrtf(lx * lx + ly * ly + lz * lz);
      lx /= ld, ly /= ld, lz /= ld;
      float diff = nx * lx + ny * ly + nz * lz, ts;
      if (diff > 0.0f && nearest(sc, hx, hy, hz, lx, ly, lz, &ts) >= 0 && ts < ld) diff = 0.0f;
      float shade = 0.1f + (diff > 0.0f ? 0.9f * diff : 0.0f);
      float wl = weight * (1.0f - refl) * shade;
      r += wl * cr, g += wl * cg, b += wl * cb;
      weight *= refl;
      float dn = 2.0f * (dx * nx + dy * ny + dz * nz);
      dx -= dn * nx, dy -= dn * ny, dz -= dn * nz;
      ox = hx, oy = hy, oz = hz;
    } else {
      r += weight * 0.3f, g += weight * 0.5f, b += weight * 0.8f; // the sky
    }
  }
  unsigned ir = (unsigned)(fminf(r, 1.0f) * 255.0f), ig = (unsigned)(fminf(g, 1.0f) * 255.0f),
           ib = (unsigned)(fminf(b, 1.0f) * 255.0f);
  return ir | ig << 8 | ib << 16 | (unsigned)n << 24;
}

__global__ void render(unsigned *img) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  img[y * W + x] = trace_pixel(c_scene, x, y);
}

int main() {
  Scene sc;
  Rng r(101);
  for (int k = 0; k < NS; k++) {
    Sphere &s = sc.s[k];
    s.x = -2.4f + 1.2f * (k % 5);
    s.z = 1.0f + 1.4f * (k / 5) + r.uniform(0.0f, 0.5f);
    s.r = r.uniform(0.35f, 0.6f);
    s.y = -1.0f + s.r + (k % 3 == 0 ? r.uniform(0.0f, 0.8f) : 0.0f);
    s.refl = k % 2 ? r.uniform(0.6f, 0.9f) : r.uniform(0.0f, 0.3f);
    s.cr = r.uniform(0.2f, 1.0f), s.cg = r.uniform(0.2f, 1.0f), s.cb = r.uniform(0.2f, 1.0f);
  }
  sc.lx = 3.0f, sc.ly = 5.0f, sc.lz = -3.0f;
  CK(cudaMemcpyToSymbol(c_scene, &sc, sizeof sc));
  Buf<unsigned> img(W * H);
  render<<<dim3(W / 16, H / 12), dim3(16, 12)>>>(img.d);
  CK_LAUNCH();
  img.down();
  unsigned *want = (unsigned *)std::malloc(W * H * sizeof(unsigned));
  if (!want) return 1;
  int hist[MAXDEPTH + 1] = {0};
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      want[y * W + x] = trace_pixel(sc, x, y);
      hist[want[y * W + x] >> 24]++;
    }
  std::printf("raytrace: pixels by bounces 0..%d:", MAXDEPTH);
  for (int d = 0; d <= MAXDEPTH; d++) std::printf(" %d", hist[d]);
  std::printf("\n");
  int bad = bench_compare("pixel", img.h, want, W * H, 0.0, 0.0);
  std::free(want);
  return bench_done("raytrace", bad);
}
