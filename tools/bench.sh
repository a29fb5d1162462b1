#!/usr/bin/env bash
# `make bench`: simulation speed on the matrixmul trace tiled to 240 thread blocks (1,059,840
# warp instructions) with the GTX 480 config. Prints the median of RUNS runs; timing is reported,
# never asserted.
set -euo pipefail
trace=${BENCH_TRACE:-build/traces/matrixmul_x240/kernelslist.g}
config=${BENCH_CONFIG:-configs/gtx480.config}
runs=${RUNS:-5}
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for _ in $(seq "$runs"); do
  # "rfsim: simulated W warp instructions, C cycles in S s: R warp-inst/s, Y cycles/s, peak RSS M MB"
  bin/rfsim -trace "$trace" -config "$config" 2>&1 >/dev/null | grep '^rfsim: simulated' |
    sed -E 's/.*simulated ([0-9]+) warp instructions, ([0-9]+) cycles in ([0-9.]+) s: ([0-9]+) warp-inst\/s, ([0-9]+) cycles\/s, peak RSS ([0-9.]+) MB/\4 \5 \6 \1 \2/' \
    >> "$results"
done
sort -n "$results" | awk -v runs="$runs" '
  { rate[NR] = $1; cps[NR] = $2; if ($3 > rss) rss = $3; winsts = $4; cycles = $5 }
  END {
    m = int((NR + 1) / 2)
    printf "bench: %s warp instructions, %s simulated cycles, median of %d runs\n", \
           winsts, cycles, runs
    printf "bench: -hw c  %.2f M warp-inst/s (min %.2f, max %.2f), %.0f K cycles/s, " \
           "peak RSS %.1f MB\n", rate[m] / 1e6, rate[1] / 1e6, rate[NR] / 1e6, cps[m] / 1e3, rss
  }'
