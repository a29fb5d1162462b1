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
set -euo pipefail
trace=${BENCH_TRACE:-build/traces/matrixmul_x240/kernelslist.g}
read -ra configs <<< "${BENCH_CONFIGS:-gtx480 titanx titanv}"
top=${BENCH_COUNT_TOP:-5}
bin=${BENCH_BIN:-bin/rfsim}
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

echo "bench-count: $bin on $trace, warm trace cache, one thread; instructions counted by callgrind"
for cfg in "${configs[@]}"; do
  # warm the cache first: the count is of a run that reads it
  "$bin" -trace "$trace" -config "configs/$cfg.config" -trace_cache_dir "$tmp/cache" -quiet \
    2> "$tmp/warm.err" > /dev/null || { cat "$tmp/warm.err" >&2; exit 1; }
  rm -f "$tmp"/cg.out*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cg.out" \
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
  # by source file (inlining spreads a file's code over its callers' functions: summed back)
  if [ "$top" -gt 0 ]; then
    callgrind_annotate --inclusive=no --threshold=100 "$tmp/cg.out-01" 2>/dev/null |
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
