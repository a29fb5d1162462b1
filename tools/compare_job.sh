#!/usr/bin/env bash
# One run of `make compare`: bin/rfsim with the given arguments, its stats on stdout. A run the
# simulator refuses (exit status 3: the technique cannot apply to this config or kernel, e.g. a
# thread block its register file or units cannot hold) is a result of the comparison, not a
# failed job: it prints "refused: <rfsim's error>" instead and exits 0. Anything else (a bad
# option, a crash, a lockstep mismatch, a deadlock report) stays a failure.
set -uo pipefail
err=$(mktemp)
trap 'rm -f "$err"' EXIT
bin/rfsim "$@" 2> "$err"
rc=$?
if [ $rc -eq 0 ]; then exit 0; fi
cat "$err" >&2
# exit status 3: the technique refused the config or a kernel (rfsim: error: <why>)
if [ $rc -eq 3 ]; then
  echo "refused: $(grep -m1 '^rfsim: error:' "$err" | sed 's/^rfsim: error: //')"
  exit 0
fi
exit $rc
