#!/usr/bin/env bash
# The training runs of bin/rfsim's profile-guided build (pgo.mk): tools/pgo_train.sh DIR runs
# DIR/rfsim (built with -fprofile-generate) on workloads of the project's own suite, which
# DIR/tracegen generates from traces/*.spec, and leaves the profile in DIR/profile.
#
# What the runs cover is what the profile optimizes for: the three config families (the
# GTX 480's Fermi core, the TITAN X's and the TITAN V's sub-core collectors), memory- and
# compute-bound workloads, five policies, and the trace reader both from text and from its
# cache. finereg_at's strided loads on the TITAN X take the path a memory-bound kernel's
# uncoalesced loads take there (around the L1D, 32 requests a load, into a congested
# network): without it that path was laid out as cold code, and one struct copy on it,
# compiled for size, took 3% of atax's time. Neither the speed benchmark's trace (matrixmul
# x240) nor any CUDA trace is among them, so `make bench` measures code the profile was not
# fitted to. None runs with -threads: the counters are not atomic (atomic ones made the runs
# five times slower than the plain build), and two threads stepping SMs would lose counts of
# the hottest code (-fprofile-correction smooths the few that the trace's read-ahead thread
# may lose).
set -euo pipefail

dir=${1:?usage: tools/pgo_train.sh DIR}
traces=$dir/traces
runs=$dir/runs
mkdir -p "$traces"

# workload, config, extra options
training=(
  "warpman_ray gtx480"
  "regshare_bfs gtx480"
  "warpman_ray titanv"
  "regshare_bfs titanv"
  "finereg_lb titanv"
  "finereg_km titanx"
  "finereg_at titanx"
  "spshare_srad1 gtx480 -rfsim_policy spshare"
  "warpman_st gtx480 -rfsim_policy warpman"
  "regshare_sgemm titanv -rfsim_policy regshare"
  "finereg_km titanx -rfsim_policy finereg"
  "larf_conv titanv -rfsim_policy larf"
)

# The traces first, from the specs as they are now (a fraction of a second for all; the
# generator's counts are not wanted in the profile: it is emptied after).
for run in "${training[@]}"; do
  read -r wl _ <<<"$run"
  "$dir/tracegen" "traces/$wl.spec" "$traces/$wl" >/dev/null
done
rm -rf "$dir/profile" "$runs"
mkdir -p "$runs"

# Each run twice, one after the other: from the text (writing the cache), then from the cache.
list=$runs/jobs.txt
: >"$list"
for i in "${!training[@]}"; do
  read -r wl cfg opts <<<"${training[$i]}"
  cmd="$dir/rfsim -trace $traces/$wl/kernelslist.g -config configs/$cfg.config -quiet"
  cmd+=" -trace_cache_dir $runs/cache/$i $opts"
  printf '%s\t%s\n' "train$i" "$cmd > $runs/train$i.txt && $cmd > $runs/train$i.txt" >>"$list"
done
bash tools/jobs.sh run "$list" >"$runs/jobs.log" || {
  cat "$runs/jobs.log" >&2
  echo "pgo_train: a training run failed (the lines above name it)" >&2
  exit 1
}
rm -rf "$runs/cache" # (13 MB, read by nothing else)
# (a training build that wrote its counts elsewhere would leave the library built without them,
# silently: the use build lets sources without counts pass, as those rfsim never links)
compgen -G "$dir/profile/*csim#core#issue.gcda" >/dev/null || {
  echo "pgo_train: the runs left no profile of csim/core/issue.c in $dir/profile" >&2
  exit 1
}
