#!/usr/bin/env bash
# `make demo`: the main job on a bundled example. Runs the analog of WarpMan's ST benchmark (a
# stencil whose thread blocks have strongly imbalanced warps) on the GTX 480 config twice:
#   1. the baseline dispatcher (C model only), for reference;
#   2. WarpMan temporal+spatial with its hardware units (wm_check, wm_wlbuf) co-simulated as
#      Verilated RTL, cycle by cycle, recording an FST waveform.
# Writes under out/demo/:
#   stats.txt, stats.json        the WarpMan RTL run's stats (GPGPU-Sim names)
#   baseline.txt, baseline.json  the baseline run's
#   warpman.fst, warpman.gtkw    the waveform and its GTKWave save file (`make waves` opens it);
#                                wave/ holds each Verilated unit's internal FST
#   synth.txt                    the synthesis summary (Yosys + OpenSTA), also printed
# Environment: DEMO_WORKLOAD (warpman_st), DEMO_CONFIG (configs/gtx480.config),
# DEMO_MODE (spatial), DEMO_HW (rtl).
set -euo pipefail
workload=${DEMO_WORKLOAD:-warpman_st}
config=${DEMO_CONFIG:-configs/gtx480.config}
mode=${DEMO_MODE:-spatial}
hw=${DEMO_HW:-rtl}
out=out/demo
trace=build/traces/$workload/kernelslist.g
# a stale result must not pass for this run's
rm -rf "$out"
mkdir -p "$out/wave"

stat() { awk -v k="$1" '/^---- total ----/ {t = 1} t && $1 == k {print $3; exit}' "$2"; }

echo "== trace: $trace ($(bin/traceinfo "$trace" | grep -m1 -E 'warp instructions|warp_insts' || true))"
echo "== baseline: rfsim -trace $trace -config $config"
bin/rfsim -trace "$trace" -config "$config" -stats_json "$out/baseline.json" > "$out/baseline.txt"

cmd=(bin/rfsim -trace "$trace" -config "$config" -rfsim_policy warpman -warpman_mode "$mode"
     -hw "$hw" -wave "$out/wave/warpman.fst" -stats_json "$out/stats.json")
echo "== WarpMan ($mode), units as $hw: ${cmd[*]}"
"${cmd[@]}" > "$out/stats.txt"
# the run's own waveform and save file beside the stats; the per-unit RTL internals stay in wave/
mv "$out/wave/warpman.fst" "$out/warpman.fst"
sed 's|^\[dumpfile\] .*|[dumpfile] "warpman.fst"|' "$out/wave/warpman.gtkw" > "$out/warpman.gtkw"
rm -f "$out/wave/warpman.gtkw"

echo "== stats, run total ($out/stats.txt, $out/stats.json):"
awk '/^---- total ----/ {t = 1} t' "$out/stats.txt" |
  grep -E '^(gpu_sim_cycle|gpu_sim_insn|gpu_ipc|gpgpu_n_tot_w_icount|rfsim_resident_warps_mean_per_sm|warpman_partial_tbs|warpman_rtru_geomean|L1D_total_cache_hit_rate|L2_total_cache_hit_rate) ='
base_ipc=$(stat gpu_ipc "$out/baseline.txt")
wm_ipc=$(stat gpu_ipc "$out/stats.txt")
echo "== IPC: baseline $base_ipc, WarpMan ($mode, $hw) $wm_ipc: speedup $(echo "scale=3; $wm_ipc / $base_ipc" | bc)x"
echo "== waveform: $out/warpman.fst with $out/warpman.gtkw ($(du -k "$out/warpman.fst" | cut -f1) KB); open it with: make waves"
echo "== synthesis (make synth; per-unit reports in build/synth/):"
cp build/synth/summary.txt "$out/synth.txt"
cat "$out/synth.txt"
