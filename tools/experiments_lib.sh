# Sourced by the experiment scripts (tools/experiments_*.sh): how a sweep is run and how a run's
# stats are read, written once.
#
# A sweep is a job list (tools/jobs.sh): one rfsim run per line. JOBS_MODE chooses what happens
# to it:
#   run     (default) run it here on JOBS cores (default: all), one progress line per run;
#   export  write <list>.sbatch, a Slurm array job that runs the same list unchanged, and stop;
#           once the array job has finished, `JOBS_MODE=report make <target>` writes the report;
#   report  use the outputs already in place (from a cluster run or an earlier local one).

jobs_mode() { echo "${JOBS_MODE:-run}"; }

# prepare_raw DIR: the folder of a sweep's outputs; old outputs go unless we only report.
prepare_raw() {
  mkdir -p "$1"
  case $(jobs_mode) in
    run|export) rm -rf "$1"/*.txt "$1"/*.json "$1"/logs ;;
    report) ;;
    *) echo "JOBS_MODE must be run, export or report, found '$(jobs_mode)'" >&2; exit 2 ;;
  esac
}

# rfsim_job NAME RAW TRACE CONFIG [OPTION...]: the job-list line of one run, writing
# RAW/NAME.txt (stats text) and RAW/NAME.json.
rfsim_job() {
  local name=$1 raw=$2 trace=$3 config=$4 cmd
  shift 4
  printf -v cmd '%q ' bin/rfsim -trace "$trace" -config "$config" "$@" -stats_json "$raw/$name.json"
  printf '%s\t%s> %q\n' "$name" "$cmd" "$raw/$name.txt"
}

# A run of the sweep failed or has no output: the end of the target, or with SWEEP_KEEP_GOING=1
# a result to report (sweep_failed=1).
sweep_fails() {
  [ -n "${SWEEP_KEEP_GOING:-}" ] || exit 1
  sweep_failed=1
}

# run_sweep LIST: runs, exports or skips the list (JOBS_MODE); sets sweep_time ("59 s").
run_sweep() {
  local t0
  t0=$(date +%s.%N)
  case $(jobs_mode) in
    run) bash tools/jobs.sh run "$1" "${JOBS:-$(nproc)}" || sweep_fails ;;
    export)
      bash tools/jobs.sh slurm "$1"
      echo "then, when the array job has finished: JOBS_MODE=report make ${MAKE_TARGET:-<target>}"
      exit 0 ;;
    report)
      bash tools/jobs.sh check "$1" || sweep_fails
      echo "jobs: reporting from the outputs already in $(dirname "$1")"
      sweep_time="earlier runs (JOBS_MODE=report)"
      return ;;
  esac
  sweep_time=$(printf '%.0f s' "$(echo "$(date +%s.%N) - $t0" | bc)")
}

# stat NAME FILE: NAME's value in the run total of a stats text file.
stat() { awk -v k="$1" '/^---- total ----/ {t = 1} t && $1 == k {print $3; exit}' "$2"; }

# speedup_chart PNG SIZE TITLE SERIES...: draws speedups over the baseline with gnuplot, a cluster
# of bars per workload (slanted x labels) and a dashed line at 1; each SERIES is one plot
# element, the first naming the data file: "'f.dat' using 2:xtic(1) title 'A'" "'' using 3 ...".
speedup_chart() {
  local png=$1 size=$2 title=$3 series
  shift 3
  printf -v series '%s, ' "$@"
  gnuplot <<EOF
set terminal pngcairo size $size font 'Sans,10'
set output '$png'
set title '$title'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel 'speedup over baseline'
set yrange [0:*]
set grid ytics
set key top left
set xtics rotate by -30
set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2
plot ${series%, }
EOF
}
