// cfd: an explicit finite-volume solver of the 3-D Euler equations on an unstructured mesh of
// tetrahedra (the structure of Rodinia's cfd/euler3d): per element the density, momentum and
// energy; per face the neighbouring element (or a wall / the far field) and the area-weighted
// normal. Per iteration:
//   compute_step_factor: the element's time step from its size, speed and speed of sound;
//   three Runge-Kutta stages of compute_flux (per element: its own velocity, pressure and
//     flux; for each of its four faces the neighbour's state read through the neighbour index
//     (an irregular gather), the averaged flux through the face and an artificial-dissipation
//     term; about 250 floating-point operations with a square root per face: register-heavy)
//     and time_step (the update from the fluxes).
// 192 threads per block.
// Row: FineReg's CF (Rodinia cfd, Type-R). Input (seeded mesh: each element's neighbours near
// it in the numbering, a few faces on walls or the far field): 28,800 elements (150 blocks),
// 1 iteration (7 launches). Usage: cfd [blocks [iterations]].
#include "../common/bench.h"

#define THREADS 192
#define NV 5 // density, momentum x y z, energy
#define GAMMA 1.4f
#define SMOOTH 0.2f
#define FAR -2
#define WALL -1

struct Mesh {
  const int *nb;        // 4 per element, element-major by face: nb[f * n + i]
  const float *normal;  // 3 per face: normal[(f * 3 + d) * n + i]
  const float *area;
  int n;
};

__host__ __device__ inline void state(const float *v, int n, int i, float &rho, float &mx, float &my,
                                      float &mz, float &e) {
  rho = v[i], mx = v[n + i], my = v[2 * n + i], mz = v[3 * n + i], e = v[4 * n + i];
}

__host__ __device__ inline float pressure(float rho, float mx, float my, float mz, float e) {
  return (GAMMA - 1.0f) * (e - 0.5f * (mx * mx + my * my + mz * mz) / rho);
}

__host__ __device__ inline float step_of(const float *v, const float *area, int n, int i) {
  float rho, mx, my, mz, e;
  state(v, n, i, rho, mx, my, mz, e);
  float speed = sqrtf((mx * mx + my * my + mz * mz) / (rho * rho));
  float c = sqrtf(GAMMA * pressure(rho, mx, my, mz, e) / rho);
  return 0.5f / (sqrtf(area[i]) * (speed + c));
}

__host__ __device__ inline void flux_of(const float *v, const Mesh &m, const float *far, int i, float *out) {
  int n = m.n;
  float rho, mx, my, mz, e;
  state(v, n, i, rho, mx, my, mz, e);
  float p = pressure(rho, mx, my, mz, e), ux = mx / rho, uy = my / rho, uz = mz / rho;
  float c = sqrtf(GAMMA * p / rho), speed = sqrtf(ux * ux + uy * uy + uz * uz);
  float f[NV] = {0, 0, 0, 0, 0};
  for (int k = 0; k < 4; k++) {
    int j = m.nb[k * n + i];
    float nx = m.normal[(k * 3) * n + i], ny = m.normal[(k * 3 + 1) * n + i], nz = m.normal[(k * 3 + 2) * n + i];
    float len = sqrtf(nx * nx + ny * ny + nz * nz);
    if (j == WALL) { // only the pressure pushes on a wall
      f[1] += nx * p, f[2] += ny * p, f[3] += nz * p;
      continue;
    }
    float r2, mx2, my2, mz2, e2;
    if (j == FAR) r2 = far[0], mx2 = far[1], my2 = far[2], mz2 = far[3], e2 = far[4];
    else state(v, n, j, r2, mx2, my2, mz2, e2);
    float p2 = pressure(r2, mx2, my2, mz2, e2), vx = mx2 / r2, vy = my2 / r2, vz = mz2 / r2;
    float c2 = sqrtf(GAMMA * p2 / r2), speed2 = sqrtf(vx * vx + vy * vy + vz * vz);
    float diss = -len * SMOOTH * 0.5f * (speed + c + speed2 + c2);
    float un = ux * nx + uy * ny + uz * nz, vn = vx * nx + vy * ny + vz * nz;
    f[0] += diss * (rho - r2) + 0.5f * (mx * nx + my * ny + mz * nz + mx2 * nx + my2 * ny + mz2 * nz);
    f[1] += diss * (mx - mx2) + 0.5f * (mx * un + p * nx + mx2 * vn + p2 * nx);
    f[2] += diss * (my - my2) + 0.5f * (my * un + p * ny + my2 * vn + p2 * ny);
    f[3] += diss * (mz - mz2) + 0.5f * (mz * un + p * nz + mz2 * vn + p2 * nz);
    f[4] += diss * (e - e2) + 0.5f * ((e + p) * un + (e2 + p2) * vn);
  }
  for (int k = 0; k < NV; k++) out[k] = f[k];
}

__constant__ float c_far[NV];

__global__ void compute_step_factor(const float *v, const float *area, float *step, int n) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  step[i] = step_of(v, area, n, i);
}

__global__ void compute_flux(const float *v, Mesh m, float *flux) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  float f[NV];
  flux_of(v, m, c_far, i, f);
  for (int k = 0; k < NV; k++) flux[k * m.n + i] = f[k];
}

__global__ void time_step(int stage, const float *old, float *v, const float *step, const float *flux, int n) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  float factor = step[i] / (float)(4 - stage);
  for (int k = 0; k < NV; k++) v[k * n + i] = old[k * n + i] + factor * flux[k * n + i];
}

int main(int argc, char **argv) {
  const char *usage = "cfd [blocks [iterations]]";
  int blocks = bench_arg(argc, argv, 1, 150, usage), iters = bench_arg(argc, argv, 2, 1, usage);
  int n = blocks * THREADS;
  Buf<int> nb(4 * (size_t)n);
  Buf<float> normal(12 * (size_t)n), area(n), v(NV * (size_t)n), old(NV * (size_t)n), step(n), flux(NV * (size_t)n);
  Rng g(321);
  const float far[NV] = {1.4f, 1.4f * 0.3f, 0.0f, 0.0f, 1.0f / (GAMMA - 1.0f) + 0.5f * 1.4f * 0.09f};
  for (int i = 0; i < n; i++) {
    area[i] = g.uniform(0.5f, 1.5f);
    for (int k = 0; k < 4; k++) {
      int u = (int)g.below(100), j = u < 3 ? WALL : u < 6 ? FAR : (i + (int)g.below(64) - 32 + n) % n;
      nb[(size_t)k * n + i] = j;
      for (int d = 0; d < 3; d++) normal[(size_t)(k * 3 + d) * n + i] = g.uniform(-0.5f, 0.5f);
    }
    for (int k = 0; k < NV; k++) v[(size_t)k * n + i] = far[k] * g.uniform(0.95f, 1.05f);
  }
  CK(cudaMemcpyToSymbol(c_far, far, sizeof far));
  nb.up(), normal.up(), area.up(), v.up();
  Mesh md{nb.d, normal.d, area.d, n}, mh{nb.h, normal.h, area.h, n};
  float *hv = (float *)std::malloc(v.bytes()), *hold = (float *)std::malloc(v.bytes()),
        *hstep = (float *)std::malloc(n * sizeof(float)), *hflux = (float *)std::malloc(v.bytes());
  if (!hv || !hold || !hstep || !hflux) return 1;
  std::memcpy(hv, v.h, v.bytes());
  for (int it = 0; it < iters; it++) {
    CK(cudaMemcpy(old.d, v.d, v.bytes(), cudaMemcpyDeviceToDevice));
    std::memcpy(hold, hv, v.bytes());
    compute_step_factor<<<blocks, THREADS>>>(v.d, area.d, step.d, n);
    CK_LAUNCH();
    for (int i = 0; i < n; i++) hstep[i] = step_of(hv, area.h, n, i);
    for (int s = 0; s < 3; s++) {
      compute_flux<<<blocks, THREADS>>>(v.d, md, flux.d);
      CK_LAUNCH();
      time_step<<<blocks, THREADS>>>(s, old.d, v.d, step.d, flux.d, n);
      CK_LAUNCH();
      for (int i = 0; i < n; i++) {
        float f[NV];
        flux_of(hv, mh, far, i, f);
        for (int k = 0; k < NV; k++) hflux[(size_t)k * n + i] = f[k];
      }
      for (int i = 0; i < n; i++)
        for (int k = 0; k < NV; k++)
          hv[(size_t)k * n + i] = hold[(size_t)k * n + i] + hstep[i] / (float)(4 - s) * hflux[(size_t)k * n + i];
    }
  }
  v.down();
  int bad = bench_compare("state", v.h, hv, v.n, 1e-4, 1e-5);
  std::free(hv), std::free(hold), std::free(hstep), std::free(hflux);
  return bench_done("cfd", bad);
}
