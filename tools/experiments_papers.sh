#!/usr/bin/env bash
# make fidelity: each paper's experiment on the papers' own benchmarks (the cuda/ programs, as
# the rows of cuda/paper_rows.txt) on the paper's config, against the paper's baseline on that
# config, and out/experiments/fidelity.md: per paper and row, the paper's figure
# (cuda/paper_figures.txt) beside rfsim's speedup, whether the sign of the effect agrees, and
# where it does not, what the runs measured (resident TBs, L1 misses, DRAM row locality,
# stalls); per paper the count of agreeing signs and rfsim's geometric mean beside the paper's
# average.
#   warpman  (gtx480)      baseline, temp, temp+spatial, dueling, threshold (sec. 6.1)
#   regshare (tesla_c2050) baseline LRR against register sharing, t = 0.1 (90% sharing)
#   spshare  (tesla_c2050_scratchpad) baseline against scratchpad sharing, t = 0.1
#   finereg  (gtx980)      baseline against FineReg, VT, Reg+DRAM, RegMutex
#   larf     (locality_rf) baseline against the locality-aware register file
# Writes out/experiments/fidelity.md (all five papers, "not run" for runs not made yet) and
# out/experiments/papers/<paper>/ (every run's stats). Traces
# missing programs first (tools/cuda_traces.sh without its lockstep runs). Environment:
# FIDELITY_HW (-hw mode, default c), FIDELITY_PAPERS (papers to run, default all), JOBS,
# JOBS_MODE (tools/experiments_lib.sh).
set -euo pipefail
. tools/experiments_lib.sh
. tools/paper_rows.sh
MAKE_TARGET=fidelity
out=out/experiments
raw=$out/papers
hw=${FIDELITY_HW:-c}
papers=(${FIDELITY_PAPERS:-warpman regshare spshare finereg larf})
figures=cuda/paper_figures.txt

# the programs the rows need that have no trace yet
missing=$(paper_rows | awk '{print $3}' | sort -u | while read -r p; do
  [ -f "$PAPER_TRACES/$p/kernelslist.g" ] || echo "$p"; done | tr '\n' ' ')
if [ -n "${missing// /}" ] && [ "$(jobs_mode)" != report ]; then
  echo "fidelity: tracing $missing"
  CUDA_PROGRAMS="$missing" CUDA_TRACES_LOCKSTEP=0 bash tools/cuda_traces.sh
fi
paper_row_lists

# technique name | rfsim options, per paper
techniques() {
  case $1 in
    warpman) printf '%s\n' "baseline|-rfsim_policy warpman -warpman_mode off" \
      "temp|-rfsim_policy warpman -warpman_mode temp" \
      "spatial|-rfsim_policy warpman -warpman_mode spatial" \
      "dueling|-rfsim_policy warpman -warpman_mode dueling" \
      "threshold|-rfsim_policy warpman -warpman_mode threshold" ;;
    regshare) printf '%s\n' "baseline|-rfsim_policy baseline" "regshare|-rfsim_policy regshare -regshare_t 0.1" ;;
    spshare) printf '%s\n' "baseline|-rfsim_policy baseline" "spshare|-rfsim_policy spshare -spshare_t 0.1" ;;
    finereg) printf '%s\n' "baseline|-rfsim_policy baseline" "finereg|-rfsim_policy finereg" \
      "vt|-rfsim_policy vt" "regdram|-rfsim_policy regdram" "regmutex|-rfsim_policy regmutex" ;;
    larf) printf '%s\n' "baseline|-rfsim_policy baseline" "larf|-rfsim_policy larf" ;;
  esac
}
label() {
  case $1 in
    spatial) echo "temp+spatial" ;; regdram) echo "Reg+DRAM" ;; vt) echo VT ;; regmutex) echo RegMutex ;;
    finereg) echo FineReg ;; larf) echo LARF ;; regshare) echo "register sharing" ;;
    spshare) echo "scratchpad sharing" ;; *) echo "$1" ;;
  esac
}

# each paper's runs in their own folder, so that FIDELITY_PAPERS reruns some and the report
# still shows the others' (a paper never run shows "not run")
mkdir -p "$raw"
for paper in "${papers[@]}"; do
  prepare_raw "$raw/$paper"
  config=$(paper_config "$paper")
  while read -r _ row _; do
    while IFS='|' read -r t opts; do
      # shellcheck disable=SC2086 # opts is a word list
      printf -v cmd '%q ' bash tools/compare_job.sh -trace "$PAPER_LISTS/${paper}_$row/kernelslist.g" \
        -config "$config" $opts -hw "$hw" -stats_json "$raw/$paper/$row.$t.json"
      printf '%s\t%s> %q\n' "$paper.$row.$t" "$cmd" "$raw/$paper/$row.$t.txt"
    done < <(techniques "$paper")
  done < <(paper_rows "$paper")
done > "$raw/jobs.txt.new"
# replaced whole, so that a sweep still reading the list (FIDELITY_PAPERS=a beside
# FIDELITY_PAPERS=b) keeps reading its own
mv "$raw/jobs.txt.new" "$raw/jobs.txt"
# a run that fails (a deadlock the watchdog reports) is a row of the report, not its end
sweep_failed=0
SWEEP_KEEP_GOING=1 run_sweep "$raw/jobs.txt"

# figure PAPER ROW TECHNIQUE: the paper's figure and its source, or nothing
figure() { awk -v p="$1" -v r="$2" -v t="$3" '!/^#/ && $1 == p && $2 == r && $3 == t {
  f = $4; $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print f "\t" $0; exit }' "$figures"; }
# sign of a percentage or a +/-/~0 figure, with a 1% dead zone: + - or 0
sign_of_figure() {
  case $1 in
    # quoted: an unquoted ~0 is a tilde prefix (the working directory) and never matched
    '~0') echo 0 ;; +) echo + ;; -) echo - ;;
    *) awk -v v="$1" 'BEGIN { print (v > 1 ? "+" : v < -1 ? "-" : "0") }' ;;
  esac
}
sign_of_speedup() { awk -v s="$1" 'BEGIN { print (s == "-" ? "?" : s > 1.01 ? "+" : s < 0.99 ? "-" : "0") }'; }
# a figure as the table shows it: 71.4 -> 71.4%, +60 -> > +60%, + -> a gain, ~0 -> about 0
show_figure() {
  case $1 in
    +) echo "a gain" ;; -) echo "a loss" ;; '~0') echo "about 0" ;; +*) echo "> $1%" ;; *) echo "$1%" ;;
  esac
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else print "-" }'; }
pct() { awk -v s="$1" 'BEGIN { if (s == "-") print "-"; else printf "%+.1f%%", (s - 1) * 100 }'; }
# what the two runs measured, for a disagreement
measured() {
  local b=$1 t=$2
  awk -v b="$b" -v t="$t" 'function get(f, k,   v) { v = "-"; while ((getline l < f) > 0) {
      if (l ~ /^---- total ----/) tot = 1; if (tot) { split(l, w, " = "); if (w[1] == k) v = w[2] } }
      close(f); tot = 0; return v }
    function miss(f,   a, m) { a = get(f, "L1D_total_cache_accesses"); m = get(f, "L1D_total_cache_misses");
      return a > 0 ? sprintf("%.0f%%", 100 * m / a) : "-" }
    BEGIN {
      printf "resident TBs/SM %.2f -> %.2f, warps %.1f -> %.1f; L1 misses %s -> %s; L2 hit %.2f -> %.2f; " \
             "DRAM row locality %.2f -> %.2f; cycles %s -> %s; scheduler slots idle %s -> %s, " \
             "scoreboard %s -> %s, pipeline %s -> %s, barrier %s -> %s, policy %s -> %s",
        get(b, "rfsim_resident_ctas_mean_per_sm"), get(t, "rfsim_resident_ctas_mean_per_sm"),
        get(b, "rfsim_resident_warps_mean_per_sm"), get(t, "rfsim_resident_warps_mean_per_sm"),
        miss(b), miss(t), get(b, "L2_total_cache_hit_rate"), get(t, "L2_total_cache_hit_rate"),
        get(b, "dram_row_buffer_locality"), get(t, "dram_row_buffer_locality"),
        get(b, "gpu_sim_cycle"), get(t, "gpu_sim_cycle"),
        get(b, "gpgpu_stall_idle"), get(t, "gpgpu_stall_idle"), get(b, "gpgpu_stall_scoreboard"),
        get(t, "gpgpu_stall_scoreboard"), get(b, "gpgpu_stall_pipeline"),
        get(t, "gpgpu_stall_pipeline"), get(b, "gpgpu_stall_barrier"), get(t, "gpgpu_stall_barrier"),
        get(b, "gpgpu_stall_policy"), get(t, "gpgpu_stall_policy")
      e = get(t, "larf_loads_elided")
      if (e != "-") printf "; LARF elided %s of %s memory instructions (%s perfect, %s partial)", e,
        get(t, "gpgpu_n_mem_insn"), get(t, "larf_hits_perfect"), get(t, "larf_hits_partial") }'
}

md=$out/fidelity.md
{
  echo "# rfsim against the papers, on the papers' own benchmarks"
  echo
  echo "Written by \`make fidelity\` (tools/experiments_papers.sh, $(date -u +%Y-%m-%d), -hw $hw, $sweep_time)."
  echo "Each row is a program of cuda/ (cuda/paper_rows.txt) run on the paper's config against the"
  echo "paper's baseline there; rfsim's figure is the speedup of gpu_ipc (thread instructions per cycle)."
  echo "The paper's figure is its text's or table's number (cuda/paper_figures.txt); \"figure only\" where"
  echo "the number is only in a plot. Signs: + above +1%, - below -1%, 0 between. Where the signs disagree,"
  echo "the line below the row gives what the two runs measured (baseline -> technique)."
  echo
  for paper in warpman regshare spshare finereg larf; do
    config=$(paper_config "$paper")
    mapfile -t ts < <(techniques "$paper" | cut -d'|' -f1 | tail -n +2)
    echo "## $paper ($config)"
    echo
    echo "| row | program | technique | paper | rfsim | signs |"
    echo "|---|---|---|---:|---:|---|"
    declare -A prod=() cnt=() agree=() known=()
    while read -r _ row prog _; do
      base=$raw/$paper/$row.baseline.txt
      for t in "${ts[@]}"; do
        run=$raw/$paper/$row.$t.txt
        if [ ! -s "$run" ] || [ ! -s "$base" ]; then
          err=$(grep -h -m1 '^rfsim: error:' "$raw/logs/$paper.$row.$t.err" \
                  "$raw/logs/$paper.$row.baseline.err" 2>/dev/null | head -1 || true)
          if [ -n "$err" ]; then
            echo "| $row | $prog | $(label "$t") | | failed: ${err#rfsim: error: } (logs/$paper.$row.$t.err) | |"
          else
            echo "| $row | $prog | $(label "$t") | | not run | |"
          fi
          continue
        fi
        if grep -q '^refused:' "$run" 2>/dev/null; then
          echo "| $row | $prog | $(label "$t") | | refused: $(sed -n 's/^refused: //p' "$run" | head -1) | |"
          continue
        fi
        s=$(ratio "$(stat gpu_ipc "$run")" "$(stat gpu_ipc "$base")")
        [ "$s" = - ] || { prod[$t]=$(awk -v p="${prod[$t]:-0}" -v s="$s" 'BEGIN { print p + log(s) }'); cnt[$t]=$((${cnt[$t]:-0} + 1)); }
        f=$(figure "$paper" "$row" "$t")
        if [ -z "$f" ]; then
          echo "| $row | $prog | $(label "$t") | figure only | $(pct "$s") | |"
          continue
        fi
        fv=${f%%$'\t'*} src=${f#*$'\t'}
        ps=$(sign_of_figure "$fv") rs=$(sign_of_speedup "$s")
        known[$t]=$((${known[$t]:-0} + 1))
        if [ "$ps" = "$rs" ]; then
          agree[$t]=$((${agree[$t]:-0} + 1))
          echo "| $row | $prog | $(label "$t") | $(show_figure "$fv") ($src) | $(pct "$s") | agree ($ps) |"
        else
          echo "| $row | $prog | $(label "$t") | $(show_figure "$fv") ($src) | $(pct "$s") | **differ** (paper $ps, rfsim $rs) |"
          echo "| | | | | | measured: $(measured "$base" "$run") |"
        fi
      done
    done < <(paper_rows "$paper")
    echo
    for t in "${ts[@]}"; do
      g=$(awk -v p="${prod[$t]:-0}" -v n="${cnt[$t]:-0}" 'BEGIN { if (n) printf "%+.1f%%", (exp(p / n) - 1) * 100; else print "-" }')
      f=$(figure "$paper" all "$t")
      pa=${f%%$'\t'*}
      echo "- $(label "$t"): signs agree in ${agree[$t]:-0} of ${known[$t]:-0} rows with a paper figure; geomean over ${cnt[$t]:-0} rows $g (paper's average: ${pa:-not stated}${pa:+%})."
    done
    echo
    unset prod cnt agree known
  done
} > "$md"
echo "fidelity: $md"
if [ "$sweep_failed" = 1 ]; then
  echo "fidelity: some runs failed; their rows say why ($raw/logs/)" >&2
  exit 1
fi
