// bfs: breadth-first search from one source over a random graph in compressed adjacency lists,
// level by level with two kernels per level (the frontier-mask algorithm of Rodinia's and
// GPGPU-Sim's BFS), one thread per node:
//   Kernel: a node on the frontier leaves it and gives every unvisited neighbour its level + 1
//     and a place on the next frontier (its degree decides its work: warps differ);
//   Kernel2: nodes marked for the next frontier join it, become visited and tell the host that
//     another level is needed.
// Most threads of a level find their node off the frontier and do nothing but the test.
// Rows: register sharing Set-2 / Set-3 (GPGPU-Sim BFS Kernel, 256 threads, 20 registers,
// limited by threads) and FineReg's BF (Type-S).
// Input (seeded): 65,536 nodes (256 blocks per launch), 1 to 11 neighbours each (mean 6).
// Usage: bfs [nodes], a multiple of 256.
#include "../common/bench.h"

#define THREADS 256

__global__ void Kernel(const int *start, const int *degree, const int *edges, char *mask,
                       char *updating, const char *visited, int *cost, int n) {
  int tid = blockIdx.x * THREADS + threadIdx.x;
  if (tid < n && mask[tid]) {
    mask[tid] = 0;
    for (int i = start[tid]; i < start[tid] + degree[tid]; i++) {
      int id = edges[i];
      if (!visited[id]) {
        cost[id] = cost[tid] + 1;
        updating[id] = 1;
      }
    }
  }
}

__global__ void Kernel2(char *mask, char *updating, char *visited, int *over, int n) {
  int tid = blockIdx.x * THREADS + threadIdx.x;
  if (tid < n && updating[tid]) {
    mask[tid] = 1;
    visited[tid] = 1;
    *over = 1;
    updating[tid] = 0;
  }
}

int main(int argc, char **argv) {
  int n = bench_arg(argc, argv, 1, 65536, "bfs [nodes] (a multiple of 256)");
  if (n % THREADS) {
    std::fprintf(stderr, "usage: bfs [nodes] (a multiple of 256)\n");
    return 2;
  }
  Rng r(191);
  Buf<int> start(n), degree(n), cost(n), over(1);
  int ne = 0;
  for (int i = 0; i < n; i++) start[i] = ne, degree[i] = 1 + (int)r.below(11), ne += degree[i];
  Buf<int> edges(ne);
  for (int e = 0; e < ne; e++) edges[e] = (int)r.below(n);
  Buf<char> mask(n), updating(n), visited(n);
  for (int i = 0; i < n; i++) cost[i] = -1;
  cost[0] = 0, mask[0] = 1, visited[0] = 1;
  start.up(), degree.up(), edges.up(), cost.up(), mask.up(), updating.up(), visited.up();
  int levels = 0;
  do {
    over[0] = 0;
    over.up();
    Kernel<<<n / THREADS, THREADS>>>(start.d, degree.d, edges.d, mask.d, updating.d, visited.d, cost.d, n);
    CK_LAUNCH();
    Kernel2<<<n / THREADS, THREADS>>>(mask.d, updating.d, visited.d, over.d, n);
    CK_LAUNCH();
    over.down();
    levels++;
  } while (over[0] && levels < n);
  cost.down();
  int *want = (int *)std::malloc(n * sizeof(int)), *queue = (int *)std::malloc(n * sizeof(int));
  if (!want || !queue) return 1;
  for (int i = 0; i < n; i++) want[i] = -1;
  int head = 0, tail = 0;
  want[0] = 0, queue[tail++] = 0;
  while (head < tail) {
    int v = queue[head++];
    for (int i = start[v]; i < start[v] + degree[v]; i++)
      if (want[edges[i]] < 0) want[edges[i]] = want[v] + 1, queue[tail++] = edges[i];
  }
  std::printf("bfs: %d nodes, %d edges, %d levels, %d reached\n", n, ne, levels, tail);
  int bad = bench_compare("cost", cost.h, want, n, 0, 0);
  std::free(want), std::free(queue);
  return bench_done("bfs", bad);
}
