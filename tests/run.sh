#!/usr/bin/env bash
# Runs every test binary given, shows their cmocka output, and closes with one summary line
# "tests: N passed, N failed, N skipped". Exits non-zero if any test failed or a binary crashed.
# Each binary's output is shown whole when it ends, followed by its wall time ("-- <binary>:
# S s"); the slowest are listed at the end, to keep the CI budget in view.
#
# Binaries run TEST_JOBS at a time (default: the number of cores), in the order given, so the
# caller lists the long ones first. The unit tests (test_hw_*) run one after another in one slot:
# several drive the same unit and write the same waveform files under build/hw/wave. The others
# write only into their own temporary folders (tu_mkdtemp), and the trace cache they share
# renames its files into place whole.
set -u
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in
  '' | *[!0-9]* | 0) echo "tests/run.sh: TEST_JOBS='$jobs': expected a number of jobs >= 1" >&2; exit 2 ;;
esac
# the trace cache of every test goes to build/test-cache, never to the user's ~/.cache/rfsim
# (tests that run bin/rfsim set the same themselves: tu_private_cache)
export XDG_CACHE_HOME="$PWD/build/test-cache"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one slot's work: run its binaries in turn, each into $tmp/<n>.out, .rc and .secs
run_slot() {
  local n t start
  for n in "$@"; do
    t=$(cat "$tmp/$n.name")
    start=$(date +%s.%N)
    "$t" > "$tmp/$n.out" 2>&1
    echo $? > "$tmp/$n.rc"
    # .secs last and renamed into place: its presence says the binary has ended
    awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }' > "$tmp/$n.s"
    mv "$tmp/$n.s" "$tmp/$n.secs"
  done
}

# slots: each binary alone, but the unit tests together (at the place of the first of them)
slots=() hw="" n=0
for t in "$@"; do
  n=$((n + 1))
  echo "$t" > "$tmp/$n.name"
  case $(basename "$t") in
    test_hw_*) if [ -z "$hw" ]; then slots+=("HW"); fi; hw="$hw $n" ;;
    *) slots+=("$n") ;;
  esac
done

passed=0 failed=0 skipped=0 crashed=0
times=""
report() { # the results of binary n
  local n=$1 t out rc secs p f s
  t=$(cat "$tmp/$n.name") out=$(cat "$tmp/$n.out") rc=$(cat "$tmp/$n.rc") secs=$(cat "$tmp/$n.secs")
  times="$times$secs $t"$'\n'
  echo "== $t"
  printf '%s\n' "$out"
  echo "-- $t: $secs s"
  p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0})); skipped=$((skipped + ${s:-0}))
  if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
    echo "!! $t exited with status $rc without reporting a failed test"
    crashed=$((crashed + 1))
  fi
}

# run the slots, at most $jobs at once; report each binary as soon as it has ended
declare -A reported
report_ended() {
  local i
  for ((i = 1; i <= n; i++)); do
    if [ -z "${reported[$i]:-}" ] && [ -f "$tmp/$i.secs" ]; then reported[$i]=1; report "$i"; fi
  done
}
running=0
for slot in "${slots[@]}"; do
  while [ "$running" -ge "$jobs" ]; do
    wait -n
    running=$((running - 1))
    report_ended
  done
  if [ "$slot" = HW ]; then run_slot $hw & else run_slot "$slot" & fi
  running=$((running + 1))
done
wait
report_ended

failed=$((failed + crashed))
echo "slowest: $(printf '%s' "$times" | sort -rn | head -5 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }')"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
