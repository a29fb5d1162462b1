// btree: queries on a B+ tree of order 508 held in flat node arrays (the structure of Rodinia's
// b+tree): one 508-thread block per query walks the tree from the root, one level per step:
// thread t tests whether the key falls between the node's keys t and t+1, the one that matches
// writes the child to follow into the query's slot in global memory, and the block
// synchronises before every thread reads it (no shared memory). Nodes hold up to 400 keys, so
// the last 108 threads (warps 13-15 and most of 12) never match anything.
//   findK: the record of one key (or -1): WarpMan's BT (warpman Table 2: B+Tree, 16 warps per
//     TB, 5632 registers per TB = 11 per thread, no shared memory, 3 TBs/SM on the GTX 480;
//     "one TB processes one query");
//   findRangeK: two walks at once, for the first and the last key of a range, and at the
//     leaves the positions where the range starts and ends: register sharing Set-1 (GPGPU-Sim
//     b+tree findRangeK, 508 threads, 24 registers, 2 TBs/SM on the Tesla C2050, 3 with 90%
//     sharing).
// Input (seeded): 200,000 sorted keys (500 leaves, 3 levels), 600 queries of each kind.
// Usage: btree [queries].
#include "../common/bench.h"

#define ORDER 508
#define FILL 400

struct Tree {
  const int *keys, *vals, *nkeys, *base; // per node: ORDER keys, ORDER values, count; leaf base
  int levels;
};

__global__ void findK(Tree tr, const int *query, int *curr, int *result) {
  int q = blockIdx.x, t = threadIdx.x, key = query[q];
  for (int level = 0; level < tr.levels; level++) {
    int node = curr[q];
    __syncthreads(); // all have read the node before one thread overwrites it
    int nk = tr.nkeys[node];
    if (t < nk) {
      const int *k = tr.keys + node * ORDER;
      int k0 = k[t];
      bool last = t == nk - 1;
      if (level < tr.levels - 1) {
        if ((t == 0 || k0 <= key) && (last || key < k[t + 1])) curr[q] = tr.vals[node * ORDER + t];
      } else if (k0 == key) {
        result[q] = tr.vals[node * ORDER + t];
      }
    }
    __syncthreads();
  }
}

__global__ void findRangeK(Tree tr, const int *lo, const int *hi, int *curr_lo, int *curr_hi,
                           int *start, int *end) {
  int q = blockIdx.x, t = threadIdx.x, a = lo[q], b = hi[q];
  for (int level = 0; level < tr.levels; level++) {
    int na = curr_lo[q], nb = curr_hi[q];
    __syncthreads();
    int ka = tr.nkeys[na], kb = tr.nkeys[nb];
    const int *keya = tr.keys + na * ORDER, *keyb = tr.keys + nb * ORDER;
    if (level < tr.levels - 1) {
      if (t < ka && (t == 0 || keya[t] <= a) && (t == ka - 1 || a < keya[t + 1]))
        curr_lo[q] = tr.vals[na * ORDER + t];
      if (t < kb && (t == 0 || keyb[t] <= b) && (t == kb - 1 || b < keyb[t + 1]))
        curr_hi[q] = tr.vals[nb * ORDER + t];
    } else {
      // the range's first position: keys below a in a's leaf; its end: keys up to b in b's leaf
      if (t < ka && keya[t] < a && (t == ka - 1 || keya[t + 1] >= a)) start[q] = tr.base[na] + t + 1;
      if (t == 0 && keya[0] >= a) start[q] = tr.base[na];
      if (t < kb && keyb[t] <= b && (t == kb - 1 || keyb[t + 1] > b)) end[q] = tr.base[nb] + t + 1;
      if (t == 0 && keyb[0] > b) end[q] = tr.base[nb];
    }
    __syncthreads();
  }
}

int main(int argc, char **argv) {
  int nq = bench_arg(argc, argv, 1, 600, "btree [queries]");
  const int nkeys = 200000;
  Rng r(121);
  int *sorted = (int *)std::malloc(nkeys * sizeof(int));
  if (!sorted) return 1;
  for (int i = 0, k = 0; i < nkeys; i++) sorted[i] = k += 1 + (int)r.below(3);
  // levels from the leaves up, then laid out root first
  int nleaf = (nkeys + FILL - 1) / FILL, counts[8], levels = 1;
  counts[0] = nleaf;
  while (counts[levels - 1] > 1) counts[levels] = (counts[levels - 1] + FILL - 1) / FILL, levels++;
  int nodes = 0, first[8]; // first[l]: index of level l's first node, level 0 the leaves
  for (int l = levels - 1; l >= 0; l--) first[l] = nodes, nodes += counts[l];
  Buf<int> keys((size_t)nodes * ORDER), vals((size_t)nodes * ORDER), nk(nodes), base(nodes);
  int *minkey = (int *)std::malloc(nodes * sizeof(int));
  if (!minkey) return 1;
  for (int i = 0; i < nleaf; i++) {
    int node = first[0] + i, n = nkeys - i * FILL < FILL ? nkeys - i * FILL : FILL;
    nk[node] = n, base[node] = i * FILL, minkey[node] = sorted[i * FILL];
    for (int j = 0; j < n; j++) keys[node * ORDER + j] = sorted[i * FILL + j], vals[node * ORDER + j] = 3 * (i * FILL + j) + 1;
  }
  for (int l = 1; l < levels; l++)
    for (int i = 0; i < counts[l]; i++) {
      int node = first[l] + i, n = counts[l - 1] - i * FILL < FILL ? counts[l - 1] - i * FILL : FILL;
      nk[node] = n, minkey[node] = minkey[first[l - 1] + i * FILL];
      for (int j = 0; j < n; j++) {
        int child = first[l - 1] + i * FILL + j;
        keys[node * ORDER + j] = minkey[child], vals[node * ORDER + j] = child;
      }
    }
  keys.up(), vals.up(), nk.up(), base.up();
  Tree tr{keys.d, vals.d, nk.d, base.d, levels};
  Buf<int> qk(nq), qlo(nq), qhi(nq), curr(nq), curr2(nq), res(nq), rs(nq), re(nq);
  for (int q = 0; q < nq; q++) {
    qk[q] = q % 5 < 3 ? sorted[r.below(nkeys)] : (int)r.below((uint32_t)sorted[nkeys - 1] + 10);
    qlo[q] = (int)r.below((uint32_t)sorted[nkeys - 1]);
    qhi[q] = qlo[q] + (int)r.below(4000);
  }
  qk.up(), qlo.up(), qhi.up();
  CK(cudaMemset(curr.d, 0, curr.bytes())); // every walk starts at the root, node 0
  CK(cudaMemset(res.d, 0xff, res.bytes()));
  findK<<<nq, ORDER>>>(tr, qk.d, curr.d, res.d);
  CK_LAUNCH();
  CK(cudaMemset(curr.d, 0, curr.bytes()));
  CK(cudaMemset(curr2.d, 0, curr2.bytes()));
  findRangeK<<<nq, ORDER>>>(tr, qlo.d, qhi.d, curr.d, curr2.d, rs.d, re.d);
  CK_LAUNCH();
  res.down(), rs.down(), re.down();
  int *want = (int *)std::malloc(3 * nq * sizeof(int));
  if (!want) return 1;
  for (int q = 0; q < nq; q++) {
    int lo = 0, hi = nkeys; // lower_bound of the key
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (sorted[mid] < qk[q]) lo = mid + 1;
      else hi = mid;
    }
    want[q] = lo < nkeys && sorted[lo] == qk[q] ? 3 * lo + 1 : -1;
    int a = 0, b = nkeys; // first key >= qlo, first key > qhi
    while (a < b) {
      int mid = (a + b) / 2;
      if (sorted[mid] < qlo[q]) a = mid + 1;
      else b = mid;
    }
    want[nq + q] = a;
    a = 0, b = nkeys;
    while (a < b) {
      int mid = (a + b) / 2;
      if (sorted[mid] <= qhi[q]) a = mid + 1;
      else b = mid;
    }
    want[2 * nq + q] = a;
  }
  int bad = bench_compare("record", res.h, want, nq, 0, 0) + bench_compare("range start", rs.h, want + nq, nq, 0, 0) +
            bench_compare("range end", re.h, want + 2 * nq, nq, 0, 0);
  std::free(sorted), std::free(minkey), std::free(want);
  return bench_done("btree", bad);
}
