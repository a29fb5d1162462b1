#!/usr/bin/env bash
# `make waves`: opens the demo's waveform (out/demo/warpman.fst, from `make demo`) in GTKWave
# with its save file, every signal grouped by SM and unit.
# `make waves-screenshot` (tools/waves.sh --screenshot PNG): renders the same waveform headless
# under Xvfb, zoomed on SM 0's first partial thread block after warm-up (the wm_check division,
# then the workload buffer loading), with a save file showing only SM 0's signals; this is the
# picture in the README.
# Environment: WAVES_FST (out/demo/warpman.fst), WAVES_WINDOW (START:END cycles; default
# found from the waveform).
set -euo pipefail
fst=${WAVES_FST:-out/demo/warpman.fst}
gtkw=${fst%.fst}.gtkw
if [ ! -s "$fst" ] || [ ! -s "$gtkw" ]; then
  echo "waves: $fst or $gtkw missing: run make demo first" >&2
  exit 1
fi

if [ "${1:-}" != "--screenshot" ]; then
  if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    echo "waves: no display (DISPLAY is unset). On a desktop run: gtkwave $fst $gtkw" >&2
    echo "waves: or render a picture headless: make waves-screenshot" >&2
    exit 1
  fi
  exec gtkwave "$fst" "$gtkw"
fi

png=${2:?usage: tools/waves.sh --screenshot FILE.png}
for t in xvfb-run gtkwave fst2vcd import; do
  command -v "$t" > /dev/null || { echo "waves: $t missing (make deps installs it)" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

window=${WAVES_WINDOW:-}
if [ -z "$window" ]; then
  # the first cycle >= 100 at which sm0.wm_check answers "partial": the VCD names the signal
  # by an id in its header, under scope sm0 > wm_check
  fst2vcd "$fst" 2> /dev/null > "$tmp/w.vcd"
  at=$(awk '
    $1 == "$scope" { path = path "/" $3 }
    $1 == "$upscope" { sub(/\/[^\/]*$/, "", path) }
    $1 == "$var" && path == "/rfsim/sm0/wm_check" && $5 == "partial_o" { id = $4 }
    /^#/ { t = substr($1, 2) / 1000 }
    id != "" && $0 == "1" id && t >= 100 { printf "%d\n", t; exit }' "$tmp/w.vcd")
  [ -n "$at" ] || { echo "waves: no partial TB on sm0 in $fst; set WAVES_WINDOW=START:END" >&2; exit 1; }
  window="$((at - 18)):$((at + 32))"
fi
start=${window%:*} end=${window#*:}
[[ "$start" =~ ^[0-9]+$ && "$end" =~ ^[0-9]+$ && $end -gt $start ]] ||
  { echo "waves: WAVES_WINDOW: expected START:END cycles, found '$window'" >&2; exit 1; }

# SM 0's groups only (other SMs' signals and group markers dropped), a window for the picture
awk '
  /^rfsim\.sm[0-9]+\./ && !/^rfsim\.sm0\./ { next }
  /^-sm[0-9]+/ && !/^-sm0(\.|$)/ { next }
  /^\[size\]/ { print "[size] 1600 1150"; next }
  /^\[sst_width\]/ { print "[sst_width] 1"; next }
  /^\[sst_expanded\]/ { print "[sst_expanded] 0"; next }
  /^\[dumpfile\]/ { next }
  { print }' "$gtkw" > "$tmp/sm0.gtkw"
# cycle c is [c*1000, c*1000+1000) ps; the marker sits on the answer's clock edge
cat > "$tmp/zoom.tcl" <<TCL
gtkwave::setZoomRangeTimes ${start}000 ${end}000
gtkwave::setMarker $(( (start + 18) * 1000 + 500 ))
TCL
xvfb-run -a -s "-screen 0 1600x1150x24" sh -c '
  gtkwave -S "$1/zoom.tcl" "$2" "$1/sm0.gtkw" > "$1/gtkwave.log" 2>&1 &
  pid=$!
  sleep "${WAVES_SETTLE:-6}"
  import -window root "$1/shot.png"
  kill $pid 2> /dev/null || true' _ "$tmp" "$fst"
mkdir -p "$(dirname "$png")"
mv "$tmp/shot.png" "$png"
echo "waves: wrote $png (sm0, cycles $start..$end of $fst)"
