// nn: a LeNet-style convolutional network classifying 29 x 29 images into 10 classes, the
// structure of GPGPU-Sim's NN benchmark: two convolution layers with 5 x 5 kernels and stride
// 2, then two fully connected layers, every neuron's output act(x) = 1.7159 tanh(2x/3).
//   executeFirstLayer: one 256-thread block (8 warps) per image computes the 6 feature maps
//     of 13 x 13 (1014 neurons, 4 per thread), each from a 5 x 5 window of the image: WarpMan's
//     NN (warpman Table 2: 8 warps per TB, no shared memory, 6114 registers per TB: 24 per
//     thread, 5 TBs/SM on the GTX 480; "one TB processes 1 image");
//   executeSecondLayer: a 5 x 5 block (25 threads, one warp with 25 lanes) per feature map and
//     image computes the 50 maps of 5 x 5, each neuron from 5 x 5 windows of all 6 first-layer
//     maps (150 weights): register sharing Set-2 / Set-3 (GPGPU-Sim NN, executeSecondLayer,
//     25 threads, 24 registers, limited by the 8 block slots);
//   executeThirdLayer: 100 neurons per image, each over all 1250 second-layer outputs;
//   executeFourthLayer: 10 outputs per image over the 100.
// Weights shared by all images (repeated loads across blocks). Input (seeded): 96 images.
// Usage: nn [images].
#include "../common/bench.h"

#define IN 29
#define M1 6
#define S1 13
#define M2 50
#define S2 5
#define N3 100
#define N4 10

__host__ __device__ inline float act(float x) { return 1.7159f * tanhf(0.66666667f * x); }

__global__ void executeFirstLayer(const float *img, const float *w1, float *out1) {
  const float *in = img + blockIdx.x * IN * IN;
  for (int o = threadIdx.x; o < M1 * S1 * S1; o += blockDim.x) {
    int m = o / (S1 * S1), y = (o / S1) % S1, x = o % S1;
    const float *w = w1 + m * 26;
    float s = w[25];
    for (int ky = 0; ky < 5; ky++)
#pragma unroll
      for (int kx = 0; kx < 5; kx++) s += w[ky * 5 + kx] * in[(2 * y + ky) * IN + 2 * x + kx];
    out1[blockIdx.x * M1 * S1 * S1 + o] = act(s);
  }
}

__global__ void executeSecondLayer(const float *out1, const float *w2, float *out2) {
  int map = blockIdx.x, image = blockIdx.y, x = threadIdx.x, y = threadIdx.y;
  const float *in = out1 + image * M1 * S1 * S1, *w = w2 + map * (M1 * 25 + 1);
  float s = w[M1 * 25];
  for (int m = 0; m < M1; m++)
    for (int ky = 0; ky < 5; ky++)
#pragma unroll
      for (int kx = 0; kx < 5; kx++)
        s += w[m * 25 + ky * 5 + kx] * in[m * S1 * S1 + (2 * y + ky) * S1 + 2 * x + kx];
  out2[image * M2 * S2 * S2 + map * S2 * S2 + y * S2 + x] = act(s);
}

__global__ void executeThirdLayer(const float *out2, const float *w3, float *out3) {
  int n = threadIdx.x, image = blockIdx.x;
  const float *in = out2 + image * M2 * S2 * S2, *w = w3 + n * (M2 * S2 * S2 + 1);
  float s = w[M2 * S2 * S2];
  for (int i = 0; i < M2 * S2 * S2; i++) s += w[i] * in[i];
  out3[image * N3 + n] = act(s);
}

__global__ void executeFourthLayer(const float *out3, const float *w4, float *out4) {
  int n = threadIdx.x, image = blockIdx.x;
  const float *in = out3 + image * N3, *w = w4 + n * (N3 + 1);
  float s = w[N3];
  for (int i = 0; i < N3; i++) s += w[i] * in[i];
  out4[image * N4 + n] = act(s);
}

int main(int argc, char **argv) {
  int images = bench_arg(argc, argv, 1, 96, "nn [images]");
  if (images > 65535) {
    std::fprintf(stderr, "usage: nn [images]\n");
    return 2;
  }
  Buf<float> img((size_t)images * IN * IN), w1(M1 * 26), w2(M2 * (M1 * 25 + 1)), w3(N3 * (M2 * 25 + 1)),
      w4(N4 * (N3 + 1)), o1((size_t)images * M1 * S1 * S1), o2((size_t)images * M2 * 25),
      o3((size_t)images * N3), o4((size_t)images * N4);
  Rng r(111);
  for (size_t i = 0; i < img.n; i++) img[i] = r.uniform(-1.0f, 1.0f);
  for (size_t i = 0; i < w1.n; i++) w1[i] = r.uniform(-0.3f, 0.3f);
  for (size_t i = 0; i < w2.n; i++) w2[i] = r.uniform(-0.1f, 0.1f);
  for (size_t i = 0; i < w3.n; i++) w3[i] = r.uniform(-0.03f, 0.03f);
  for (size_t i = 0; i < w4.n; i++) w4[i] = r.uniform(-0.1f, 0.1f);
  img.up(), w1.up(), w2.up(), w3.up(), w4.up();
  executeFirstLayer<<<images, 256>>>(img.d, w1.d, o1.d);
  CK_LAUNCH();
  executeSecondLayer<<<dim3(M2, images), dim3(S2, S2)>>>(o1.d, w2.d, o2.d);
  CK_LAUNCH();
  executeThirdLayer<<<images, N3>>>(o2.d, w3.d, o3.d);
  CK_LAUNCH();
  executeFourthLayer<<<images, N4>>>(o3.d, w4.d, o4.d);
  CK_LAUNCH();
  o1.down(), o2.down(), o3.down(), o4.down();
  // the host's network, each layer from the device's previous layer so that errors do not add up
  float *h1 = (float *)std::malloc(o1.bytes()), *h2 = (float *)std::malloc(o2.bytes()),
        *h3 = (float *)std::malloc(o3.bytes()), *h4 = (float *)std::malloc(o4.bytes());
  if (!h1 || !h2 || !h3 || !h4) return 1;
  for (int im = 0; im < images; im++) {
    const float *in = img.h + im * IN * IN;
    for (int m = 0; m < M1; m++)
      for (int y = 0; y < S1; y++)
        for (int x = 0; x < S1; x++) {
          float s = w1[m * 26 + 25];
          for (int k = 0; k < 25; k++) s += w1[m * 26 + k] * in[(2 * y + k / 5) * IN + 2 * x + k % 5];
          h1[im * M1 * S1 * S1 + m * S1 * S1 + y * S1 + x] = act(s);
        }
    const float *p1 = o1.h + im * M1 * S1 * S1;
    for (int map = 0; map < M2; map++)
      for (int y = 0; y < S2; y++)
        for (int x = 0; x < S2; x++) {
          const float *w = w2.h + map * (M1 * 25 + 1);
          float s = w[M1 * 25];
          for (int m = 0; m < M1; m++)
            for (int k = 0; k < 25; k++) s += w[m * 25 + k] * p1[m * S1 * S1 + (2 * y + k / 5) * S1 + 2 * x + k % 5];
          h2[im * M2 * 25 + map * 25 + y * S2 + x] = act(s);
        }
    for (int n = 0; n < N3; n++) {
      const float *w = w3.h + n * (M2 * 25 + 1);
      float s = w[M2 * 25];
      for (int i = 0; i < M2 * 25; i++) s += w[i] * o2[im * M2 * 25 + i];
      h3[im * N3 + n] = act(s);
    }
    for (int n = 0; n < N4; n++) {
      const float *w = w4.h + n * (N3 + 1);
      float s = w[N3];
      for (int i = 0; i < N3; i++) s += w[i] * o3[im * N3 + i];
      h4[im * N4 + n] = act(s);
    }
  }
  int bad = bench_compare("layer1", o1.h, h1, o1.n, 2e-5, 2e-5) + bench_compare("layer2", o2.h, h2, o2.n, 2e-5, 2e-5) +
            bench_compare("layer3", o3.h, h3, o3.n, 2e-5, 2e-5) + bench_compare("layer4", o4.h, h4, o4.n, 2e-5, 2e-5);
  std::free(h1), std::free(h2), std::free(h3), std::free(h4);
  return bench_done("nn", bad);
}
