#!/usr/bin/env bash
# Are two rfsim binaries' simulated results byte-identical? Runs both on a list of runs and
# compares the stats (text on stdout and -stats_json). For speed work: a change that only makes
# the simulator cheaper must not move any figure.
#
#   tools/stats_identical.sh REF_BIN NEW_BIN [LIST]
#
# LIST (default: the built-in set below, or - for stdin) has one run per line:
#   TRACE_DIR CONFIG [OPTION VALUE ...]     e.g. build/traces/warpman_mm configs/gtx980.config -rfsim_policy vt
# Blank lines and lines starting with # are skipped. REF_BIN's outputs are kept in
# $STATS_REF_DIR (default /tmp/stats_identical.<hash of REF_BIN>) and reused on the next call,
# so after the first call only NEW_BIN runs (NEW_BIN - only fills that folder). JOBS (default 2) runs go in parallel.
# Exit status: 0 if every run matches, 1 otherwise (the differing runs are listed).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 REF_BIN NEW_BIN [LIST|-]" >&2
  exit 2
fi
ref_bin=$1 new_bin=$2 list=${3:-}
jobs=${JOBS:-2}
for b in "$ref_bin" "$new_bin"; do
  [ "$b" = - ] || [ -x "$b" ] || { echo "$0: $b: expected an executable rfsim" >&2; exit 2; }
done
ref_dir=${STATS_REF_DIR:-/tmp/stats_identical.$(sha1sum "$ref_bin" | cut -c1-12)}
new_dir=$(mktemp -d)
trap 'rm -rf "$new_dir"' EXIT
cache_dir=${STATS_TRACE_CACHE:-/tmp/stats_identical.cache}
mkdir -p "$ref_dir" "$cache_dir"

# The built-in set: every workload with the GTX 480 and GTX 980 configs (baseline), each
# policy on a few workloads, the other configs (sub-core, two-level, LRR) and -hw lockstep.
default_list() {
  local t
  for t in build/traces/*/; do
    t=${t%/}
    echo "$t configs/gtx480.config"
    echo "$t configs/gtx980.config"
  done
  for t in warpman_mm warpman_ray regshare_sgemm spshare_conv1 finereg_km larf_conv; do
    for p in warpman regshare spshare finereg vt regdram regmutex larf warpman+larf; do
      echo "build/traces/$t configs/gtx980.config -rfsim_policy $p"
    done
    echo "build/traces/$t configs/gtx980.config -rfsim_policy warpman -warpman_mode spatial"
    echo "build/traces/$t configs/gtx480.config -rfsim_policy warpman -warpman_mode spatial"
    echo "build/traces/$t configs/locality_rf.config -rfsim_policy larf"
    echo "build/traces/$t configs/locality_rf.config -rfsim_policy warpman+larf"
    echo "build/traces/$t configs/titanv.config"
    echo "build/traces/$t configs/tesla_c2050.config"
  done
  echo "build/traces/warpman_ray configs/gtx980.config -rfsim_policy warpman -hw lockstep"
  echo "build/traces/regshare_sgemm configs/gtx980.config -rfsim_policy regshare -hw lockstep"
  echo "build/traces/larf_conv configs/locality_rf.config -rfsim_policy warpman+larf -hw lockstep"
  echo "build/traces/finereg_km configs/gtx980.config -rfsim_policy finereg -hw lockstep"
}

if [ -z "$list" ]; then default_list > "$new_dir/list"
elif [ "$list" = - ]; then cat > "$new_dir/list"
else cp "$list" "$new_dir/list"; fi

# run BIN OUT_DIR LINE: one run; the file name is the line with / and spaces made safe.
run_one() {
  local bin=$1 out=$2 line=$3
  local name
  name=$(echo "$line" | sed -E 's#build/traces/##; s#configs/##; s#[/ ]+#_#g')
  [ -s "$out/$name.txt" ] && [ -s "$out/$name.json" ] && return 0
  # shellcheck disable=SC2086
  set -- $line
  local trace=$1 config=$2
  shift 2
  if ! "$bin" -trace "$trace/kernelslist.g" -config "$config" "$@" \
      -trace_cache_dir "$cache_dir" -stats_json "$out/$name.json.tmp" \
      > "$out/$name.txt.tmp" 2> "$out/$name.err"; then
    echo "FAILED (exit status): $line" > "$out/$name.txt"
    echo "{}" > "$out/$name.json"
    return 0
  fi
  mv "$out/$name.txt.tmp" "$out/$name.txt"
  mv "$out/$name.json.tmp" "$out/$name.json"
}
export -f run_one
export cache_dir

# shellcheck disable=SC2016 # $1..$3 are the inner shell's arguments
grep -v '^[[:space:]]*\(#\|$\)' "$new_dir/list" |
  xargs -d '\n' -P "$jobs" -I{} bash -c 'run_one "$1" "$2" "$3"' _ "$ref_bin" "$ref_dir" {}
[ "$new_bin" = - ] && { echo "stats_identical: reference outputs in $ref_dir"; exit 0; }
# shellcheck disable=SC2016
grep -v '^[[:space:]]*\(#\|$\)' "$new_dir/list" |
  xargs -d '\n' -P "$jobs" -I{} bash -c 'run_one "$1" "$2" "$3"' _ "$new_bin" "$new_dir" {}

n=0 bad=0
while read -r line; do
  name=$(echo "$line" | sed -E 's#build/traces/##; s#configs/##; s#[/ ]+#_#g')
  n=$((n + 1))
  if ! cmp -s "$ref_dir/$name.txt" "$new_dir/$name.txt" ||
     ! cmp -s "$ref_dir/$name.json" "$new_dir/$name.json"; then
    bad=$((bad + 1))
    echo "DIFFERS: $line"
    diff "$ref_dir/$name.txt" "$new_dir/$name.txt" | head -5 || true
  elif grep -q '^FAILED' "$ref_dir/$name.txt"; then
    echo "note: both binaries fail on: $line ($(head -c 200 "$ref_dir/$name.err"))"
  fi
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$new_dir/list")
echo "stats_identical: $((n - bad)) of $n runs identical (reference outputs in $ref_dir)"
[ "$bad" -eq 0 ]
