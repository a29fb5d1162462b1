#!/usr/bin/env bash
# One run of `make compare`: bin/rfsim with the given arguments, its stats on stdout. A run the
# simulator refuses (a technique that cannot apply to a config: a shape its units cannot hold,
# options out of range, a policy this build lacks) is a result of the comparison, not a failed
# job: it prints "refused: <rfsim's error>" instead and exits 0. Anything else (a crash, a
# lockstep mismatch, a deadlock report) stays a failure.
set -uo pipefail
err=$(mktemp)
trap 'rm -f "$err"' EXIT
bin/rfsim "$@" 2> "$err"
rc=$?
if [ $rc -eq 0 ]; then exit 0; fi
# rfsim's bad-configuration errors come before the first cycle; their message says what limit
msg=$(grep -m1 '^rfsim: error:' "$err" | sed 's/^rfsim: error: //')
cat "$err" >&2
case $msg in
  *"expected at most"*|*"under these parameters"*|*"unknown policy"*|*"-rfsim_policy"*|\
  *"cannot apply"*|*"does not apply"*|*"needs more"*|*"larger than"*)
    echo "refused: $msg"
    exit 0 ;;
esac
exit $rc
