// cnn.h: the layers of the convolutional networks in cuda/cifarnet and cuda/alexnet, written in
// the style of the Tango suite's CNNs that the locality-aware register file paper ran: one
// thread per output neuron, 256-thread blocks over the output laid out map by map, row by row,
// x fastest, so that neighbouring lanes compute neighbouring outputs of one map:
//   conv: a (2r+1)^2 window over every input map (stride s, zero padding p), weights shared by
//     every neuron of an output map (all lanes of a warp read the same weight: a broadcast),
//     and the windows of neighbouring lanes overlapping (tap kx of lane t is tap kx - s of lane
//     t + 1: the "partial sharing" of the paper); ReLU;
//   maxpool: the maximum over a k x k window with stride s (overlapping for k > s);
//   fc: every neuron a dot product of all inputs (the same for all lanes) with its own weights.
// Each layer has a plain C twin that the programs check the device against, layer by layer
// from the device's previous layer, so that a difference points at one layer.
#ifndef CUDA_COMMON_CNN_H
#define CUDA_COMMON_CNN_H

#include "bench.h"

#define CNN_THREADS 256

struct ConvShape {
  int cin, hin, win, cout, k, stride, pad, hout, wout;
};

__host__ __device__ inline float cnn_conv_at(const ConvShape &s, const float *in, const float *w,
                                             const float *bias, int o) {
  int m = o / (s.hout * s.wout), y = o / s.wout % s.hout, x = o % s.wout;
  float sum = bias[m];
  for (int c = 0; c < s.cin; c++)
    for (int ky = 0; ky < s.k; ky++) {
      int iy = y * s.stride + ky - s.pad;
      if (iy < 0 || iy >= s.hin) continue;
      for (int kx = 0; kx < s.k; kx++) {
        int ix = x * s.stride + kx - s.pad;
        if (ix < 0 || ix >= s.win) continue;
        sum += in[(c * s.hin + iy) * s.win + ix] * w[((m * s.cin + c) * s.k + ky) * s.k + kx];
      }
    }
  return sum > 0.0f ? sum : 0.0f;
}

__global__ void conv_layer(ConvShape s, const float *in, const float *w, const float *bias, float *out) {
  int o = blockIdx.x * CNN_THREADS + threadIdx.x;
  if (o < s.cout * s.hout * s.wout) out[o] = cnn_conv_at(s, in, w, bias, o);
}

struct PoolShape {
  int c, hin, win, k, stride, hout, wout;
};

__host__ __device__ inline float cnn_pool_at(const PoolShape &s, const float *in, int o) {
  int m = o / (s.hout * s.wout), y = o / s.wout % s.hout, x = o % s.wout;
  float best = -3.4e38f;
  for (int ky = 0; ky < s.k; ky++)
    for (int kx = 0; kx < s.k; kx++) {
      int iy = y * s.stride + ky, ix = x * s.stride + kx;
      if (iy < s.hin && ix < s.win) best = fmaxf(best, in[(m * s.hin + iy) * s.win + ix]);
    }
  return best;
}

__global__ void maxpool_layer(PoolShape s, const float *in, float *out) {
  int o = blockIdx.x * CNN_THREADS + threadIdx.x;
  if (o < s.c * s.hout * s.wout) out[o] = cnn_pool_at(s, in, o);
}

__host__ __device__ inline float cnn_fc_at(int nin, const float *in, const float *w, const float *bias,
                                           int o, bool relu) {
  float sum = bias[o];
  for (int i = 0; i < nin; i++) sum += in[i] * w[o * nin + i];
  return relu && sum < 0.0f ? 0.0f : sum;
}

__global__ void fc_layer(int nin, int nout, const float *in, const float *w, const float *bias, float *out,
                         int relu) {
  int o = blockIdx.x * CNN_THREADS + threadIdx.x;
  if (o < nout) out[o] = cnn_fc_at(nin, in, w, bias, o, relu != 0);
}

// A network run layer by layer on the device and checked against the host; owns its buffers.
struct Net {
  Rng rng;
  float *cur_d;      // the current activations on the device
  size_t cur_n;
  float *cur_h;      // their host copy (the device's)
  int bad = 0;
  explicit Net(uint32_t seed, int c, int h, int w) : rng(seed) {
    cur_n = (size_t)c * h * w;
    cur_h = (float *)std::malloc(cur_n * sizeof(float));
    if (!cur_h) std::exit(1);
    for (size_t i = 0; i < cur_n; i++) cur_h[i] = rng.uniform(0.0f, 1.0f);
    CK(cudaMalloc((void **)&cur_d, cur_n * sizeof(float)));
    CK(cudaMemcpy(cur_d, cur_h, cur_n * sizeof(float), cudaMemcpyHostToDevice));
  }
  ~Net() {
    cudaFree(cur_d);
    std::free(cur_h);
  }
  // the device's output of a layer replaces the input, after the check against want
  void next(const char *what, float *out_d, size_t n, const float *want) {
    float *got = (float *)std::malloc(n * sizeof(float));
    if (!got) std::exit(1);
    CK(cudaMemcpy(got, out_d, n * sizeof(float), cudaMemcpyDeviceToHost));
    bad += bench_compare(what, got, want, n, 1e-4, 1e-5);
    cudaFree(cur_d);
    std::free(cur_h);
    cur_d = out_d, cur_h = got, cur_n = n;
  }
  float *weights(size_t n, float scale, float **dev) {
    float *h = (float *)std::malloc(n * sizeof(float));
    if (!h) std::exit(1);
    for (size_t i = 0; i < n; i++) h[i] = rng.uniform(-scale, scale);
    CK(cudaMalloc((void **)dev, n * sizeof(float)));
    CK(cudaMemcpy(*dev, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return h;
  }
  void conv(const char *what, int cout, int k, int stride, int pad, int cin, int hin, int win) {
    ConvShape s{cin, hin, win, cout, k, stride, pad, (hin + 2 * pad - k) / stride + 1, (win + 2 * pad - k) / stride + 1};
    float *wd, *bd, *od;
    float *w = weights((size_t)cout * cin * k * k, 1.0f / (float)(cin * k), &wd), *b = weights(cout, 0.1f, &bd);
    size_t n = (size_t)cout * s.hout * s.wout;
    CK(cudaMalloc((void **)&od, n * sizeof(float)));
    conv_layer<<<(unsigned)((n + CNN_THREADS - 1) / CNN_THREADS), CNN_THREADS>>>(s, cur_d, wd, bd, od);
    CK_LAUNCH();
    float *want = (float *)std::malloc(n * sizeof(float));
    if (!want) std::exit(1);
    for (size_t o = 0; o < n; o++) want[o] = cnn_conv_at(s, cur_h, w, b, (int)o);
    next(what, od, n, want);
    std::free(want), std::free(w), std::free(b);
    cudaFree(wd), cudaFree(bd);
  }
  void pool(const char *what, int k, int stride, int c, int hin, int win) {
    PoolShape s{c, hin, win, k, stride, (hin - k) / stride + 1, (win - k) / stride + 1};
    size_t n = (size_t)c * s.hout * s.wout;
    float *od;
    CK(cudaMalloc((void **)&od, n * sizeof(float)));
    maxpool_layer<<<(unsigned)((n + CNN_THREADS - 1) / CNN_THREADS), CNN_THREADS>>>(s, cur_d, od);
    CK_LAUNCH();
    float *want = (float *)std::malloc(n * sizeof(float));
    if (!want) std::exit(1);
    for (size_t o = 0; o < n; o++) want[o] = cnn_pool_at(s, cur_h, (int)o);
    next(what, od, n, want);
    std::free(want);
  }
  void fc(const char *what, int nout, bool relu) {
    int nin = (int)cur_n;
    float *wd, *bd, *od;
    float *w = weights((size_t)nout * nin, 1.0f / (float)nin, &wd), *b = weights(nout, 0.1f, &bd);
    CK(cudaMalloc((void **)&od, nout * sizeof(float)));
    fc_layer<<<(nout + CNN_THREADS - 1) / CNN_THREADS, CNN_THREADS>>>(nin, nout, cur_d, wd, bd, od, relu);
    CK_LAUNCH();
    float *want = (float *)std::malloc(nout * sizeof(float));
    if (!want) std::exit(1);
    for (int o = 0; o < nout; o++) want[o] = cnn_fc_at(nin, cur_h, w, b, o, relu);
    next(what, od, nout, want);
    std::free(want), std::free(w), std::free(b);
    cudaFree(wd), cudaFree(bd);
  }
};

#endif
