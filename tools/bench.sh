#!/usr/bin/env bash
# `make bench`: simulation speed on the matrixmul trace tiled to 240 thread blocks (1,059,840
# warp instructions) with each of BENCH_CONFIGS (default gtx480 titanx titanv): building the
# binary trace cache while reading the text (cold) and reading the cache (warm), and with the
# first config also reading the text only (text) and the same trace xz-compressed (xz), and the
# reader alone on the text and the archive; warm again with the SMs stepped on 2 and 4 threads
# (-threads; BENCH_THREADS), with the speed-up over one thread, the cores this machine has and
# the ceiling they offer (as many one-thread runs at once);
# then the co-simulation overhead: a
# WarpMan workload (BENCH_HW_TRACE, default warpman_ray, 30 units: wm_check and wm_wlbuf on 15 SMs) with the
# units as the C reference (-hw c), as Verilated RTL (-hw rtl) and both compared every cycle
# (-hw lockstep), without and with an FST waveform, as ratios to -hw c. Prints the median of RUNS
# runs; then real kernels, traced cuda/ programs where make cuda-traces has built them
# (BENCH_CUDA, BENCH_CUDA_RUNS), and the tracer. Timing is reported, never asserted.
set -euo pipefail
hw_trace=${BENCH_HW_TRACE:-build/traces/warpman_ray/kernelslist.g}
trace=${BENCH_TRACE:-build/traces/matrixmul_x240/kernelslist.g}
xz_trace=${BENCH_XZ_TRACE:-build/traces/matrixmul_x240_xz/kernelslist.g}
configs=(${BENCH_CONFIGS:-gtx480 titanx titanv})
threads=(${BENCH_THREADS:-2 4})
config=configs/${configs[0]}.config # the co-simulation's
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: run_once CFG THREADS TRACE_CACHE_MODE TRACE prints
# "rate cycles/s RSS warp-instructions cycles wall" from rfsim's summary line
# ("rfsim: simulated W warp instructions, C cycles in S s: R warp-inst/s, Y cycles/s, peak RSS M MB").
run_once() {
  bin/rfsim -trace "$4" -config "configs/$1.config" -trace_cache "$3" -quiet -threads "$2" \
    -trace_cache_dir "$tmp/cache" 2>&1 >/dev/null | grep '^rfsim: simulated' |
    sed -E 's/.*simulated ([0-9]+) warp instructions, ([0-9]+) cycles in ([0-9.]+) s: ([0-9]+) warp-inst\/s, ([0-9]+) cycles\/s, peak RSS ([0-9.]+) MB/\4 \5 \6 \1 \2 \3/'
}

# The median of numbers, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# median_run N COLD ARGS...: N runs of run_once ARGS (COLD "cold": the cache removed before
# each), the median one by rate with the lowest and highest rate and the peak RSS of all:
# "rate cycles/s peak-RSS warp-instructions cycles wall min-rate max-rate".
median_run() {
  local n=$1 cold=$2
  shift 2
  for _ in $(seq "$n"); do
    [ "$cold" = cold ] && rm -rf "$tmp/cache"
    run_once "$@"
  done | sort -g | awk '{ line[NR] = $0; if ($3 > rss) rss = $3 }
    END { split(line[int((NR + 1) / 2)], f); split(line[1], lo); split(line[NR], hi)
          print f[1], f[2], rss, f[4], f[5], f[6], lo[1], hi[1] }'
}

# Median of RUNS runs of the trace with config CFG (a name in configs/), reading it as LABEL says:
#   text: -trace_cache off: parse the text only
#   xz:   -trace_cache off on the same trace as kernel-1.traceg.xz: decode and parse
#   cold: no cache yet (removed before each run): parse the text and write the binary cache
#   warm: the cache is there: read it (the default, -trace_cache on)
# The caches go to a folder of the benchmark's own, so that "cold" is cold.
speed() {
  local cfg=$1 label=$2 mode=on trace=$trace
  [ "$label" = text ] && mode=off
  [ "$label" = xz ] && mode=off && trace=$xz_trace
  median_run "$runs" "$label" "$cfg" 1 "$mode" "$trace" |
    awk -v runs="$runs" -v label="$label" -v cfg="$cfg" '{
      if (label == "cold")
        printf "bench: %s: %s warp instructions, %s simulated cycles, median of %d runs\n", \
               cfg, $4, $5, runs
      printf "bench: %-7s -hw c, %-4s %6.2f M warp-inst/s (min %.2f, max %.2f), %6.3f s wall, " \
             "%.1f K cycles/s, peak RSS %.1f MB\n", cfg, label, $1 / 1e6, $7 / 1e6, $8 / 1e6, $6,
             $2 / 1e3, $3
    }'
}

# Warm on THREADS threads, each of RUNS runs right after a one-thread run: the speed-up is the
# median of the pairs' ratios, so that the load of a shared machine, which drifts over seconds,
# weighs on both sides of each ratio alike (two medians taken a minute apart differed by more
# than the effects measured).
# With each pair, the ceiling the machine offers right then: as many one-thread runs at once as
# the team has threads (at most the cores), their rates against the pair's one-thread run,
# summed. A host that gives its virtual cores less than a whole core each (their speed here
# drifted by 20-30% over minutes) lowers the ceiling and the speed-up alike; the ceiling tells
# the two apart. Last, the share of the one-thread run that the team's rounds of as many cycles
# would take with no work in them (round_ns).
paired() {
  local cfg=$1 n=$2 one many copies=$2 i
  [ "$copies" -gt "$(nproc)" ] && copies=$(nproc)
  : > "$tmp/pairs"
  : > "$tmp/ceilings"
  for _ in $(seq "$runs"); do
    one=$(run_once "$cfg" 1 on "$trace") many=$(run_once "$cfg" "$n" on "$trace")
    echo "$many $one" >> "$tmp/pairs"
    for i in $(seq "$copies"); do run_once "$cfg" 1 on "$trace" > "$tmp/copy.$i" & done
    wait
    cat "$tmp"/copy.* | awk -v one="${one##* }" '{ sum += one / $6 } END { print sum }' \
      >> "$tmp/ceilings"
    rm -f "$tmp"/copy.*
  done
  # (mawk has no asort: sort each column on its own)
  col() { awk -v c="$1" '{ print $c }' "$tmp/pairs" | sort -g | tr '\n' ' '; }
  awk -v cfg="$cfg" -v th="$n" -v rate="$(col 1)" -v cps="$(col 2)" -v rss="$(col 3)" \
      -v wall="$(col 6)" \
      -v ratio="$(awk '{ print $12 / $6 }' "$tmp/pairs" | sort -g | tr '\n' ' ')" \
      -v floor="$(awk -v ns="${round_ns[$n]}" '{ print $5 * ns * 1e-9 / $12 }' "$tmp/pairs" |
                  median)" \
      -v ceil="$(sort -g "$tmp/ceilings" | tr '\n' ' ')" -v copies="$copies" '
    BEGIN {
      n = split(rate, r); split(cps, c); split(rss, m); split(wall, w); split(ratio, x)
      split(ceil, e)
      k = int((n + 1) / 2)
      printf "bench: %-7s -hw c, warm -threads %d %6.2f M warp-inst/s (min %.2f, max %.2f), " \
             "%6.3f s wall, %.1f K cycles/s, peak RSS %.1f MB, %.2fx one thread " \
             "(median of %d pairs, min %.2fx, max %.2fx); ceiling %.2fx (%d one-thread runs " \
             "at once, min %.2fx, max %.2fx); its team rounds alone %.0f%% of a one-thread " \
             "run\n", cfg, th, r[k] / 1e6, r[1] / 1e6,
             r[n] / 1e6, w[k], c[k] / 1e3, m[n], x[k], n, x[1], x[n], e[k], copies, e[1], e[n],
             floor * 100
    }'
}

echo "bench: $(nproc) cores here; -threads N steps the SMs of a cluster on one of N threads"
# What a round of the team costs here with no work in it (bin/team-round): the least -threads N
# adds to each simulated cycle it steps on the team, set beside each speed-up below as the
# share of a one-thread run that the rounds of its cycles would take alone.
# With more threads than cores rfsim steps on as many as the cores (the measured pace), so the
# rounds that count are those of that team.
declare -A round_ns
round_line() { bin/team-round -threads "$1" -rounds 20000; }
ns_of() { sed -E 's/.*: ([0-9]+) ns a round.*/\1/'; }
for n in "${threads[@]}"; do
  if [ "$n" -le 1 ]; then round_ns[$n]=0; continue; fi # (no team)
  line=$(round_line "$n")
  echo "bench: ${line#team-round: }"
  round_ns[$n]=$(echo "$line" | ns_of)
  if [ "$n" -gt "$(nproc)" ]; then
    round_ns[$n]=0 # (that team's round, measured above if its size is in the list)
    [ "$(nproc)" -gt 1 ] && round_ns[$n]=${round_ns[$(nproc)]:-$(round_line "$(nproc)" | ns_of)}
    echo "bench: -threads $n: rfsim steps on $(nproc) thread(s) here, one per core (it says" \
         "so), whose round costs ${round_ns[$n]} ns"
  fi
done
for cfg in "${configs[@]}"; do
  speed "$cfg" cold
  speed "$cfg" warm
  for n in "${threads[@]}"; do paired "$cfg" "$n"; done
  if [ "$cfg" = "${configs[0]}" ]; then speed "$cfg" text; speed "$cfg" xz; fi
done
cache_mb=$(du -k "$tmp/cache" | awk '{printf "%.1f", $1 / 1024}')
trace_mb=$(du -ck "$(dirname "$trace")"/*.traceg | awk 'END {printf "%.1f", $1 / 1024}')
xz_mb=$(du -ck "$(dirname "$xz_trace")"/*.traceg.xz | awk 'END {printf "%.2f", $1 / 1024}')
echo "bench: binary trace cache $cache_mb MB for $trace_mb MB of trace text ($xz_mb MB as xz)"

# Reading alone (bin/traceinfo reads every thread block through the same reader, no
# simulation): the text against the xz archive, median wall seconds of RUNS runs each.
read_s() {
  local start
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    bin/traceinfo --no-tbs "$1" > /dev/null
    awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'
  done | median
}
rt=$(read_s "$trace") rx=$(read_s "$xz_trace")
awk -v t="$rt" -v x="$rx" 'BEGIN { printf "bench: reading alone (traceinfo): text %.3f s, xz %.3f s (%.2fx)\n", t, x, x / t }'

# ---- co-simulation overhead ----
# median wall seconds of RUNS runs of rfsim with the given extra options
median_s() {
  for _ in $(seq "$runs"); do
    rm -f "$tmp"/w.fst*
    bin/rfsim -trace "$hw_trace" -config "$config" -rfsim_policy warpman -warpman_mode spatial \
      -quiet "$@" 2>&1 >/dev/null | sed -nE 's/^rfsim: simulated .* cycles in ([0-9.]+) s:.*/\1/p'
  done | median
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

# Real kernels: traced cuda/ programs (make cuda-traces) of three kinds, memory-bound (atax:
# A^T(Ax), a column walk), irregular (bfs) and compute-bound (lavamd), each on the TITAN X
# config (its sm_61 trace) and the TITAN V config (sm_70), one thread, warm (a first run builds
# the cache). The matrixmul trace above issues about one warp instruction per SM per cycle; a
# memory-bound kernel issues far fewer, so its warp-inst/s is lower for the same cycles/s.
# Skipped for a trace that is not built.
cuda_runs=${BENCH_CUDA_RUNS:-1}
for prog in ${BENCH_CUDA:-atax bfs lavamd}; do
  for pair in "$prog:titanx" "$prog-sm70:titanv"; do
    dir=build/cuda-traces/${pair%%:*} cfg=${pair##*:}
    if [ ! -f "$dir/kernelslist.g" ]; then
      echo "bench: $dir skipped: not built (make cuda-traces)"
      continue
    fi
    run_once "$cfg" 1 on "$dir/kernelslist.g" > /dev/null # builds the cache
    median_run "$cuda_runs" warm "$cfg" 1 on "$dir/kernelslist.g" |
      awk -v d="$dir" -v cfg="$cfg" -v n="$cuda_runs" '{
        printf "bench: %-30s %-7s warm %5.2f M warp-inst/s, %6.1f K cycles/s, %.2f " \
               "warp-inst per cycle, %.2f s wall, peak RSS %.1f MB (median of %d)\n", d, cfg,
               $1 / 1e6, $2 / 1e3, $4 / $5, $6, $3, n }'
  done
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
