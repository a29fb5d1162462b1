#!/usr/bin/env bash
# Runs every test binary given, shows their cmocka output, and closes with one summary line
# "tests: N passed, N failed, N skipped". Exits non-zero if any test failed or a binary crashed.
# Each binary's wall time is printed after it ("-- <binary>: S s"), and the slowest at the end,
# to keep the CI budget in view.
set -u
passed=0 failed=0 skipped=0 crashed=0
times=""
for t in "$@"; do
  echo "== $t"
  start=$(date +%s.%N)
  out=$("$t" 2>&1)
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  times="$times$secs $t"$'\n'
  printf '%s\n' "$out"
  echo "-- $t: $secs s"
  p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  s=$(printf '%s\n' "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0})); skipped=$((skipped + ${s:-0}))
  if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
    echo "!! $t exited with status $rc without reporting a failed test"
    crashed=$((crashed + 1))
  fi
done
failed=$((failed + crashed))
echo "slowest: $(printf '%s' "$times" | sort -rn | head -5 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }')"
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
