#!/usr/bin/env bash
# Times two rfsim builds side by side: both run at the same moment, one on each of two cores, so
# that the host's drift (on a shared 2-core VM, 30% from one minute to the next) falls on both
# alike. Each round swaps the cores (taskset), because the two cores need not be equal: on this
# project's VM one ran a one-thread run 7-17% slower than the other, and an unswapped series
# carried that as a difference between the builds. For speed work, beside tools/stats_identical.sh
# (are the results the same?) and make bench-count (how many instructions?).
#
#   tools/side_by_side.sh A_BIN B_BIN ROUNDS TRACE_DIR CONFIG [TRACE_DIR CONFIG ...]
#
# Prints, per trace and config, the summed run times (rfsim's own figure, "in S s": without
# start-up) of A and of B, B's against A's, and each core's sum, then the totals. Runs are
# one thread, warm trace cache, -quiet. Exit status: 0, or 1 if a run failed (its message is
# printed), 2 on a usage error.
set -euo pipefail
if [ $# -lt 5 ] || [ $((($# - 3) % 2)) -ne 0 ]; then
  echo "usage: $0 A_BIN B_BIN ROUNDS TRACE_DIR CONFIG [TRACE_DIR CONFIG ...]" >&2
  exit 2
fi
a=$1 b=$2 rounds=$3
shift 3
for bin in "$a" "$b"; do
  [ -x "$bin" ] || { echo "$0: $bin: expected an executable rfsim" >&2; exit 2; }
done
case $rounds in '' | *[!0-9]* | 0) echo "$0: ROUNDS: expected a whole number >= 1, found '$rounds'" >&2; exit 2 ;; esac
command -v taskset >/dev/null || { echo "$0: taskset is missing (Debian: util-linux)" >&2; exit 2; }
cores=$(nproc)
[ "$cores" -ge 2 ] || { echo "$0: needs two cores, this process may use $cores" >&2; exit 2; }
read -r cpu0 cpu1 < <(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' |
  awk -F- '{ if (NF == 2) for (c = $1; c <= $2; c++) print c; else print $1 }' | head -2 | paste -sd' ')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one run: BIN CPU TRACE_DIR CONFIG OUT; OUT gets the run's seconds, or the run fails
run() {
  if ! taskset -c "$2" "$1" -trace "$3/kernelslist.g" -config "$4" -quiet >/dev/null 2>"$5.err"; then
    echo "$0: $1 on $3 ($4) failed:" >&2
    tail -3 "$5.err" >&2
    return 1
  fi
  sed -nE 's/^rfsim: simulated .* in ([0-9.]+) s:.*/\1/p' "$5.err" > "$5"
  [ -s "$5" ] || { echo "$0: $1 on $3: no run time in its summary" >&2; return 1; }
}

# each run as a line "TRACE CONFIG BUILD CPU SECONDS", summed at the end
: > "$tmp/runs"
while [ $# -gt 0 ]; do
  dir=$1 cfg=$2
  shift 2
  for ((r = 1; r <= rounds; r++)); do
    # A on the first core in odd rounds, on the second in even ones
    if ((r % 2)); then ca=$cpu0 cb=$cpu1; else ca=$cpu1 cb=$cpu0; fi
    run "$a" "$ca" "$dir" "$cfg" "$tmp/a" & pa=$!
    run "$b" "$cb" "$dir" "$cfg" "$tmp/b" & pb=$!
    ok=1
    wait "$pa" || ok=0
    wait "$pb" || ok=0
    [ "$ok" = 1 ] || exit 1
    echo "$dir $(basename "$cfg") A $ca $(cat "$tmp/a")" >> "$tmp/runs"
    echo "$dir $(basename "$cfg") B $cb $(cat "$tmp/b")" >> "$tmp/runs"
  done
done
awk -v n="$rounds" -v p0="$cpu0" -v p1="$cpu1" '
  { key = $1 " " $2; if (!(key in seen)) { seen[key] = 1; order[++k] = key }
    t[key, $3] += $5; cpu[key, $4] += $5; total[$3] += $5 }
  END {
    for (i = 1; i <= k; i++) {
      key = order[i]
      printf "side_by_side: %s: A %.3f s, B %.3f s (%d runs each): B/A %.4f; CPU %s %.3f s, CPU %s %.3f s\n",
             key, t[key, "A"], t[key, "B"], n, t[key, "B"] / t[key, "A"], p0, cpu[key, p0], p1, cpu[key, p1]
    }
    printf "side_by_side: total: A %.3f s, B %.3f s: B/A %.4f\n", total["A"], total["B"], total["B"] / total["A"]
  }' "$tmp/runs"
