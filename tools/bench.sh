#!/usr/bin/env bash
# `make bench`: simulation speed on the matrixmul trace tiled to 240 thread blocks (1,059,840
# warp instructions) with the GTX 480 config, reading the text (text), building the binary trace
# cache while reading it (cold) and reading the cache (warm); then the co-simulation overhead: a
# WarpMan workload (BENCH_HW_TRACE, default warpman_ray, 30 units: wm_check and wm_wlbuf on 15 SMs) with the
# units as the C reference (-hw c), as Verilated RTL (-hw rtl) and both compared every cycle
# (-hw lockstep), without and with an FST waveform, as ratios to -hw c. Prints the median of RUNS
# runs; timing is reported, never asserted.
set -euo pipefail
hw_trace=${BENCH_HW_TRACE:-build/traces/warpman_ray/kernelslist.g}
trace=${BENCH_TRACE:-build/traces/matrixmul_x240/kernelslist.g}
config=${BENCH_CONFIG:-configs/gtx480.config}
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Median of RUNS runs of the trace, reading it as LABEL says:
#   text: -trace_cache off: parse the text only
#   cold: no cache yet (removed before each run): parse the text and write the binary cache
#   warm: the cache is there: read it (the default, -trace_cache on)
# The caches go to a folder of the benchmark's own, so that "cold" is cold.
speed() {
  local label=$1 mode=on
  [ "$label" = text ] && mode=off
  : > "$tmp/results"
  for _ in $(seq "$runs"); do
    [ "$label" = cold ] && rm -rf "$tmp/cache"
    # "rfsim: simulated W warp instructions, C cycles in S s: R warp-inst/s, Y cycles/s, peak RSS M MB"
    bin/rfsim -trace "$trace" -config "$config" -trace_cache "$mode" \
      -trace_cache_dir "$tmp/cache" 2>&1 >/dev/null | grep '^rfsim: simulated' |
      sed -E 's/.*simulated ([0-9]+) warp instructions, ([0-9]+) cycles in ([0-9.]+) s: ([0-9]+) warp-inst\/s, ([0-9]+) cycles\/s, peak RSS ([0-9.]+) MB/\4 \5 \6 \1 \2 \3/' \
      >> "$tmp/results"
  done
  sort -n "$tmp/results" | awk -v runs="$runs" -v label="$label" '
    { rate[NR] = $1; cps[NR] = $2; if ($3 > rss) rss = $3; winsts = $4; cycles = $5; wall[NR] = $6 }
    END {
      m = int((NR + 1) / 2)
      if (label == "text")
        printf "bench: %s warp instructions, %s simulated cycles, median of %d runs\n", \
               winsts, cycles, runs
      printf "bench: -hw c, %-4s %6.2f M warp-inst/s (min %.2f, max %.2f), %5.3f s wall, " \
             "%.0f K cycles/s, peak RSS %.1f MB\n", label, rate[m] / 1e6, rate[1] / 1e6, \
             rate[NR] / 1e6, wall[m], cps[m] / 1e3, rss
    }'
}
speed text
speed cold
speed warm
cache_mb=$(du -k "$tmp/cache" | awk '{printf "%.1f", $1 / 1024}')
trace_mb=$(du -ck "$(dirname "$trace")"/*.traceg | awk 'END {printf "%.1f", $1 / 1024}')
echo "bench: binary trace cache $cache_mb MB for $trace_mb MB of trace text"

# ---- co-simulation overhead ----
# median wall seconds of RUNS runs of rfsim with the given extra options
median_s() {
  for _ in $(seq "$runs"); do
    rm -f "$tmp"/w.fst*
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

# The tracer: rfsim-trace on cuda/matrixmul (n = 256: 64 blocks, 1.6 M warp instructions), CPU
# time of the interpreter as rfsim-trace reports it. Needs the CUDA 11.8 toolkit to build the
# program (make cuda-toolkit); skipped without it.
if [ -x /usr/bin/nvcc ]; then
  mkdir -p build/cuda/matrixmul
  PATH=/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:/bin /usr/bin/nvcc -ccbin clang++-14 \
    -arch=sm_61 -cudart shared -O3 -o build/cuda/matrixmul/matrixmul cuda/matrixmul/matrixmul.cu
  : > "$tmp/trace_rates"
  for _ in $(seq "$runs"); do
    rm -rf "$tmp/mm"
    bin/rfsim-trace -o "$tmp/mm" build/cuda/matrixmul/matrixmul 256 2>&1 >/dev/null |
      sed -n 's/.* \([0-9]*\) warp instructions traced in \([0-9.]*\) s of CPU (\([0-9.]*\) M.*/\1 \2 \3/p' \
      >> "$tmp/trace_rates"
  done
  sort -k3 -g "$tmp/trace_rates" | awk -v n="$runs" '{r[NR] = $3; w = $1; s[NR] = $2}
    END {printf "bench: rfsim-trace, cuda/matrixmul n=256: %d warp instructions, %.2f M warp-inst/s " \
         "traced (median of %d, min %.2f, max %.2f), %.2f s of CPU\n", w, r[int((n + 1) / 2)], n, \
         r[1], r[n], s[int((n + 1) / 2)]}'
else
  echo "bench: rfsim-trace skipped: no CUDA 11.8 toolkit (make cuda-toolkit)"
fi
