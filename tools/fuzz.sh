#!/usr/bin/env bash
# `make fuzz`: runs each parser's libFuzzer target (tests/fuzz/) for FUZZ_SECONDS from seed
# inputs (the project's own traces, configs and specs, and ../shared's real traces), keeping the
# growing corpus in build/fuzz/corpus/<target>/. An input that crashes a parser, trips
# AddressSanitizer/UBSan or is rejected without a message is saved under
# build/fuzz/artifacts/<target>/; the script names it and how to replay it, and exits 1.
# Fixed findings are kept as tests/fixtures/fuzz/<target>/ (tests/test_fuzz_regressions.c).
# Usage: tools/fuzz.sh BUILD_FUZZ_DIR SECONDS SHARED TARGET...
set -uo pipefail
dir=$1 seconds=$2 shared=$3
shift 3
seeds_for() {
  case $1 in
    kernel_trace) ls tests/fixtures/tracegen/tiny/kernel-*.traceg "$shared"/traces/*/kernel-*.traceg ;;
    kernelslist) ls tests/fixtures/tracegen/tiny/kernelslist.g "$shared"/traces/*/kernelslist.g ;;
    config) ls configs/*.config tests/fixtures/config/*.config ;;
    tracegen_spec) ls traces/*.spec tests/fixtures/tracegen/*.spec ;;
    trace_cache) ls tests/fixtures/fuzz/trace_cache/* ;;
    sass_listing) ls tests/fixtures/sass/*.sass ;;
    cubin) ls tests/fixtures/sass/*.cubin ;;
  esac 2> /dev/null
}
failed=0
for t in "$@"; do
  corpus=$dir/corpus/$t artifacts=$dir/artifacts/$t/
  mkdir -p "$corpus" "$artifacts"
  for s in $(seeds_for "$t"); do cp -n "$s" "$corpus/seed-$(basename "$(dirname "$s")")-$(basename "$s")"; done
  [ -d "tests/fixtures/fuzz/$t" ] && cp -n tests/fixtures/fuzz/"$t"/* "$corpus"/ 2> /dev/null
  echo "== fuzz $t: ${seconds} s from $(ls "$corpus" | wc -l) inputs"
  log=$dir/$t.log
  "$dir/fuzz_$t" -max_total_time="$seconds" -max_len=262144 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" > "$log" 2>&1
  rc=$?
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^Done' "$log" |
    sed 's/^/   /'
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  echo "   coverage: ${cov:-?}; corpus now $(ls "$corpus" | wc -l) inputs"
  if [ $rc -ne 0 ]; then
    failed=1
    echo "!! fuzz $t found a failing input (exit $rc); last lines of $log:"
    grep -E 'ERROR|SUMMARY|fuzz '"$t"':|Test unit written' "$log" | head -8 | sed 's/^/   /'
    echo "   replay: $dir/fuzz_$t <input>; once fixed, keep it in tests/fixtures/fuzz/$t/"
  fi
done
exit $failed
