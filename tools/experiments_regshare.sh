#!/usr/bin/env bash
# `make experiments-regshare`: register sharing and scratchpad sharing (resource_sharing_register_
# and_scratchpad.txt sec. VI, Fig. 8-12, Tables V-VIII; register_sharing.txt sec. 7) on the
# suite's workload analogs:
#   register sharing   Set-1 (regshare_*, Table II) and Set-3 on configs/tesla_c2050.config
#   scratchpad sharing Set-2 (spshare_*, Table III) and Set-3 on tesla_c2050_scratchpad.config
# Configurations (the papers' labels):
#   Unshared-LRR, Unshared-GTO                 -rfsim_policy baseline, -gpgpu_scheduler lrr|gto
#   Shared-LRR-NoOpt                           sharing, LRR, no optimization
#   Shared-LRR-Unroll, Shared-LRR-Unroll-Dyn   + register renumbering, + dynamic warp execution
#   Shared-GTO-Unroll-Dyn                      the same over GTO (Set-3)
#   Shared-OWF-Unroll-Dyn (register), Shared-OWF (scratchpad): owner-warp-first classes, each
#     class in oldest-first (GTO) order, the papers' "dynamic warp id" order
#   and the 0-90% sweep (t = 1 .. 0.1) of the OWF configuration: IPC and resident TBs.
# Writes out/experiments/regshare.md, regshare.png, regshare_*.dat and every run's stats under
# out/experiments/regshare/. Environment: REGSHARE_HW (c; lockstep compares the RTL every
# cycle), JOBS (nproc), JOBS_MODE (run | export: a Slurm array job | report; see
# tools/experiments_lib.sh).
set -euo pipefail
. tools/experiments_lib.sh
MAKE_TARGET=experiments-regshare
hw=${REGSHARE_HW:-c}
out=out/experiments
raw=$out/regshare
prepare_raw "$raw"
REG_CFG=configs/tesla_c2050.config
SP_CFG=configs/tesla_c2050_scratchpad.config
set1=(backprop btree hotspot lib mum mriq sgemm stencil)
set2=(conv1 conv2 lavamd nw1 nw2 srad1 srad2)
set3=(backprop_fwd bfs gaussian_fan2 nn)
pcts=(0 10 30 50 70 90)
ts=(1.0 0.9 0.7 0.5 0.3 0.1)

rs_off="-rfsim_policy regshare -regshare_owf 0 -regshare_unroll 0 -regshare_dyn 0"
declare -A opts=(
  [unshared_lrr]="-rfsim_policy baseline -gpgpu_scheduler lrr"
  [unshared_gto]="-rfsim_policy baseline -gpgpu_scheduler gto"
  [rs_lrr_noopt]="$rs_off -gpgpu_scheduler lrr"
  [rs_lrr_unroll]="$rs_off -regshare_unroll 1 -gpgpu_scheduler lrr"
  [rs_lrr_unroll_dyn]="$rs_off -regshare_unroll 1 -regshare_dyn 1 -gpgpu_scheduler lrr"
  [rs_gto_unroll_dyn]="$rs_off -regshare_unroll 1 -regshare_dyn 1 -gpgpu_scheduler gto"
  [rs_owf_unroll_dyn]="-rfsim_policy regshare -regshare_owf 1 -regshare_unroll 1 -regshare_dyn 1 -gpgpu_scheduler gto"
  [sp_lrr_noopt]="-rfsim_policy spshare -spshare_owf 0 -gpgpu_scheduler lrr"
  [sp_gto]="-rfsim_policy spshare -spshare_owf 0 -gpgpu_scheduler gto"
  [sp_owf]="-rfsim_policy spshare -spshare_owf 1 -gpgpu_scheduler gto"
)
reg_main=(unshared_lrr unshared_gto rs_lrr_noopt rs_lrr_unroll rs_lrr_unroll_dyn rs_owf_unroll_dyn)
sp_main=(unshared_lrr unshared_gto sp_lrr_noopt sp_owf)
reg_set3=(unshared_lrr rs_lrr_unroll_dyn unshared_gto rs_gto_unroll_dyn rs_owf_unroll_dyn)
sp_set3=(unshared_lrr sp_lrr_noopt unshared_gto sp_gto sp_owf)

# run list: "<name> <config> <workload> <options...>"; <name> = <tech>.<workload>.<label>
runs=$(
  for w in "${set1[@]}"; do
    for l in "${reg_main[@]}"; do echo "reg.$w.$l $REG_CFG regshare_$w ${opts[$l]}"; done
    for i in 0 1 2 3 4; do
      echo "reg.$w.t${ts[$i]} $REG_CFG regshare_$w ${opts[rs_owf_unroll_dyn]} -regshare_t ${ts[$i]}"
    done
  done
  for w in "${set2[@]}"; do
    for l in "${sp_main[@]}"; do echo "sp.$w.$l $SP_CFG spshare_$w ${opts[$l]}"; done
    for i in 0 1 2 3 4; do
      echo "sp.$w.t${ts[$i]} $SP_CFG spshare_$w ${opts[sp_owf]} -spshare_t ${ts[$i]}"
    done
  done
  for w in "${set3[@]}"; do
    for l in "${reg_set3[@]}"; do echo "reg3.$w.$l $REG_CFG regshare_$w ${opts[$l]}"; done
    for l in "${sp_set3[@]}"; do echo "sp3.$w.$l $SP_CFG regshare_$w ${opts[$l]}"; done
  done)
for w in "${set1[@]}" "${set3[@]}"; do
  [ -f "build/traces/regshare_$w/kernelslist.g" ] ||
    { echo "build/traces/regshare_$w missing: run make workloads" >&2; exit 1; }
done

while read -r name cfg wl opt; do
  # shellcheck disable=SC2086 # the options are words
  rfsim_job "$name" "$raw" "build/traces/$wl/kernelslist.g" "$cfg" $opt -hw "$hw"
done <<< "$runs" > "$raw/jobs.txt"
run_sweep "$raw/jobs.txt"
elapsed=$sweep_time
nruns=$(echo "$runs" | wc -l)
ipc() { stat gpu_ipc "$raw/$1.txt"; }
ratio() { echo "scale=6; $1 / $2" | bc; }
tbs() { stat rfsim_resident_ctas_max_per_sm "$raw/$1.txt"; }

# speedups over Unshared-LRR, per workload: $1 = tech prefix, $2 = workloads, $3.. = labels
table() {
  local tech=$1 ws=$2; shift 2
  for w in $ws; do
    local base; base=$(ipc "$tech.$w.unshared_lrr")
    local line="$w $base"
    for l in "$@"; do line+=" $(ratio "$(ipc "$tech.$w.$l")" "$base")"; done
    echo "$line"
  done
}
geo() { awk '{for (i = 3; i <= NF; i++) {s[i] += log($i)}; n = NF; c++}
            END {printf "geomean -"; for (i = 3; i <= n; i++) printf " %.4f", exp(s[i] / c); print ""}'; }
sweep() { # tech workloads: IPC and resident TBs at 0..90 %
  local tech=$1 ws=$2 full=$3
  for w in $ws; do
    local line="$w"
    for i in 0 1 2 3 4; do line+=" $(ipc "$tech.$w.t${ts[$i]}")"; done
    line+=" $(ipc "$tech.$w.$full")"
    for i in 0 1 2 3 4; do line+=" $(tbs "$tech.$w.t${ts[$i]}")"; done
    line+=" $(tbs "$tech.$w.$full")"
    echo "$line"
  done
}

reg_dat=$out/regshare_register.dat
sp_dat=$out/regshare_scratchpad.dat
{ table reg "${set1[*]}" unshared_gto rs_lrr_noopt rs_lrr_unroll rs_lrr_unroll_dyn rs_owf_unroll_dyn
} > "$reg_dat"
{ table sp "${set2[*]}" unshared_gto sp_lrr_noopt sp_owf; } > "$sp_dat"
reg_geo=$(geo < "$reg_dat")
sp_geo=$(geo < "$sp_dat")
sweep reg "${set1[*]}" rs_owf_unroll_dyn > "$out/regshare_register_sweep.dat"
sweep sp "${set2[*]}" sp_owf > "$out/regshare_scratchpad_sweep.dat"
{ table reg3 "${set3[*]}" rs_lrr_unroll_dyn unshared_gto rs_gto_unroll_dyn rs_owf_unroll_dyn
} > "$out/regshare_register_set3.dat"
{ table sp3 "${set3[*]}" sp_lrr_noopt unshared_gto sp_gto sp_owf; } > "$out/regshare_scratchpad_set3.dat"

# extra counters behind the reading: resident TBs, lock grants, where non-owners first wait
detail() { # tech workload label
  local f=$raw/$1.$2.$3.txt p=${4}
  printf "%s %s %s %s %s\n" "$(tbs "$1.$2.unshared_lrr")" "$(tbs "$1.$2.$3")" \
    "$(stat ${p}_lock_grants "$f")" "$(stat ${p}_insts_before_first_lock_wait_mean "$f")" \
    "$(stat ${p}_dwe_blocked_issue_attempts "$f" 2> /dev/null || echo -)"
}

md=$out/regshare.md
row() { awk '{printf "| %s | %.1f", $1, $2; for (i = 3; i <= NF; i++) printf " | %.3f", $i; print " |"}'; }
georow() { awk '{printf "| **geomean** | -"; for (i = 3; i <= NF; i++) printf " | **%.3f**", $i; print " |"}'; }
{
  echo "# Register sharing and scratchpad sharing on the suite's analogs"
  echo
  echo "\`make experiments-regshare\` ($(date -u +%Y-%m-%d), \`-hw $hw\`): $nruns runs in ${elapsed}."
  echo "Register sharing on \`$REG_CFG\` (Tesla C2050, 32768 registers, 48 KB), scratchpad"
  echo "sharing on \`$SP_CFG\` (16 KB, the resource_sharing paper's Table I). Speedup = IPC"
  echo "over Unshared-LRR. Sharing is 90% (t = 0.1) unless a sweep says otherwise. OWF orders"
  echo "each class oldest first (the papers' dynamic warp id), so it runs over GTO."
  echo "Paper (GPGPU-Sim, the real benchmarks): register sharing up to +24%, +11% on average"
  echo "(Shared-OWF-Unroll-Dyn); scratchpad sharing up to +30%, +12.5% on average (Shared-OWF)."
  echo
  echo "## Register sharing, Set-1 (limited by registers)"
  echo
  echo "| workload | Unshared-LRR IPC | Unshared-GTO | Shared-LRR-NoOpt | +Unroll | +Unroll+Dyn | Shared-OWF-Unroll-Dyn |"
  echo "|---|---|---|---|---|---|---|"
  row < "$reg_dat"
  echo "$reg_geo" | georow
  echo
  echo "| workload | TBs/SM unshared | shared | lock grants | insts before first lock wait | DWE-held attempts |"
  echo "|---|---|---|---|---|---|"
  for w in "${set1[@]}"; do
    echo "| $w | $(detail reg "$w" rs_owf_unroll_dyn regshare | tr ' ' '|' | sed 's/|/ | /g') |"
  done
  echo
  echo "### Sweep (Shared-OWF-Unroll-Dyn): IPC and resident TBs per SM (Tables V and VI)"
  echo
  echo "| workload | IPC 0% | 10% | 30% | 50% | 70% | 90% | TBs 0% | 10% | 30% | 50% | 70% | 90% |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk '{printf "| %s", $1; for (i = 2; i <= 7; i++) printf " | %.1f", $i;
        for (i = 8; i <= 13; i++) printf " | %d", $i; print " |"}' "$out/regshare_register_sweep.dat"
  echo
  echo "### Set-3 (limited by threads or CTA slots: nothing to share)"
  echo
  echo "| workload | Unshared-LRR IPC | Shared-LRR-Unroll-Dyn | Unshared-GTO | Shared-GTO-Unroll-Dyn | Shared-OWF-Unroll-Dyn |"
  echo "|---|---|---|---|---|---|"
  row < "$out/regshare_register_set3.dat"
  echo
  echo "## Scratchpad sharing, Set-2 (limited by scratchpad)"
  echo
  echo "| workload | Unshared-LRR IPC | Unshared-GTO | Shared-LRR-NoOpt | Shared-OWF |"
  echo "|---|---|---|---|---|"
  row < "$sp_dat"
  echo "$sp_geo" | georow
  echo
  echo "| workload | TBs/SM unshared | shared | region grants | insts before first wait | - |"
  echo "|---|---|---|---|---|---|"
  for w in "${set2[@]}"; do
    echo "| $w | $(detail sp "$w" sp_owf spshare | tr ' ' '|' | sed 's/|/ | /g') |"
  done
  echo
  echo "### Sweep (Shared-OWF): IPC and resident TBs per SM (Tables VII and VIII)"
  echo
  echo "| workload | IPC 0% | 10% | 30% | 50% | 70% | 90% | TBs 0% | 10% | 30% | 50% | 70% | 90% |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  awk '{printf "| %s", $1; for (i = 2; i <= 7; i++) printf " | %.1f", $i;
        for (i = 8; i <= 13; i++) printf " | %d", $i; print " |"}' "$out/regshare_scratchpad_sweep.dat"
  echo
  echo "### Set-3"
  echo
  echo "| workload | Unshared-LRR IPC | Shared-LRR | Unshared-GTO | Shared-GTO | Shared-OWF |"
  echo "|---|---|---|---|---|---|"
  row < "$out/regshare_scratchpad_set3.dat"
  echo
  echo "![speedups](regshare.png)"
  echo
  echo "Raw stats: \`$raw/<tech>.<workload>.<configuration>.txt\` and \`.json\`."
} > "$md"

plot=$out/regshare.png
{ cat "$reg_dat"; echo "$reg_geo"; } | awk '{print $1, $3, $4, $5, $6, $7}' > "$out/regshare_register_plot.dat"
{ cat "$sp_dat"; echo "$sp_geo"; } | awk '{print $1, $3, $4, $5}' > "$out/regshare_scratchpad_plot.dat"
gnuplot <<EOF
set terminal pngcairo size 1300,900 font 'Sans,10'
set output '$plot'
set multiplot layout 2,1
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel 'IPC over Unshared-LRR'
set yrange [0:*]
set grid ytics
set key top left horizontal
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
set title 'Register sharing, Set-1 (Tesla C2050, 90% sharing, -hw $hw)'
plot '$out/regshare_register_plot.dat' using 2:xtic(1) title 'Unshared-GTO', \
     '' using 3 title 'Shared-LRR-NoOpt', '' using 4 title '+Unroll', \
     '' using 5 title '+Unroll+Dyn', '' using 6 title 'Shared-OWF-Unroll-Dyn'
set title 'Scratchpad sharing, Set-2 (Tesla C2050, 16 KB, 90% sharing, -hw $hw)'
plot '$out/regshare_scratchpad_plot.dat' using 2:xtic(1) title 'Unshared-GTO', \
     '' using 3 title 'Shared-LRR-NoOpt', '' using 4 title 'Shared-OWF'
unset multiplot
EOF
echo "wrote $md, $plot ($nruns runs in ${elapsed})"
cat "$md"
