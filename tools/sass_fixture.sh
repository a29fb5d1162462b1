#!/usr/bin/env bash
# Regenerates a SASS interpreter fixture from a CUDA source: the sm_61 cubin nvcc makes of it and
# its `cuobjdump -sass` listing, which tests/test_sass.c loads without the toolkit.
# Usage: tools/sass_fixture.sh SOURCE.cu OUTDIR [SM]   (SM 61 by default; files are named
# NAME.cubin/.sass for sm_61 and NAMESM.cubin/.sass otherwise; needs the CUDA 11.8 toolkit:
# make cuda-toolkit)
set -euo pipefail
src=$1 out=$2 sm=${3:-61}
name=$(basename "$src" .cu)
[ "$sm" = 61 ] || name=$name$sm
export PATH=/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:/bin
mkdir -p "$out"
/usr/bin/nvcc -ccbin clang++-14 -arch=sm_"$sm" -O3 -cubin -o "$out/$name.cubin" "$src"
/usr/bin/cuobjdump -sass "$out/$name.cubin" > "$out/$name.sass"
echo "$out/$name.cubin $out/$name.sass"
