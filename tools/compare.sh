#!/usr/bin/env bash
# `make compare`: every technique on one workload suite and the shipped configs, beside what its
# hardware costs — the comparison no single paper makes. Writes
#   out/experiments/compare.md    per technique and config: geomean and best speedup over the
#                                 baseline on the same config, workloads sped up / slowed down,
#                                 or why the technique cannot apply there; the hardware cost
#                                 (flop and memory bits, area, slack) from `make synth`
#   out/experiments/compare.png   speedup (geomean over the suite and configs it applies to)
#                                 against area per SM, one point per technique (gnuplot)
#   out/experiments/compare.dat   the numbers behind both
#   out/experiments/compare/      every run's stats (text and JSON) and the job list
# Environment: COMPARE_CONFIGS (config names, default below), COMPARE_SUITE (workload names),
# COMPARE_HW (-hw mode, default c), JOBS (nproc), JOBS_MODE (run | export: a Slurm array job |
# report; see tools/experiments_lib.sh).
set -euo pipefail
. tools/experiments_lib.sh
MAKE_TARGET=compare
out=out/experiments
raw=$out/compare
hw=${COMPARE_HW:-c}
configs=(${COMPARE_CONFIGS:-gtx480 tesla_c2050 gtx980 titanx locality_rf})
larf_wls=()
for d in build/traces/larf_*/; do [ -d "$d" ] && larf_wls+=("$(basename "$d")"); done
default_suite="warpman_st warpman_mm warpman_hs warpman_ct warpman_nn
  regshare_sgemm regshare_hotspot regshare_backprop regshare_stencil regshare_lib
  spshare_lavamd spshare_conv1 spshare_srad1 spshare_nw1
  finereg_km finereg_hs finereg_li finereg_nw finereg_st finereg_cf ${larf_wls[*]:-}"
suite=(${COMPARE_SUITE:-$default_suite})

# technique | rfsim options | technique folders whose units it uses (synth cost) | paper
techniques=(
  "baseline|-rfsim_policy baseline|-|thread-block-level management (GPGPU-Sim max_cta)"
  "regshare|-rfsim_policy regshare|regshare|Jatala et al., register sharing"
  "spshare|-rfsim_policy spshare|spshare|Jatala et al., scratchpad sharing"
  "warpman|-rfsim_policy warpman -warpman_mode spatial|warpman|Xiang et al., WarpMan temp+spatial"
  "finereg|-rfsim_policy finereg|finereg|FineReg (ACRF + PCRF, CTA switching)"
  "vt|-rfsim_policy vt|-|Virtual Thread (as compared in FineReg)"
  "regdram|-rfsim_policy regdram|-|Reg+DRAM, Zorua-like (as compared in FineReg)"
  "regmutex|-rfsim_policy regmutex|-|RegMutex (as compared in FineReg)"
  "larf|-rfsim_policy larf|larf|locality-aware register file"
  "warpman+larf|-rfsim_policy warpman+larf -warpman_mode spatial|warpman larf|combination"
  "regshare+larf|-rfsim_policy regshare+larf|regshare larf|combination"
)
field() { echo "$1" | cut -d'|' -f"$2"; }

for wl in "${suite[@]}"; do
  [ -f "build/traces/$wl/kernelslist.g" ] || { echo "compare: no build/traces/$wl: run make workloads" >&2; exit 1; }
done
prepare_raw "$raw"

# job list: every technique x config x workload; a refused run prints "refused: why"
for t in "${techniques[@]}"; do
  name=$(field "$t" 1) opts=$(field "$t" 2)
  for cfg in "${configs[@]}"; do
    for wl in "${suite[@]}"; do
      j="$name.$cfg.$wl"
      printf -v cmd '%q ' bash tools/compare_job.sh -trace "build/traces/$wl/kernelslist.g" \
        -config "configs/$cfg.config" $opts -hw "$hw" -stats_json "$raw/$j.json"
      printf '%s\t%s> %q\n' "$j" "$cmd" "$raw/$j.txt"
    done
  done
done > "$raw/jobs.txt"
echo "compare: ${#techniques[@]} techniques x ${#configs[@]} configs x ${#suite[@]} workloads = $(grep -c . "$raw/jobs.txt") runs"
run_sweep "$raw/jobs.txt"

cycles() { stat gpu_sim_cycle "$1"; }
refusal() { sed -n 's/^refused: //p' "$1" | head -1; }

# synthesis cost of a list of technique folders: flop bits, memory bits, area, worst slack
synth_json=build/synth
jf() { sed -n "s/.*\"$1\": \([-0-9.]*\).*/\1/p" "$2" | head -1; }
cost() { # folders... -> "flops mem area slack" or "- - - -" when none has RTL
  local f=0 m=0 a=0 s="" any=0 j
  for tech in "$@"; do
    [ "$tech" = - ] && continue
    j=$synth_json/$tech.json
    [ -f "$j" ] || { echo "? ? ? ?"; return; }
    any=1
    f=$((f + $(jf flop_bits "$j" | cut -d. -f1)))
    m=$((m + $(jf memory_bits "$j" | cut -d. -f1)))
    a=$(echo "$a + $(jf area_um2 "$j")" | bc)
    local sl; sl=$(jf slack_ns "$j")
    if [ -z "$s" ] || awk -v x="$sl" -v y="$s" 'BEGIN { exit !(x < y) }'; then s=$sl; fi
  done
  [ $any = 1 ] && echo "$f $m $a $s" || echo "- - - -"
}

dat=$out/compare.dat
md=$out/compare.md
declare -A geo_all best_all
{
  echo "# technique config applies geomean best faster slower refused_reason"
  for t in "${techniques[@]}"; do
    name=$(field "$t" 1)
    for cfg in "${configs[@]}"; do
      logsum=0 n=0 best=0 faster=0 slower=0 why=""
      for wl in "${suite[@]}"; do
        f=$raw/$name.$cfg.$wl.txt b=$raw/baseline.$cfg.$wl.txt
        r=$(refusal "$f")
        if [ -n "$r" ]; then why=$r; continue; fi
        c0=$(cycles "$b") c1=$(cycles "$f")
        [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -gt 0 ] || continue
        s=$(echo "scale=6; $c0 / $c1" | bc)
        logsum=$(echo "scale=8; $logsum + l($s)" | bc -l); n=$((n + 1))
        awk -v a="$s" -v b="$best" 'BEGIN { exit !(a > b) }' && best=$s
        awk -v a="$s" 'BEGIN { exit !(a > 1.01) }' && faster=$((faster + 1))
        awk -v a="$s" 'BEGIN { exit !(a < 0.99) }' && slower=$((slower + 1))
      done
      if [ $n -eq 0 ]; then
        echo "$name $cfg 0 - - - - ${why:-no run}" | tr -s ' '
      else
        g=$(echo "scale=4; e($logsum / $n)" | bc -l)
        echo "$name $cfg $n $g $best $faster $slower ${why:+(some refused) $why}"
      fi
    done
  done
} > "$dat"

# one point per technique: geomean over every (config, workload) run it applies to
pts=$out/compare_points.dat
{
  echo "# technique area_um2 bits geomean"
  for t in "${techniques[@]}"; do
    name=$(field "$t" 1) folders=$(field "$t" 3)
    read -r fl me ar sl <<< "$(cost $folders)"
    g=$(awk -v t="$name" '$1 == t && $3 > 0 {s += $3 * log($4); n += $3} END {if (n) printf "%.4f", exp(s / n)}' "$dat")
    [ -n "$g" ] || continue
    if [ "$ar" = - ] || [ "$ar" = "?" ]; then ar=0 bits=0; else bits=$((fl + me)); fi
    echo "$name $ar $bits $g"
  done
} > "$pts"

{
  echo "# Every technique on one suite"
  echo
  echo "\`make compare\` ran ${#techniques[@]} techniques on ${#suite[@]} workloads and ${#configs[@]} configs (\`-hw $hw\`, ${sweep_time})."
  echo "Speedup is baseline cycles / technique cycles on the same config and workload, so 1.00 means"
  echo "no change; \"faster\"/\"slower\" count workloads beyond ±1 %. A config where a technique cannot"
  echo "run says why (rfsim's own refusal). Hardware cost is per SM, from \`make synth\` (the paper's"
  echo "shapes; OSU 0.18 µm, area without wiring)."
  echo
  echo "Suite: ${suite[*]}"
  echo
  echo "## Speedup over the baseline"
  echo
  printf '| technique |'; for cfg in "${configs[@]}"; do printf ' %s |' "$cfg"; done; echo
  printf '|---|'; for cfg in "${configs[@]}"; do printf -- '---|'; done; echo
  for t in "${techniques[@]}"; do
    name=$(field "$t" 1)
    printf '| %s |' "$name"
    for cfg in "${configs[@]}"; do
      read -r _ _ n g best fa sl why <<< "$(awk -v t="$name" -v c="$cfg" '$1 == t && $2 == c' "$dat")"
      why=${why#(some refused) }
      if [ "$n" = 0 ]; then printf ' cannot apply: %s |' "$(echo "$why" | sed 's/|/\\|/g')"
      else
        printf ' %.3f (best %.2f; %s faster, %s slower' "$g" "$best" "$fa" "$sl"
        [ "$n" -lt ${#suite[@]} ] && printf '; %d of %d workloads: cannot apply: %s' \
          $(( ${#suite[@]} - n )) ${#suite[@]} "$(echo "$why" | sed 's/|/\\|/g')"
        printf ') |'
      fi
    done
    echo
  done
  echo
  echo "## Speedup against hardware cost"
  echo
  echo "| technique | what | geomean speedup (all runs) | flop bits | memory bits | area µm² | worst slack ns |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  for t in "${techniques[@]}"; do
    name=$(field "$t" 1) folders=$(field "$t" 3) what=$(field "$t" 4)
    read -r fl me ar sl <<< "$(cost $folders)"
    g=$(awk -v t="$name" '$1 == t {print $4}' "$pts")
    if [ "$fl" = - ]; then fl="no RTL unit" me="" ar="" sl=""; fi
    echo "| $name | $what | ${g:-—} | $fl | $me | $ar | $sl |"
  done
  echo
  echo "![speedup against area](compare.png)"
} > "$md"

plot=$out/compare.png
if command -v gnuplot > /dev/null; then
  gnuplot <<EOF
set terminal pngcairo size 1000,620 font 'Sans,10'
set output '$plot'
set title 'Speedup over the baseline (geomean over the suite and configs) against hardware area per SM'
set xlabel 'area per SM, µm² (OSU 0.18 µm, make synth; 0: no RTL unit in rfsim)'
set ylabel 'geomean speedup'
set grid
set key off
set offsets graph 0.05, graph 0.15, graph 0.1, graph 0.1
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
plot '$pts' using 2:4 with points pt 7 ps 1.5, '' using 2:4:1 with labels offset 0,1
EOF
else
  echo "compare: gnuplot not found, no plot" >&2
fi
echo "wrote $md, $plot ($(grep -c . "$raw/jobs.txt") runs in ${sweep_time})"
cat "$md"
