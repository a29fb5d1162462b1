#!/usr/bin/env bash
# Summary table of every unit and technique synthesized into OUTDIR, each figure beside the
# paper's analytical figure (synth/reference.txt) and why they differ.
# usage: synth/summary.sh OUTDIR REFERENCE TECH...
set -euo pipefail
out=$1 ref=$2; shift 2
field() { sed -n "s/.*\"$1\": \"\{0,1\}\([^,\"]*\)\"\{0,1\},\{0,1\}$/\1/p" "$out/$2.json" | head -1; }
lib=""; mhz=""
fmt='%-9s %6s %5s %6s %8s %5s %9s %8s %5s | %6s %5s\n'
printf "$fmt" name flops mem cells transist depth area_um2 slack_ns fmax paper diff
printf '%s\n' "$(printf '%.0s-' {1..96})"
row() {
  local n=$1
  local f=$(field flop_bits $n) m=$(field memory_bits $n) c=$(field cells $n)
  local t=$(field transistors $n) d=$(field depth $n) a=$(field area_um2 $n) s=$(field slack_ns $n)
  local fm=$(field fmax_mhz $n)
  [ -z "$mhz" ] && mhz=$(field clock_mhz $n)
  local l=$(field liberty $n); [ -n "$l" ] && lib=$l
  local p why diff
  p=$(awk -F'|' -v n="$n" '$1 == n && $2 == "flop bits" { print $3 }' "$ref")
  why=$(awk -F'|' -v n="$n" '$1 == n && $2 == "flop bits" { print $4 ". Difference: " $5 }' "$ref")
  if [[ "$p" =~ ^[0-9]+$ ]]; then diff=$(( f - p )); [ $diff -ge 0 ] && diff="+$diff"; else p=${p:-"-"}; diff="-"; fi
  printf "$fmt" "$n" "$f" "$m" "$c" "$t" "$d" "$(printf '%.0f' "$a")" "$s" "$fm" "$p" "$diff"
  local abc; abc=$(field abc_script $n)
  [ -n "$abc" ] && echo "    area and slack: ABC script \"$abc\" instead of Yosys's default (hw.mk)"
  [ -n "$why" ] && echo "$why" | fold -s -w 90 | sed 's/^/    /'
  # "unit|memory bits|value|source|why": the SRAM bits beside the paper's, with the arithmetic
  local pm
  pm=$(awk -F'|' -v n="$n" '$1 == n && $2 == "memory bits" { print $3 }' "$ref")
  if [ -n "$pm" ]; then
    local ms mw ar md
    ms=$(awk -F'|' -v n="$n" '$1 == n && $2 == "memory bits" { print $4 }' "$ref")
    mw=$(awk -F'|' -v n="$n" '$1 == n && $2 == "memory bits" { print $5 }' "$ref")
    ar=$(field memories $n)
    md=$(( m - pm )); [ $md -ge 0 ] && md="+$md"
    echo "memory bits: measured $m${ar:+ ($ar)} = $(( m / 8 )) B; paper $pm ($md). Paper: $ms. Difference: $mw" |
      fold -s -w 90 | sed 's/^/    /'
  fi
  # "unit|paper fields|f1 f2 ...": which traced flops the paper's formula counts
  local pf
  pf=$(awk -F'|' -v n="$n" '$1 == n && $2 == "paper fields" { print $3 }' "$ref")
  if [ -n "$pf" ] && [ -f "$out/$n.json" ]; then
    sed -n 's/.*"state": {\(.*\)},$/\1/p' "$out/$n.json" | tr -d '"' | tr ',' '\n' |
      awk -F': *' -v pf=" $pf " -v paper="$p" '
        { gsub(/ /, "", $1); if (index(pf, " " $1 " ")) { c = c (c ? " + " : "") $1 " " $2; cs += $2 }
          else { x = x (x ? " + " : "") $1 " " $2; xs += $2 } }
        END { printf "    paper-counted flops: %s = %d (paper %s)\n", c, cs, paper
              if (x) printf "    beyond the paper:    %s = %d\n", x, xs }'
  fi
  return 0
}
for t in "$@"; do
  for u in $(cd "csim/hw/$t" && ls *.def | sed 's/\.def$//'); do row "$u"; done
  row "$t"
done
echo
echo "flops: flip-flop bits; mem: inferred memory (SRAM) bits, not in the other columns;"
echo "cells: generic gates after synth;"
echo "transist: CMOS transistors (yosys stat -tech cmos + 24 per flop); depth: ltp -noff gates;"
echo "area: ${lib:-liberty} cells in um^2 (no wiring); slack: OpenSTA worst setup slack at"
echo "${mhz:-?} MHz (GTX 480 core clock 700 MHz), fmax: the clock the worst path allows, both in"
echo "this library (OSU 0.18 um; the GTX 480 is 40 nm); paper/diff: the paper's flop-bit figure"
echo "and measured minus paper; paper-counted flops: the descriptor's flops that the paper's"
echo "formula counts, and those it does not. Per-unit detail and critical paths: $out/<name>.txt"
