// cifarnet: one 32 x 32 RGB image through CifarNet (the network of the Tango suite that the
// locality-aware register file paper evaluates, Fig. 4): conv1 (3 -> 32 maps, 5 x 5, padding 2),
// 3 x 3 max pooling with stride 2, conv2 (32 -> 32, 5 x 5), pooling, conv3 (32 -> 64, 5 x 5),
// pooling, and a fully connected layer to 10 classes; ReLU after each convolution. The layers
// are cuda/common/cnn.h's (one thread per output neuron, neighbouring lanes on neighbouring
// outputs of one map, so that their input windows overlap and their weight loads coincide:
// the sharing the paper's register file exploits; the earlier layers, on the larger maps,
// share more). Input and weights seeded. Usage: cifarnet.
#include "../common/cnn.h"

int main() {
  Net net(351, 3, 32, 32);
  net.conv("conv1", 32, 5, 1, 2, 3, 32, 32);
  net.pool("pool1", 3, 2, 32, 32, 32);  // 32 x 15 x 15
  net.conv("conv2", 32, 5, 1, 2, 32, 15, 15);
  net.pool("pool2", 3, 2, 32, 15, 15);  // 32 x 7 x 7
  net.conv("conv3", 64, 5, 1, 2, 32, 7, 7);
  net.pool("pool3", 3, 2, 64, 7, 7);    // 64 x 3 x 3
  net.fc("fc", 10, false);
  return bench_done("cifarnet", net.bad);
}
