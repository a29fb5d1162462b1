#!/usr/bin/env bash
# `make experiments-larf`: the locality-aware register file (locality_aware_register_file.txt,
# Fig. 4 and 5, sec. 4.1) on the suite's LARF workload analogs (build/traces/larf_*) with
# configs/locality_rf.config: the baseline against -rfsim_policy larf. Writes
#   out/experiments/larf.md    speedup, global-load (L1 access) reduction, loads elided,
#                              perfect / partial hits, registers saved, table occupancy and
#                              evictions per workload, beside the paper's reported figures
#   out/experiments/larf.png   speedups and load reductions (gnuplot)
#   out/experiments/larf.dat   the numbers behind both
#   out/experiments/larf/      every run's stats (text and JSON)
# Environment: LARF_CONFIG (default configs/locality_rf.config), LARF_HW (c), JOBS (nproc),
# JOBS_MODE (run | export | report; see tools/experiments_lib.sh).
set -euo pipefail
. tools/experiments_lib.sh
MAKE_TARGET=experiments-larf
config=${LARF_CONFIG:-configs/locality_rf.config}
hw=${LARF_HW:-c}
out=out/experiments
raw=$out/larf
prepare_raw "$raw"

names=()
for list in build/traces/larf_*/kernelslist.g; do
  n=${list#build/traces/}
  names+=("${n%/kernelslist.g}")
done
if [ ${#names[@]} -eq 0 ] || [ ! -e "${names[0]:+build/traces/${names[0]}/kernelslist.g}" ]; then
  echo "no build/traces/larf_* workloads: run make workloads" >&2
  exit 1
fi

for n in "${names[@]}"; do
  rfsim_job "$n.base" "$raw" "build/traces/$n/kernelslist.g" "$config" -rfsim_policy baseline
  rfsim_job "$n.larf" "$raw" "build/traces/$n/kernelslist.g" "$config" -rfsim_policy larf -hw "$hw"
done > "$raw/jobs.txt"
run_sweep "$raw/jobs.txt"
elapsed=$sweep_time

# the paper's figures each analog mirrors (Fig. 4/5 and sec. 4.1; "-" where it gives none)
declare -A paper=(
  [larf_mm]="1.83 (Fig. 5 naive matrixMul) | - | ~40% (Fig. 5)"
  [larf_conv]="up to 2.16 per layer, 1.12 end to end (CifarNet) | 36% (CifarNet) | 57% (CifarNet)"
  [larf_pool]="highest AlexNet layers (Pl) | 20% (AlexNet) | 26% (AlexNet)"
  [larf_fc]="~1.0 (AlexNet FC) | 20% (AlexNet) | 26% (AlexNet)"
  [larf_conv_deep]="lower (AlexNet Cv3-5) | 20% (AlexNet) | 26% (AlexNet)"
)

dat=$out/larf.dat
{
  echo "# workload speedup l1_reduction loads elided perfect partial regs_saved_peak live_maps_peak occ_max evictions"
  for n in "${names[@]}"; do
    b=$raw/$n.base.txt l=$raw/$n.larf.txt
    c0=$(stat gpu_sim_cycle "$b") c1=$(stat gpu_sim_cycle "$l")
    a0=$(stat L1D_total_cache_accesses "$b") a1=$(stat L1D_total_cache_accesses "$l")
    echo "${n#larf_} $(echo "scale=4; $c0 / $c1" | bc) $(echo "scale=4; 1 - $a1 / $a0" | bc)" \
         "$(stat larf_global_loads "$l") $(stat larf_loads_elided "$l")" \
         "$(stat larf_hits_perfect "$l") $(stat larf_hits_partial "$l")" \
         "$(stat larf_regs_saved_peak "$l") $(stat larf_live_mappings_peak "$l")" \
         "$(stat larf_amt_occupancy_max "$l") $(stat larf_amt_evictions "$l")"
  done
} > "$dat"

md=$out/larf.md
{
  echo "# Locality-aware register file on the suite's LARF workloads"
  echo
  echo "\`make experiments-larf\` ($(date -u +%Y-%m-%d), config \`$config\`, \`-hw $hw\`):"
  echo "$(( ${#names[@]} * 2 )) runs in ${elapsed}. Speedup = baseline cycles / LARF cycles."
  echo "Load reduction = 1 - L1 accesses with LARF / without (elided loads send nothing)."
  echo "Elided = loads served by mapping (perfect) or reconstruction (partial, w-merge). Regs"
  echo "saved = peak over time of (architectural load-destination mappings - physical"
  echo "registers holding them), per SM."
  echo
  echo "| workload | speedup | load reduction | loads | elided | perfect | partial | regs saved (peak) | mappings (peak) | table max | evictions | paper speedup | paper load reduction | paper register saving |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  while read -r w sp red lo el pe pa rs lm om ev; do
    [ "${w:0:1}" = "#" ] && continue
    printf '| %s | %.3f | %.1f%% | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$w" "$sp" \
      "$(echo "$red * 100" | bc)" "$lo" "$el" "$pe" "$pa" "$rs" "$lm" "$om" "$ev" \
      "${paper[larf_$w]:-}"
  done < "$dat"
  echo
  echo "![speedups and load reductions](larf.png)"
  echo
  echo "Reading the table: see the README section \"Locality-aware register file\"."
  echo "Raw stats: \`$raw/<workload>.{base,larf}.txt\` and \`.json\`."
} > "$md"

plot=$out/larf.png
gnuplot <<EOF
set terminal pngcairo size 1000,480 font 'Sans,10'
set output '$plot'
set title 'Locality-aware register file: speedup and global-load reduction (-hw $hw)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key top right
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
plot '$dat' using 2:xtic(1) title 'speedup', '' using 3 title 'L1 access reduction (fraction)'
EOF
echo "wrote $md, $plot ($(( ${#names[@]} * 2 )) runs in ${elapsed})"
cat "$md"
