#!/usr/bin/env bash
# make paper-table: the papers' rows beside the traced cuda/ programs (bin/paper-table: threads,
# registers, shared memory, resident TBs per SM and their limiter on each paper's config, TBs
# with 90% sharing), with rfsim's baseline IPC of every WarpMan row on the GTX 480 config beside
# WarpMan's Table 2. A row runs the launches of its kernels only (build/paper-rows/). Writes
# build/paper-rows/paper_table.txt and prints it. Needs the traces (make cuda-traces).
set -euo pipefail
. tools/experiments_lib.sh
. tools/paper_rows.sh
MAKE_TARGET=paper-table
paper_row_lists
raw=$PAPER_LISTS/baseline
prepare_raw "$raw"
config=$(paper_config warpman)
paper_rows warpman | while read -r paper row _; do
  rfsim_job "$paper.$row" "$raw" "$PAPER_LISTS/${paper}_$row/kernelslist.g" "$config" \
    -rfsim_policy baseline
done > "$raw/jobs.txt"
run_sweep "$raw/jobs.txt"
paper_rows warpman | while read -r paper row _; do
  echo "$paper $row $(stat gpu_ipc "$raw/$paper.$row.txt")"
done > "$raw/ipc.txt"
bin/paper-table -ipc "$raw/ipc.txt" | tee "$PAPER_LISTS/paper_table.txt"
