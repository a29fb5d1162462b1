#!/usr/bin/env bash
# `make bench-count`: the instructions the host executes for the warm x240 matrixmul run (the
# trace `make bench` times) on each of BENCH_CONFIGS, counted by Valgrind's callgrind. Unlike a
# time, the count does not move with the host's load or clock (on a shared 2-core machine two
# timings minutes apart differ by more than most changes), so it is the figure to compare
# before and after a change; what it does not see (cache misses, mispredicted branches, other
# threads' waits) the timed `make bench` still has to confirm. Counts all threads (the trace's
# read-ahead thread included) and the simulating one alone, per warp instruction and per
# simulated cycle, and the source files whose code executes most on the simulating thread
# (BENCH_COUNT_TOP, 0 for none). One thread only: under Valgrind threads run one at a time, so
# a -threads run would count its members' spinning.
#
# BENCH_CACHE=1 also simulates the host's data caches (callgrind --cache-sim, about twice as
# slow) and prints the simulating thread's L1 and last-level data misses: where the run waits
# for memory (the TITAN V config's 80 SMs), a count that repeats where a timing does not. The
# caches are this project's VM's cores by default (BENCH_CACHE_D1=32768,8,64,
# BENCH_CACHE_LL=1048576,16,64: size, ways, line; Valgrind wants a power of two of sets). The
# simulation has no prefetcher and ignores prefetch instructions: it counts what the code
# touches, not what the host's prefetchers hide.
set -euo pipefail
trace=${BENCH_TRACE:-build/traces/matrixmul_x240/kernelslist.g}
read -ra configs <<< "${BENCH_CONFIGS:-gtx480 titanx titanv}"
top=${BENCH_COUNT_TOP:-5}
bin=${BENCH_BIN:-bin/rfsim}
cache=${BENCH_CACHE:-0}
d1=${BENCH_CACHE_D1:-32768,8,64}
ll=${BENCH_CACHE_LL:-1048576,16,64}
sim=()
[ "$cache" = 1 ] && sim=(--cache-sim=yes "--D1=$d1" "--LL=$ll")
command -v valgrind >/dev/null || {
  echo "bench-count: valgrind is not installed (Debian: apt-get install valgrind)" >&2
  exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the summary line's warp instructions and cycles ("rfsim: simulated W warp instructions, C cycles in ...")
summary() {
  sed -nE 's/^rfsim: simulated ([0-9]+) warp instructions, ([0-9]+) cycles in .*/\1 \2/p' "$1"
}

# the total of one callgrind output file ("summary: N", or "totals: N" in newer Valgrinds)
total_of() {
  awk '/^(summary|totals):/ { print $2; exit }' "$1"
}

# the total of event $2 (D1mr, DLmw, ...) in one callgrind output file, by the "events:" line
event_of() {
  awk -v ev="$2" '/^events:/ { for (i = 2; i <= NF; i++) if ($i == ev) col = i }
    /^(summary|totals):/ { print (col ? $col : 0); exit }' "$1"
}

echo "bench-count: $bin on $trace, warm trace cache, one thread; instructions counted by callgrind"
[ "$cache" = 1 ] && echo "bench-count: data caches simulated: L1 $d1, last level $ll (size,ways,line)"
for cfg in "${configs[@]}"; do
  # warm the cache first: the count is of a run that reads it
  "$bin" -trace "$trace" -config "configs/$cfg.config" -trace_cache_dir "$tmp/cache" -quiet \
    2> "$tmp/warm.err" > /dev/null || { cat "$tmp/warm.err" >&2; exit 1; }
  rm -f "$tmp"/cg.out*
  valgrind --tool=callgrind --separate-threads=yes "${sim[@]}" --callgrind-out-file="$tmp/cg.out" \
    "$bin" -trace "$trace" -config "configs/$cfg.config" -trace_cache_dir "$tmp/cache" -quiet \
    2> "$tmp/run.err" > /dev/null || { cat "$tmp/run.err" >&2; exit 1; }
  read -r winsts cycles < <(summary "$tmp/run.err") || {
    echo "bench-count: $bin printed no summary line:" >&2
    cat "$tmp/run.err" >&2
    exit 1
  }
  all=0
  for f in "$tmp"/cg.out-*; do all=$((all + $(total_of "$f"))); done
  main=$(total_of "$tmp/cg.out-01")
  awk -v cfg="$cfg" -v all="$all" -v main="$main" -v w="$winsts" -v c="$cycles" 'BEGIN {
    printf "bench-count: %-7s %.3f G instructions (simulating thread %.3f G), %.0f per warp " \
           "instruction, %.0f per simulated cycle (%d warp instructions, %d cycles)\n",
           cfg, all / 1e9, main / 1e9, all / w, all / c, w, c }'
  if [ "$cache" = 1 ]; then
    f="$tmp/cg.out-01"
    awk -v cfg="$cfg" -v w="$winsts" \
        -v l1="$(( $(event_of "$f" D1mr) + $(event_of "$f" D1mw) ))" \
        -v llm="$(( $(event_of "$f" DLmr) + $(event_of "$f" DLmw) ))" 'BEGIN {
      printf "bench-count: %-7s data misses of the simulating thread: L1 %.1f M, last level " \
             "%.2f M (%.1f and %.2f per warp instruction)\n", cfg, l1 / 1e6, llm / 1e6,
             l1 / w, llm / w }'
  fi
  # by source file (inlining spreads a file's code over its callers' functions: summed back)
  if [ "$top" -gt 0 ]; then
    callgrind_annotate --inclusive=no --threshold=100 --show=Ir "$tmp/cg.out-01" 2>/dev/null |
      awk '/file:function/ { on = 1; getline; next }
        on && NF == 0 { on = 0 }
        on && $1 ~ /^[0-9,]+$/ { n = $1; gsub(",", "", n); sub(/\([^)]*\)/, ""); f = $2
                                 sub(/:.*/, "", f); sub(/^.*\/csim\//, "csim/", f)
                                 sub(/[a-z_]+\/\.\.\//, "", f); by[f] += n }
        END { for (f in by) printf "%d %s\n", by[f], f }' |
      sort -rn |
      awk -v main="$main" -v top="$top" '
        NR <= top { printf "bench-count:   %5.1f%%  %s\n", 100 * $1 / main, $2 }'
  # (awk reads the whole list: `head` would stop reading, and sort, still writing a list over a
  # pipe buffer long, would die of SIGPIPE, failing the run under pipefail)
  fi
done
