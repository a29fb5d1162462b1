// mummer: exact matching of short DNA reads against a reference genome through a suffix tree
// of the reference, the work of MUMmerGPU's kernel: one thread per read, and for every start
// position of the read, a walk down the tree from the root, one character per step, until the
// read leaves the tree; the thread records the match length of every start position. The tree
// is a suffix trie of the reference cut at depth 20 (nodes of four child indices, 16 bytes,
// read through the read-only path where MUMmerGPU used textures): each step is a dependent
// load to an unpredictable address, and the walks' lengths differ from read to read (reads
// copied from the reference with a few mutations match far, random ones a few characters), so
// the warps of a block finish at different times.
// Row: register sharing Set-1 (MUMmerGPU mummergpuKernel, 256 threads, 28 registers, 4 TBs/SM
// on the Tesla C2050, 6 with 90% sharing).
// Input (seeded): a 40,000-base reference, 120 blocks x 256 reads of 20 bases, 3/4 of them
// taken from the reference with 0-3 substitutions. Usage: mummer [blocks].
#include "../common/bench.h"

#define READ 20
#define DEPTH 20
#define THREADS 256

__host__ __device__ inline int walk(const int4 *__restrict__ trie, const unsigned char *read, int s) {
  int node = 0, len = 0;
  for (int k = s; k < READ && len < DEPTH; k++) {
    int4 c = trie[node];
    int b = read[k], next = b == 0 ? c.x : b == 1 ? c.y : b == 2 ? c.z : c.w;
    if (next < 0) break;
    node = next;
    len++;
  }
  return len;
}

__global__ void mummergpuKernel(const int4 *__restrict__ trie, const unsigned char *__restrict__ reads,
                                unsigned char *__restrict__ lengths) {
  int q = blockIdx.x * THREADS + threadIdx.x;
  unsigned char read[READ];
  for (int k = 0; k < READ; k++) read[k] = reads[(size_t)k * gridDim.x * THREADS + q];
  for (int s = 0; s < READ; s++) lengths[(size_t)s * gridDim.x * THREADS + q] = (unsigned char)walk(trie, read, s);
}

int main(int argc, char **argv) {
  int blocks = bench_arg(argc, argv, 1, 120, "mummer [blocks]"), nreads = blocks * THREADS;
  const int nref = 40000;
  Rng r(161);
  unsigned char *ref = (unsigned char *)std::malloc(nref);
  int4 *trie = (int4 *)std::malloc((size_t)nref * DEPTH * sizeof(int4) + sizeof(int4));
  if (!ref || !trie) return 1;
  for (int i = 0; i < nref; i++) ref[i] = (unsigned char)r.below(4);
  int nodes = 1;
  trie[0] = make_int4(-1, -1, -1, -1);
  for (int i = 0; i < nref; i++) { // every suffix, up to DEPTH characters
    int node = 0;
    for (int k = i; k < nref && k < i + DEPTH; k++) {
      int *c = &trie[node].x + ref[k];
      if (*c < 0) {
        trie[nodes] = make_int4(-1, -1, -1, -1);
        *c = nodes++;
      }
      node = *c;
    }
  }
  Buf<int4> dtrie(nodes);
  std::memcpy(dtrie.h, trie, nodes * sizeof(int4));
  Buf<unsigned char> reads((size_t)READ * nreads), len((size_t)READ * nreads);
  for (int q = 0; q < nreads; q++) {
    int from = (int)r.below(nref - READ), copy = r.below(4) != 0;
    for (int k = 0; k < READ; k++) reads[(size_t)k * nreads + q] = copy ? ref[from + k] : (unsigned char)r.below(4);
    for (int m = copy ? (int)r.below(4) : 0; m > 0; m--) reads[(size_t)r.below(READ) * nreads + q] = (unsigned char)r.below(4);
  }
  dtrie.up(), reads.up();
  mummergpuKernel<<<blocks, THREADS>>>(dtrie.d, reads.d, len.d);
  CK_LAUNCH();
  len.down();
  unsigned char *want = (unsigned char *)std::malloc(len.n);
  if (!want) return 1;
  long total = 0;
  for (int q = 0; q < nreads; q++) {
    unsigned char read[READ];
    for (int k = 0; k < READ; k++) read[k] = reads[(size_t)k * nreads + q];
    for (int s = 0; s < READ; s++) total += want[(size_t)s * nreads + q] = (unsigned char)walk(trie, read, s);
  }
  std::printf("mummer: %d trie nodes, %d reads, mean match %.2f per start\n", nodes, nreads,
              (double)total / ((double)nreads * READ));
  int bad = bench_compare("length", len.h, want, len.n, 0, 0);
  std::free(ref), std::free(trie), std::free(want);
  return bench_done("mummer", bad);
}
