#!/usr/bin/env bash
# make cuda-traces: builds every program cuda/<name>/<name>.cu with CUDA 11.8's nvcc (sm_61,
# -cudart shared, plus the flags in cuda/<name>/build.flags), runs it under bin/rfsim-trace into
# build/cuda-traces/<name>/ (rfsim-trace options from cuda/<name>/trace.flags, e.g. -regs, the
# program's arguments from cuda/<name>/run.args), and stops if a program's own
# check of its results fails. Then (unless CUDA_TRACES_LOCKSTEP=0) rfsim runs every trace with
# every technique, the hardware
# units in lockstep with their RTL (CUDA_TRACES_CONFIG, default titanx: the Pascal GPU the code
# is compiled for); a technique that cannot apply to a kernel (rfsim's exit status 3) is
# reported, not failed. CUDA_PROGRAMS limits the programs (names, space-separated).
set -euo pipefail
config=${CUDA_TRACES_CONFIG:-configs/titanx.config}
out=build/cuda-traces bld=build/cuda
export PATH=/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:/bin:$PATH
nvcc=/usr/bin/nvcc
[ -x "$nvcc" ] || { echo "cuda-traces: $nvcc is missing (make cuda-toolkit)" >&2; exit 1; }
programs=${CUDA_PROGRAMS:-$(for d in cuda/*/; do n=$(basename "$d"); [ -f "$d$n.cu" ] && echo "$n"; done)}
mkdir -p "$out" "$bld"
for p in $programs; do
  src=cuda/$p/$p.cu
  [ -f "$src" ] || { echo "cuda-traces: $src: no such program" >&2; exit 1; }
  flags=$(cat "cuda/$p/build.flags" 2>/dev/null || true)
  args=$(cat "cuda/$p/run.args" 2>/dev/null || true)
  tflags=$(cat "cuda/$p/trace.flags" 2>/dev/null || true)
  mkdir -p "$bld/$p"
  # shellcheck disable=SC2086 # flags and args are word lists
  "$nvcc" -ccbin clang++-14 -arch=sm_61 -cudart shared -O3 $flags -o "$bld/$p/$p" "$src"
  echo "== $p"
  # shellcheck disable=SC2086
  bin/rfsim-trace -o "$out/$p" -config "$config" $tflags "$bld/$p/$p" $args
done
# CUDA_TRACES_LOCKSTEP=0 (make fidelity tracing what it misses): the traces only
[ "${CUDA_TRACES_LOCKSTEP:-1}" = 0 ] && exit 0
jobs=$out/lockstep/jobs.txt
mkdir -p "$out/lockstep"
: > "$jobs"
techniques="baseline warpman regshare spshare finereg vt regdram regmutex larf"
for p in $programs; do
  for t in $techniques; do
    extra=""
    [ "$t" = warpman ] && extra="-warpman_mode spatial"
    printf '%s\tbash tools/compare_job.sh -trace %s -config %s -rfsim_policy %s %s -hw lockstep > %s\n' \
      "$p-$t" "$out/$p/kernelslist.g" "$config" "$t" "$extra" "$out/lockstep/$p-$t.txt" >> "$jobs"
  done
done
bash tools/jobs.sh run "$jobs"
refused=$(grep -l '^refused:' "$out"/lockstep/*.txt 2>/dev/null | wc -l)
echo "cuda-traces: $(echo "$programs" | wc -w) programs traced into $out; $(grep -c . "$jobs") lockstep runs, $refused refused by their technique"
