#!/usr/bin/env bash
# `make experiments-finereg`: FineReg (finereg.txt sec. VI, Fig. 12 and 13) against the baseline,
# Virtual Thread, Reg+DRAM and VT+RegMutex on the suite's FineReg workload analogs
# (build/traces/finereg_*: Type-S and Type-R, Table II) with the GTX 980-like config. Writes
#   out/experiments/finereg.md    IPC speedup over the baseline and mean resident CTAs per
#                                 workload, geometric means per type and overall, FineReg's
#                                 switches, PCRF occupancy and live fraction, beside the paper's
#   out/experiments/finereg.png   the speedups (gnuplot)
#   out/experiments/finereg.dat   the numbers behind both
#   out/experiments/finereg/      every run's stats (text and JSON)
# Environment: FINEREG_CONFIG (default configs/gtx980.config), JOBS (nproc), JOBS_MODE
# (run | export: a Slurm array job | report; see tools/experiments_lib.sh).
set -euo pipefail
. tools/experiments_lib.sh
MAKE_TARGET=experiments-finereg
config=${FINEREG_CONFIG:-configs/gtx980.config}
out=out/experiments
raw=$out/finereg
policies=(baseline vt regdram regmutex finereg)
# Reg+DRAM: the paper "varied the number of pending CTAs in the off-chip memory to find its
# best-performance setup for every application"; rfsim runs -regdram_mem_ctas 0 (= VT), 1, 4
# and keeps each workload's best (regdram.<n> runs; `regdram` below is the best of them)
mem_ctas=(0 1 4)
type_s=(bf bi cs fd km mc nw st sy2)
type_r=(at cf hs lb li sg sr ta tr)
prepare_raw "$raw"

for n in "${type_s[@]}" "${type_r[@]}"; do
  if [ ! -f "build/traces/finereg_$n/kernelslist.g" ]; then
    echo "no build/traces/finereg_$n: run make workloads" >&2
    exit 1
  fi
done

for n in "${type_s[@]}" "${type_r[@]}"; do
  for p in "${policies[@]}"; do
    if [ "$p" = regdram ]; then
      for k in "${mem_ctas[@]}"; do
        rfsim_job "$n.regdram.$k" "$raw" "build/traces/finereg_$n/kernelslist.g" "$config" \
          -rfsim_policy regdram -regdram_mem_ctas "$k"
      done
    else
      rfsim_job "$n.$p" "$raw" "build/traces/finereg_$n/kernelslist.g" "$config" \
        -rfsim_policy "$p"
    fi
  done
done > "$raw/jobs.txt"
run_sweep "$raw/jobs.txt"
elapsed=$sweep_time
nruns=$(wc -l < "$raw/jobs.txt")

# each workload's best Reg+DRAM setting becomes its regdram run
declare -A best_k
for n in "${type_s[@]}" "${type_r[@]}"; do
  best=""
  for k in "${mem_ctas[@]}"; do
    ipc=$(stat gpu_ipc "$raw/$n.regdram.$k.txt")
    if [ -z "$best" ] || [ "$(echo "$ipc > $best" | bc)" = 1 ]; then best=$ipc; best_k[$n]=$k; fi
  done
  cp "$raw/$n.regdram.${best_k[$n]}.txt" "$raw/$n.regdram.txt"
done

dat=$out/finereg.dat
{
  echo "# workload type ipc_base speedup(vt regdram regmutex finereg)" \
       "ctas(base vt regdram regmutex finereg) fr_switches_in fr_pcrf_occ fr_live_frac" \
       "regdram_mem_ctas(best)"
  for t in S R; do
    if [ $t = S ]; then names=("${type_s[@]}"); else names=("${type_r[@]}"); fi
    for n in "${names[@]}"; do
      ipc0=$(stat gpu_ipc "$raw/$n.baseline.txt")
      line="$n $t $ipc0"
      for p in vt regdram regmutex finereg; do
        line+=" $(echo "scale=6; $(stat gpu_ipc "$raw/$n.$p.txt") / $ipc0" | bc)"
      done
      for p in "${policies[@]}"; do
        line+=" $(stat rfsim_resident_ctas_mean_per_sm "$raw/$n.$p.txt")"
      done
      f=$raw/$n.finereg.txt
      line+=" $(stat finereg_switches_in "$f") $(stat finereg_pcrf_occupancy_mean "$f")"
      line+=" $(stat finereg_live_fraction_moved "$f") ${best_k[$n]}"
      echo "$line"
    done
  done
} > "$dat"

# geometric means of the speedup and CTA columns (4..12) over a type (or all)
geo() {
  awk -v t="$1" '!/^#/ && (t == "all" || $2 == t) {
      for (i = 4; i <= 12; i++) s[i] += log($i); c++}
    END {for (i = 4; i <= 12; i++) printf "%s%.4f", (i > 4 ? " " : ""), exp(s[i] / c); print ""}' \
    "$dat"
}
geo_s=$(geo S)
geo_r=$(geo R)
geo_all=$(geo all)
# CTA ratio to the baseline's, from a geo line (fields 5..9 = ctas base vt regdram regmutex fr)
ratio() { echo "$1" | awk -v k="$2" '{printf "%.2f", $k / $5}'; }

md=$out/finereg.md
{
  echo "# FineReg, Virtual Thread, Reg+DRAM and VT+RegMutex on the FineReg workload analogs"
  echo
  echo "\`make experiments-finereg\` ($(date -u +%Y-%m-%d), config \`$config\`): 18 workloads,"
  echo "$nruns runs in ${elapsed}. Speedup = IPC over the baseline's (thread-block-level"
  echo "management). CTAs = mean resident CTAs per SM (\`rfsim_resident_ctas_mean_per_sm\`: active"
  echo "and pending). FineReg: switches = CTAs switched back in, PCRF = mean occupancy of its"
  echo "entries, live = live registers moved / registers those CTAs had allocated. Geomean rows"
  echo "are geometric means. Reg+DRAM is each workload's best of \`-regdram_mem_ctas\` 0 (= VT), 1"
  echo "and 4 (column N), as the paper tuned it per application."
  echo
  echo "| workload | type | base IPC | VT | Reg+DRAM | VT+RegMutex | FineReg |" \
       "CTAs base | VT | Reg+DRAM | RegMutex | FineReg | FR switches | PCRF | live | N |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk '!/^#/ {printf "| %s | %s | %.1f | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f | %.1f | %.1f |" \
              " %.1f | %d | %.3f | %.3f | %d |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
              $12, $13, $14, $15, $16}' "$dat"
  for g in "Type-S:$geo_s" "Type-R:$geo_r" "all:$geo_all"; do
    echo "${g#*:}" | awk -v n="${g%%:*}" '{printf "| **geomean %s** | | | **%.3f** | **%.3f** |" \
      " **%.3f** | **%.3f** | %.1f | %.1f | %.1f | %.1f | %.1f | | | | |\n",
      n, $1, $2, $3, $4, $5, $6, $7, $8, $9}'
  done
  echo
  echo "![speedups](finereg.png)"
  echo
  echo "## Beside the paper"
  echo
  echo "| | paper (GPGPU-Sim, real benchmarks) | rfsim (these analogs) |"
  echo "|---|---|---|"
  echo "| FineReg speedup, all (Fig. 13) | 1.328 | $(echo "$geo_all" | awk '{printf "%.3f", $4}') |"
  echo "| FineReg speedup, Type-R | 1.20 | $(echo "$geo_r" | awk '{printf "%.3f", $4}') |"
  echo "| VT speedup, all (FineReg 18.5% above it) | 1.328/1.185 = 1.121 |" \
       "$(echo "$geo_all" | awk '{printf "%.3f", $1}') |"
  echo "| Reg+DRAM speedup, all (FineReg 12.8% above) | 1.328/1.128 = 1.177 |" \
       "$(echo "$geo_all" | awk '{printf "%.3f", $2}') |"
  echo "| VT+RegMutex speedup, all (FineReg 7.1% above) | 1.328/1.071 = 1.240 |" \
       "$(echo "$geo_all" | awk '{printf "%.3f", $3}') |"
  echo "| FineReg CTAs / baseline, Type-S (Fig. 12) | 3.04 | $(ratio "$geo_s" 9) |"
  echo "| FineReg CTAs / baseline, Type-R | 1.80 | $(ratio "$geo_r" 9) |"
  echo "| VT CTAs / baseline, Type-S / Type-R | 2.26 / 1.00 | $(ratio "$geo_s" 6) /" \
       "$(ratio "$geo_r" 6) |"
  echo "| Reg+DRAM CTAs / baseline, Type-S / Type-R | 2.56 / 1.28 | $(ratio "$geo_s" 7) /" \
       "$(ratio "$geo_r" 7) |"
  echo
  echo "Why the figures differ is in the README (section FineReg): in short, the analogs are"
  echo "synthetic traces a few SM-waves long, most of them bound by memory bandwidth or the"
  echo "LD/ST unit rather than by latency, so extra resident CTAs add contention more than they"
  echo "hide stalls; a CTA is switched only when every warp waits on a global load; and FineReg's"
  echo "128 KB ACRF halves the CTAs that can run at once on register-bound (Type-R) kernels."
  echo
  echo "Raw stats: \`$raw/<workload>.<policy>.txt\` and \`.json\`."
} > "$md"

plot=$out/finereg.png
{ grep -v '^#' "$dat" | awk '{print $1, $4, $5, $6, $7}'
  echo "$geo_s" | awk '{print "geo-S", $1, $2, $3, $4}'
  echo "$geo_r" | awk '{print "geo-R", $1, $2, $3, $4}'
  echo "$geo_all" | awk '{print "geo-all", $1, $2, $3, $4}'; } > "$out/finereg_speedup.dat"
speedup_chart "$plot" 1300,520 \
  'FineReg and the designs it is compared with: IPC speedup over the baseline (GTX 980-like)' \
  "'$out/finereg_speedup.dat' using 2:xtic(1) title 'VT'" "'' using 3 title 'Reg+DRAM'" \
  "'' using 4 title 'VT+RegMutex'" "'' using 5 title 'FineReg'"
echo "wrote $md, $plot ($nruns runs in ${elapsed})"
cat "$md"
