// backprop: one training step of a two-layer perceptron (a large input layer, 16 hidden units,
// one output) by error back-propagation, the structure of Rodinia's backprop:
//   bpnn_layerforward_CUDA: a 16 x 16 block takes 16 input units: the first column of threads
//     stages their values in shared memory, every thread multiplies one input by one weight
//     into a 16 x 16 shared tile (16 + 256 floats = 1088 B), and the tile's columns are summed
//     by a tree over the rows (a __syncthreads() per level, half the rows idle each level);
//     the block writes 16 partial sums, one per hidden unit;
//   (host: the hidden units' sigmoid of the summed partials, the output unit, the output and
//     hidden errors, as Rodinia does them on the CPU)
//   bpnn_adjust_weights_cuda: one thread per weight between the inputs and the hidden layer:
//     w += eta * delta[hidden] * input + momentum * previous change.
// Rows: register sharing Set-2 / Set-3 (Rodinia backprop bpnn_layerforward_CUDA, 256 threads,
// 12 registers, limited by threads) and Set-1 (bpnn_adjust_weights_cuda, 256 threads, 24
// registers, 5 TBs/SM on the Tesla C2050, 6 with 90% sharing; nvcc 11.8 needs 15, the trace
// allocates the paper's 24 with rfsim-trace -regs in trace.flags).
// Input (seeded): 32,768 input units (2048 blocks per kernel). Usage: backprop [inputs], a
// multiple of 16.
#include "../common/bench.h"

#define HID 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void bpnn_layerforward_CUDA(const float *input, const float *w, float *partial, int in) {
  __shared__ float node[HID];
  __shared__ float tile[HID][HID];
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * HID + ty; // input unit row + 1
  if (tx == 0) node[ty] = input[row + 1];
  __syncthreads();
  tile[ty][tx] = w[(row + 1) * (HID + 1) + tx + 1] * node[ty];
  __syncthreads();
  for (int step = 1; step < HID; step *= 2) {
    if (ty % (2 * step) == 0) tile[ty][tx] += tile[ty + step][tx];
    __syncthreads();
  }
  if (ty == 0) partial[blockIdx.y * HID + tx] = tile[0][tx];
}

__global__ void bpnn_adjust_weights_cuda(const float *delta, const float *ly, float *w, float *oldw) {
  int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * HID + ty + 1, col = tx + 1;
  int i = row * (HID + 1) + col;
  float change = ETA * delta[col] * ly[row] + MOMENTUM * oldw[i];
  w[i] += change;
  oldw[i] = change;
  if (ty == 0 && blockIdx.y == 0) { // the bias weights, row 0
    float c0 = ETA * delta[col] + MOMENTUM * oldw[col];
    w[col] += c0;
    oldw[col] = c0;
  }
}

static float squash(float x) { return 1.0f / (1.0f + std::exp(-x)); }

int main(int argc, char **argv) {
  int in = bench_arg(argc, argv, 1, 32768, "backprop [inputs] (a multiple of 16)");
  if (in % HID) {
    std::fprintf(stderr, "usage: backprop [inputs] (a multiple of 16)\n");
    return 2;
  }
  int blocks = in / HID;
  size_t nw = (size_t)(in + 1) * (HID + 1);
  Buf<float> input(in + 1), w(nw), oldw(nw), partial((size_t)blocks * HID), delta(HID + 1);
  Rng r(141);
  input[0] = 1.0f; // the bias unit
  for (int i = 1; i <= in; i++) input[i] = r.uniform(0.0f, 1.0f);
  for (size_t i = 0; i < nw; i++) w[i] = r.uniform(-0.05f, 0.05f);
  float hw[HID + 1], target = 0.1f; // hidden-to-output weights
  for (int j = 0; j <= HID; j++) hw[j] = r.uniform(-0.5f, 0.5f);
  input.up(), w.up(), oldw.up();
  bpnn_layerforward_CUDA<<<dim3(1, blocks), dim3(HID, HID)>>>(input.d, w.d, partial.d, in);
  CK_LAUNCH();
  partial.down();
  // the forward pass's check, then the host's part of the step from the device's partial sums
  float *want = (float *)std::malloc(partial.bytes());
  if (!want) return 1;
  for (int b = 0; b < blocks; b++)
    for (int j = 0; j < HID; j++) {
      float t[HID];
      for (int k = 0; k < HID; k++) t[k] = w[(size_t)(b * HID + k + 1) * (HID + 1) + j + 1] * input[b * HID + k + 1];
      for (int step = 1; step < HID; step *= 2)
        for (int k = 0; k < HID; k += 2 * step) t[k] += t[k + step];
      want[b * HID + j] = t[0];
    }
  int bad = bench_compare("partial", partial.h, want, partial.n, 1e-6, 1e-7);
  float hidden[HID + 1], out = hw[0];
  hidden[0] = 1.0f;
  for (int j = 1; j <= HID; j++) {
    float s = w[j]; // the bias weight
    for (int b = 0; b < blocks; b++) s += partial[b * HID + j - 1];
    hidden[j] = squash(s);
    out += hw[j] * hidden[j];
  }
  out = squash(out);
  float dout = out * (1.0f - out) * (target - out);
  delta[0] = 0.0f;
  for (int j = 1; j <= HID; j++) delta[j] = hidden[j] * (1.0f - hidden[j]) * hw[j] * dout;
  delta.up();
  float *w0 = (float *)std::malloc(w.bytes());
  if (!w0) return 1;
  std::memcpy(w0, w.h, w.bytes());
  bpnn_adjust_weights_cuda<<<dim3(1, blocks), dim3(HID, HID)>>>(delta.d, input.d, w.d, oldw.d);
  CK_LAUNCH();
  w.down();
  for (int row = 0; row <= in; row++)
    for (int col = 1; col <= HID; col++) {
      size_t i = (size_t)row * (HID + 1) + col;
      w0[i] += ETA * delta[col] * input[row]; // the previous changes are all 0
    }
  bad += bench_compare("weight", w.h, w0, nw, 1e-6, 1e-7);
  std::free(want), std::free(w0);
  return bench_done("backprop", bad);
}
