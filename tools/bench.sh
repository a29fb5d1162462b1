#!/usr/bin/env bash
# `make bench`: simulation speed on the matrixmul trace tiled to 240 thread blocks (1,059,840
# warp instructions) with the GTX 480 config, then the co-simulation overhead: a WarpMan workload
# (BENCH_HW_TRACE, default warpman_ray, 30 units: wm_check and wm_wlbuf on 15 SMs) with the
# units as the C reference (-hw c), as Verilated RTL (-hw rtl) and both compared every cycle
# (-hw lockstep), without and with an FST waveform, as ratios to -hw c. Prints the median of RUNS
# runs; timing is reported, never asserted.
set -euo pipefail
hw_trace=${BENCH_HW_TRACE:-build/traces/warpman_ray/kernelslist.g}
trace=${BENCH_TRACE:-build/traces/matrixmul_x240/kernelslist.g}
config=${BENCH_CONFIG:-configs/gtx480.config}
runs=${RUNS:-5}
results=$(mktemp)

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

# ---- co-simulation overhead ----
tmp=$(mktemp -d)
trap 'rm -f "$results"; rm -rf "$tmp"' EXIT
# median wall seconds of RUNS runs of rfsim with the given extra options
median_s() {
  for _ in $(seq "$runs"); do
    rm -f "$tmp"/w*
    bin/rfsim -trace "$hw_trace" -config "$config" -rfsim_policy warpman -warpman_mode spatial \
      "$@" 2>&1 >/dev/null | sed -nE 's/^rfsim: simulated .* cycles in ([0-9.]+) s:.*/\1/p'
  done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
cycles=$(bin/rfsim -trace "$hw_trace" -config "$config" -rfsim_policy warpman -warpman_mode spatial 2>/dev/null |
         awk '/^---- total ----/ {t = 1} t && $1 == "gpu_sim_cycle" {print $3; exit}')
echo "bench: co-simulation, $hw_trace, WarpMan spatial, $cycles cycles, 2 units x 15 SMs," \
     "median of $runs runs (wall s, ratio to -hw c)"
for wave in no yes; do
  declare -A t=()
  for mode in c rtl lockstep; do
    if [ $wave = yes ]; then t[$mode]=$(median_s -hw $mode -wave "$tmp/w.fst")
    else t[$mode]=$(median_s -hw $mode); fi
  done
  awk -v c="${t[c]}" -v r="${t[rtl]}" -v l="${t[lockstep]}" -v w="$wave" 'BEGIN {
    printf "bench: %-13s -hw c %.3f s, -hw rtl %.3f s (%.2fx), -hw lockstep %.3f s (%.2fx)\n", \
           (w == "yes" ? "with FST:" : "no waveform:"), c, r, r / c, l, l / c }'
  unset t
done
