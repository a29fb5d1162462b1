#!/usr/bin/env bash
# Runs every test binary given, shows their cmocka output, and closes with one summary line
# "tests: N passed, N failed, N skipped". Exits non-zero if any test failed or a binary crashed.
set -u
passed=0 failed=0 skipped=0 crashed=0
for t in "$@"; do
  echo "== $t"
  out=$("$t" 2>&1)
  rc=$?
  printf '%s\n' "$out"
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
echo "tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
