#!/usr/bin/env bash
# The experiments' job runner. A job list has one job per line, "NAME<TAB>COMMAND": COMMAND is a
# shell command run from the repository root that writes its own outputs (rfsim runs with
# -stats_json and redirected text). The same list runs here or on a cluster, unchanged:
#
#   tools/jobs.sh run LIST [JOBS]    run every job, JOBS at a time (default: all cores); exit 1 if
#                                    any failed, naming them and their stderr files. On a
#                                    terminal one line, rewritten as jobs finish, says how many
#                                    are done of the total, how many failed and the time left;
#                                    otherwise (a log) one line per finished job
#   tools/jobs.sh slurm LIST         write LIST.sbatch, a Slurm array job (--array=1-N) whose task
#                                    i runs line i of LIST; `sbatch LIST.sbatch` submits it
#   tools/jobs.sh count LIST         print the number of jobs
#   tools/jobs.sh check LIST         exit 1, naming them, if jobs' outputs (the file each
#                                    command's stdout is redirected to) are missing or empty
#
# A job's stderr goes to <LIST's folder>/logs/<NAME>.err; an existing, empty .err of a finished
# job is removed.
#
# Resuming: with JOBS_RESUME_KEY set (say, a checksum of the binary the jobs run), `run` notes
# each job that succeeds in LIST.done with that key and its command, and skips a job noted
# there with the same key and command. A long sweep stopped midway (a machine's session ended,
# ^C) then continues where it stopped; a new binary (another key) or a changed command runs
# again.
set -uo pipefail

die() { echo "jobs: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: tools/jobs.sh run|slurm|count LIST [JOBS]"
verb=$1 list=$2
[ -f "$list" ] || die "$list: no such job list"
list=$(realpath "$list")
total=$(grep -c . "$list")
logs=$(dirname "$list")/logs
root=$(pwd)

case $verb in
count)
  echo "$total"
  ;;
check)
  missing=$(awk -F'\t' '{n = split($2, w, "> "); f = w[n]; gsub(/^ +| +$/, "", f); print $1 "\t" f}' \
              "$list" | while IFS=$'\t' read -r n f; do [ -s "$f" ] || echo "$n ($f)"; done)
  if [ -n "$missing" ]; then
    echo "jobs: $(echo "$missing" | wc -l) of $total jobs have no output yet:" >&2
    echo "$missing" | head -5 | sed 's/^/  /' >&2
    exit 1
  fi
  ;;
slurm)
  out=$list.sbatch
  cat > "$out" <<EOF
#!/usr/bin/env bash
# Slurm array job for $(basename "$list") ($total jobs), written by tools/jobs.sh. Task i runs
# line i of the list from the repository root; outputs land where a local run puts them.
#SBATCH --job-name=rfsim-$(basename "$list" .txt)
#SBATCH --array=1-$total
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=$logs/slurm-%A_%a.out
set -euo pipefail
cd "$root"
line=\$(sed -n "\${SLURM_ARRAY_TASK_ID}p" "$list")
name=\${line%%	*}
mkdir -p "$logs"
bash -c "\${line#*	}" 2> "$logs/\$name.err"
EOF
  echo "jobs: wrote $out ($total tasks): sbatch $out"
  ;;
run)
  jobs=${3:-$(nproc)}
  mkdir -p "$logs"
  declare -A started=() name_of=() cmd_of=()
  failed=() done=0 running=0 t0=$(date +%s.%N)
  tty=0
  [ -t 1 ] && tty=1
  # the terminal's line: done of total, failed, elapsed and time left (from the mean so far)
  show() {
    local now el
    now=$(date +%s.%N)
    el=$(echo "$now - $t0" | bc)
    awk -v d=$done -v t="$total" -v f=${#failed[@]} -v e="$el" '
      function hms(s) {
        s = int(s + 0.5)
        if (s >= 3600) return sprintf("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        if (s >= 60) return sprintf("%d:%02d", s / 60, s % 60)
        return sprintf("%d s", s)
      }
      BEGIN {
        fl = f ? sprintf(" (%d failed)", f) : ""
        left = d > 0 && d < t ? sprintf(", %s left", hms(e * (t - d) / d)) : ""
        printf "\r\033[Kjobs: %d of %d runs done%s, %s elapsed%s", d, t, fl, hms(e), left
      }'
  }
  finish() { # pid status
    local n=${name_of[$1]} secs
    secs=$(echo "$(date +%s.%N) - ${started[$1]}" | bc)
    done=$((done + 1))
    if [ "$2" -ne 0 ]; then
      failed+=("$n")
      [ $tty = 1 ] && printf '\r\033[K'
      printf 'jobs: [%*d/%d] %s FAILED (exit %d, %.1f s)\n' ${#total} $done "$total" "$n" "$2" "$secs"
    else
      [ -s "$logs/$n.err" ] || rm -f "$logs/$n.err"
      [ $tty = 1 ] || printf 'jobs: [%*d/%d] %s (%.1f s)\n' ${#total} $done "$total" "$n" "$secs"
    fi
    finish_hook "$n" "$2" "${cmd_of[$1]}"
    [ $tty = 1 ] && show
    unset "started[$1]" "name_of[$1]" "cmd_of[$1]"
    running=$((running - 1))
  }
  reap() {
    local pid st
    wait -n -p pid
    st=$?
    finish "$pid" "$st"
  }
  # JOBS_RESUME_KEY: the jobs that succeeded before with this key and command (LIST.done)
  ledger=$list.done resume_key=${JOBS_RESUME_KEY:-}
  declare -A kept=()
  if [ -n "$resume_key" ] && [ -f "$ledger" ]; then
    while IFS=$'\t' read -r n k c; do
      [ "$k" = "$resume_key" ] && kept[$n]=$c
    done < "$ledger"
  fi
  finish_hook() { # name status command
    [ -n "$resume_key" ] && [ "$2" -eq 0 ] &&
      printf '%s\t%s\t%s\n' "$1" "$resume_key" "$(printf '%s' "$3" | cksum)" >> "$ledger"
    return 0
  }
  [ $tty = 1 ] && show
  while IFS=$'\t' read -r n cmd; do
    [ -n "$n" ] || continue
    if [ -n "$resume_key" ] && [ "${kept[$n]+set}" ] &&
       [ "${kept[$n]}" = "$(printf '%s' "$cmd" | cksum)" ]; then
      done=$((done + 1))
      [ $tty = 1 ] && show ||
        printf 'jobs: [%*d/%d] %s (done in an earlier run)\n' ${#total} $done "$total" "$n"
      continue
    fi
    while [ $running -ge "$jobs" ]; do reap; done
    bash -c "$cmd" 2> "$logs/$n.err" &
    started[$!]=$(date +%s.%N)
    name_of[$!]=$n
    cmd_of[$!]=$cmd
    running=$((running + 1))
  done < "$list"
  while [ $running -gt 0 ]; do reap; done
  [ $tty = 1 ] && printf '\r\033[K'
  printf 'jobs: %d jobs in %.1f s on %d cores, %d failed\n' "$total" \
    "$(echo "$(date +%s.%N) - $t0" | bc)" "$jobs" ${#failed[@]}
  if [ ${#failed[@]} -gt 0 ]; then
    for n in "${failed[@]}"; do
      echo "jobs: $n failed; $logs/$n.err:" >&2
      sed 's/^/  /' "$logs/$n.err" | tail -5 >&2
    done
    exit 1
  fi
  ;;
*) die "unknown verb '$verb' (run, slurm, count, check)" ;;
esac
