#!/usr/bin/env bash
# `make demo`: the main job on a bundled example. Runs the workload analog of WarpMan's ST
# (a stencil whose thread blocks have strongly imbalanced warps) on the GTX 480 config and
# writes its stats as text and JSON under out/demo/.
set -euo pipefail
workload=${DEMO_WORKLOAD:-warpman_st}
config=${DEMO_CONFIG:-configs/gtx480.config}
out=out/demo
mkdir -p "$out"
trace=build/traces/$workload/kernelslist.g
echo "== trace: $trace ($(bin/traceinfo "$trace" | grep -m1 -E 'warp instructions|warp_insts' || true))"
echo "== rfsim -trace $trace -config $config -stats_json $out/stats.json"
bin/rfsim -trace "$trace" -config "$config" -stats_json "$out/stats.json" > "$out/stats.txt"
echo "== stats ($out/stats.txt, $out/stats.json):"
grep -E '^(gpu_sim_cycle|gpu_sim_insn|gpu_ipc|gpgpu_n_tot_w_icount|rfsim_resident_warps_mean_per_sm|L1D_total_cache_hit_rate|L2_total_cache_hit_rate|dram_row_buffer_locality) =' \
  "$out/stats.txt" | tail -8
