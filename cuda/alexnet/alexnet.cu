// alexnet: one RGB image through a reduced AlexNet (the other network of the locality-aware
// register file paper, Fig. 4, from the Tango suite): the same eight layers and kernel shapes
// (conv1 11 x 11 with stride 4, overlapping 3 x 3 max pooling with stride 2 after conv1,
// conv2 and conv5, conv2 5 x 5, conv3-5 3 x 3, three fully connected layers), with fewer maps
// and a 99 x 99 input so that it traces in seconds: conv1 3 -> 16, conv2 16 -> 32, conv3
// 32 -> 48, conv4 48 -> 48, conv5 48 -> 32, fc6 288 -> 256, fc7 256 -> 256, fc8 256 -> 10.
// The paper's observations this keeps: conv1's large stride and the 3-D inputs of the later
// convolutions space the words a warp loads apart, so less is shared than in CifarNet, while
// the overlapping pooling shares most. Layers from cuda/common/cnn.h; input and weights
// seeded. Usage: alexnet.
#include "../common/cnn.h"

int main() {
  Net net(361, 3, 99, 99);
  net.conv("conv1", 16, 11, 4, 0, 3, 99, 99);   // 16 x 23 x 23
  net.pool("pool1", 3, 2, 16, 23, 23);          // 16 x 11 x 11
  net.conv("conv2", 32, 5, 1, 2, 16, 11, 11);
  net.pool("pool2", 3, 2, 32, 11, 11);          // 32 x 5 x 5
  net.conv("conv3", 48, 3, 1, 1, 32, 5, 5);
  net.conv("conv4", 48, 3, 1, 1, 48, 5, 5);
  net.conv("conv5", 32, 3, 1, 1, 48, 5, 5);
  net.pool("pool5", 3, 2, 32, 5, 5);            // 32 x 2 x 2
  net.fc("fc6", 256, true);
  net.fc("fc7", 256, true);
  net.fc("fc8", 10, false);
  return bench_done("alexnet", net.bad);
}
