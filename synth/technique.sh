#!/usr/bin/env bash
# Per-technique synthesis figures: the sum over the technique's units (every descriptor in
# csim/hw/TECH/) of bits, cells, transistors and area; the maximum depth; the minimum slack.
# Each unit is synthesized on its own (synth/synth.sh); the units of a technique share no
# logic, so the sums are what one SM adds.
# usage: synth/technique.sh TECH OUTDIR
set -euo pipefail
tech=$1 out=$2
units=$(cd "csim/hw/$tech" && ls *.def | sed 's/\.def$//')
field() { sed -n "s/.*\"$1\": \([-0-9.]*\).*/\1/p" "$out/$2.json" | head -1; }
sum=() ; for k in flop_bits memory_bits cells transistors lib_cells area_um2; do
  v=0; for u in $units; do v=$(awk -v a="$v" -v b="$(field $k $u)" 'BEGIN { print a + b }'); done
  sum+=("\"$k\": $v")
done
depth=0; slack=""; mhz=""; fmax=""
for u in $units; do
  d=$(field depth $u); [ "$d" -gt "$depth" ] && depth=$d
  s=$(field slack_ns $u); mhz=$(field clock_mhz $u); f=$(field fmax_mhz $u)
  if [ -z "$fmax" ] || [ "$f" -lt "$fmax" ]; then fmax=$f; fi
  if [ -z "$slack" ] || awk -v a="$s" -v b="$slack" 'BEGIN { exit !(a < b) }'; then slack=$s; fi
done
quote() { echo $* | sed 's/\([a-z0-9_]*\)/"\1"/g; s/" "/", "/g'; }
list=$(quote $units)
{
  echo "{"
  echo "  \"technique\": \"$tech\","
  echo "  \"units\": [$list],"
  for s in "${sum[@]}"; do echo "  $s,"; done
  echo "  \"depth\": $depth,"
  echo "  \"clock_mhz\": $mhz,"
  echo "  \"slack_ns\": $slack,"
  echo "  \"fmax_mhz\": $fmax"
  echo "}"
} > "$out/$tech.json.tmp"
mv "$out/$tech.json.tmp" "$out/$tech.json"
{
  echo "technique $tech = $(echo $units | sed 's/ / + /g') (one SM)"
  for s in "${sum[@]}"; do echo "  $s" | tr -d '"'; done
  echo "  depth: $depth (deepest unit)"
  echo "  slack_ns: $slack at $mhz MHz (worst unit)"
} > "$out/$tech.txt"
