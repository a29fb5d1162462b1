#!/usr/bin/env bash
# make cuda-traces: builds every program cuda/<name>/<name>.cu with CUDA 11.8's nvcc (code for
# sm_61 and sm_70, -cudart shared, plus the flags in cuda/<name>/build.flags) and runs it under
# bin/rfsim-trace for each architecture of CUDA_TRACES_ARCHS (default "61 70"): into
# build/cuda-traces/<name>/ (Pascal's code, device of titanx) and build/cuda-traces/<name>-sm70/
# (Volta's, device of titanv), with rfsim-trace options from cuda/<name>/trace.flags (e.g. -regs)
# and the program's arguments from cuda/<name>/run.args; it stops if a program's own check of its
# results fails. Then (unless CUDA_TRACES_LOCKSTEP=0) rfsim runs every trace with every technique
# on the config of its architecture, the hardware units in lockstep with their RTL; a technique
# that cannot apply to a kernel (rfsim's exit status 3) is
# reported, not failed. CUDA_PROGRAMS limits the programs (names, space-separated).
set -euo pipefail
config=configs/titanx.config config70=configs/titanv.config archs=${CUDA_TRACES_ARCHS:-61 70}
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
  "$nvcc" -ccbin clang++-14 -gencode arch=compute_61,code=sm_61 \
    -gencode arch=compute_70,code=sm_70 -cudart shared -O3 $flags -o "$bld/$p/$p" "$src"
  echo "== $p"
  for arch in $archs; do
    dst=$out/$p cfg=$config
    [ "$arch" = 70 ] && dst=$out/$p-sm70 cfg=$config70
    # shellcheck disable=SC2086
    bin/rfsim-trace -o "$dst" -sm "$arch" -config "$cfg" $tflags "$bld/$p/$p" $args
  done
done
# CUDA_TRACES_LOCKSTEP=0 (make fidelity tracing what it misses): the traces only
[ "${CUDA_TRACES_LOCKSTEP:-1}" = 0 ] && exit 0
jobs=$out/lockstep/jobs.txt
mkdir -p "$out/lockstep"
: > "$jobs"
techniques="baseline warpman regshare spshare finereg vt regdram regmutex larf"
for p in $programs; do
  for arch in $archs; do
    trace=$p cfg=$config
    [ $arch = 70 ] && trace=$p-sm70 cfg=$config70
    for t in $techniques; do
      extra=""
      [ "$t" = warpman ] && extra="-warpman_mode spatial"
      printf '%s\tbash tools/compare_job.sh -trace %s -config %s -rfsim_policy %s %s -hw lockstep > %s\n' \
        "$trace-$t" "$out/$trace/kernelslist.g" "$cfg" "$t" "$extra" "$out/lockstep/$trace-$t.txt" \
        >> "$jobs"
    done
  done
done
# resumable: a sweep stopped midway continues with the runs not yet made by this bin/rfsim
JOBS_RESUME_KEY=$(cksum < bin/rfsim | cut -d' ' -f1) bash tools/jobs.sh run "$jobs"
refused=$( (grep -l '^refused:' "$out"/lockstep/*.txt 2>/dev/null || true) | wc -l)
echo "cuda-traces: $(echo "$programs" | wc -w) programs traced for sm_${archs// /, sm_} into $out;" \
  "$(grep -c . "$jobs") lockstep runs, $refused refused by their technique"
