#!/usr/bin/env bash
# `make calibrate`: runs every row of configs/reference/accelsim.tsv (the shared traces and
# matrixmul tiled to 1, 60, 240 and 960 thread blocks on the configs that mirror Accel-Sim's
# SM2_GTX480, SM6_TITANX and SM7_TITANV) and prints rfsim's figures beside Accel-Sim's, with
# the error of the three the model is held to: cycles (goal: within 10%), L2 accesses and
# average memory latency (goal: within 20%); L2 misses, icnt->L2 latency, DRAM-full stalls
# and DRAM reads are shown for diagnosis. A row outside its goal is marked '!'. This is a
# report: it fails only when a run fails.
#
# CALIBRATE_ROWS: an extended regular expression on "<trace> <config>" selecting rows (e.g.
# 'x60|x240', 'titanv'); the x960 rows take several minutes each.
# CALIBRATE_JOBS: rows run at once (default 1; each run is single-threaded).
set -euo pipefail
ref=${CALIBRATE_REF:-configs/reference/accelsim.tsv}
shared=${SHARED:-../shared}
build=${BUILD:-build}
rows=${CALIBRATE_ROWS:-.}
jobs=${CALIBRATE_JOBS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

trace_list() { # trace name -> its kernelslist
  case $1 in
    matrixmul_x*) echo "$build/traces/$1/kernelslist.g" ;;
    *) echo "$shared/traces/$1/kernelslist.g" ;;
  esac
}

# One run: the statistics of the whole run (the last value printed of each) into $tmp/<n>.out.
run_row() {
  local n=$1 trace=$2 config=$3 list
  list=$(trace_list "$trace")
  if [ ! -f "$list" ]; then
    echo "calibrate: $trace: no trace at $list" >&2
    return 1
  fi
  if ! nice bin/rfsim -config "configs/$config.config" -trace "$list" > "$tmp/$n.log" 2>&1; then
    echo "calibrate: $trace on $config failed:" >&2
    tail -5 "$tmp/$n.log" >&2
    return 1
  fi
  awk '$2 == "=" { v[$1] = $3 }
       END { printf "%s %s %s %s %s %s %s\n", v["gpu_sim_cycle"], v["L2_total_cache_accesses"],
             v["averagemflatency"], v["L2_total_cache_misses"], v["avg_icnt2mem_latency"],
             v["gpu_stall_dramfull"], v["dram_reads"] }' "$tmp/$n.log" > "$tmp/$n.out"
}
export -f run_row trace_list
export tmp shared build

grep -v '^#' "$ref" | tail -n +2 | awk -F'\t' -v re="$rows" '$1 " " $2 ~ re' > "$tmp/rows"
[ -s "$tmp/rows" ] || { echo "calibrate: no row of $ref matches '$rows'" >&2; exit 1; }
failed=0
awk -F'\t' '{ print NR, $1, $2 }' "$tmp/rows" |
  xargs -P "$jobs" -n 3 bash -c 'run_row "$0" "$1" "$2"' || failed=1

echo "calibrate: rfsim beside Accel-Sim ($ref)"
echo "calibrate: goals: cycles within 10%, L2 accesses and average memory latency within 20% ('!': outside)"
awk -F'\t' -v tmp="$tmp" '
  function err(a, b) { return b == 0 ? 0 : 100.0 * (a - b) / b }
  function cell(a, b, goal,   e) {
    e = err(a, b)
    return sprintf("%9d %9d %+6.1f%%%s", a, b, e, (e > goal || e < -goal) ? "!" : " ")
  }
  BEGIN {
    printf "%-15s %-7s %27s  %27s  %27s  %15s %11s %13s %11s\n", "trace", "config",
           "cycles: rfsim Accel-Sim", "L2 accesses: rfsim A-S", "avg mem latency: rfsim A-S",
           "L2 misses", "icnt->L2", "DRAM-full", "DRAM reads"
  }
  {
    f = tmp "/" NR ".out"
    if ((getline line < f) <= 0) next
    split(line, r, " ")
    n++
    c = err(r[1], $4); l2 = err(r[2], $7); lat = err(r[3], $9)
    ok_c += (c <= 10 && c >= -10); ok_l2 += (l2 <= 20 && l2 >= -20)
    ok_lat += (lat <= 20 && lat >= -20)
    printf "%-15s %-7s %s  %s  %s  %7d %7d %5.0f %5.0f %6d %6d %5d %5d\n", $1, $2,
           cell(r[1], $4, 10), cell(r[2], $7, 20), cell(r[3], $9, 20), r[4], $8, r[5], $10,
           r[6], $11, r[7], $12
  }
  END {
    printf "calibrate: %d rows; cycles within 10%%: %d, L2 accesses within 20%%: %d, " \
           "average memory latency within 20%%: %d\n", n, ok_c, ok_l2, ok_lat
  }' "$tmp/rows"
exit $failed
