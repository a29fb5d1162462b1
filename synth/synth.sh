#!/usr/bin/env bash
# Synthesis of one unit: Yosys 0.23 (generic gates, then the liberty) and OpenSTA.
# usage: synth/synth.sh UNIT RTLDIR GEN OUTDIR LIBERTY MHZ [NAME=VALUE ...]
#   GEN is the unit's build/hw/<unit>/gen (tb/hw_gen.c): it supplies the parameters, so the
#   synthesized design has the descriptor's (paper's) parameters, as the C model does.
# Writes OUTDIR/UNIT.txt (report), OUTDIR/UNIT.json, and OUTDIR/UNIT.work/ (scripts, logs,
# mapped netlist, timing path).
# Figures:
#   flop_bits      flip-flops after `synth` (memories excluded, see memory_bits)
#   memory_bits    bits of the memories Yosys inferred (reg arrays read through address
#                  ports: SRAM macros). They are not mapped to flops: after counting, each
#                  memory is cut out and its ports become the unit's ports (`expose`), so the
#                  flops, cells, area and timing are the logic around the SRAMs (a synchronous
#                  read's output register belongs to the macro). A reg array the logic reads
#                  in parallel (marked (* mem2reg *)) is flops and counted as such.
#   latches        must be 0
#   cells          generic gate cells after `synth` (flops included)
#   transistors    Yosys `stat -tech cmos` after `dffunmap` (logic and enable muxes), plus
#                  24 per flip-flop (a static master-slave DFF with asynchronous reset; Yosys
#                  gives flops no transistor count and prints "N+")
#   depth          `ltp -noff`: gates on the longest flop-to-flop / port path, generic gates
#   area_um2       `stat -liberty` after dfflibmap + abc -liberty (cells only, no wiring);
#                  SYNTH_ABC_SCRIPT (hw.mk's HW_SYNTH_ABC_<unit>: ABC commands separated by
#                  "; ", {D} for the delay target) replaces Yosys's default script for that
#                  call; recorded as "abc_script" ("" for the default)
#   lib_cells      mapped standard cells
#   fmax_mhz       1000 / (period - slack): the clock at which the worst path just closes
#   slack_ns       OpenSTA worst setup slack at MHZ: ideal clock, inputs driven by BUFX2
#                  arriving at the clock edge, outputs loaded with 0.01 pF and required at the
#                  next edge, no wire load; reset recovery checked too
set -euo pipefail
unit=$1 rtl=$2 gen=$3 out=$4 lib=$5 mhz=$6
shift 6
ovr=("$@")   # parameter overrides NAME=VALUE (HW_PARAMS_<unit>)
work=$out/$unit.work
mkdir -p "$work"
[ -f "$lib" ] || { echo "synth: liberty $lib: no such file (set LIBERTY=...)" >&2; exit 1; }
[ -f "$rtl/$unit.v" ] || { echo "synth: $rtl/$unit.v: no such file" >&2; exit 1; }
chp=$("$gen" params "${ovr[@]}" | awk -F= '{printf " -chparam %s %s", $1, $2}')
period_ns=$(awk -v m="$mhz" 'BEGIN { printf "%.4f", 1000.0 / m }')
period_ps=$(awk -v m="$mhz" 'BEGIN { printf "%d", 1000000.0 / m }')
printf 'set_driving_cell BUFX2\nset_load 0.01\n' > "$work/abc.constr"
# a unit's own ABC script, as Yosys's inline form: "+cmd,arg;cmd" (commas stand for blanks)
abc_script_arg=""
[ -n "${SYNTH_ABC_SCRIPT:-}" ] && abc_script_arg="-script \"+$(echo "$SYNTH_ABC_SCRIPT" | sed 's/; */;/g; s/ /,/g')\""

cat > "$work/synth.ys" <<EOF
read_verilog $rtl/$unit.v
hierarchy -check -top $unit -libdir $rtl$chp
proc; flatten; opt -full
tee -q -o $work/pre.stat stat
memory -nomap; opt_clean
tee -q -o $work/mem.txt select -list t:\$mem_v2
select -set memin t:\$mem_v2 %ci:+\$mem_v2[RD_ADDR,RD_EN,WR_ADDR,WR_DATA,WR_EN] t:\$mem_v2 %d
select -set memout t:\$mem_v2 %co:+\$mem_v2[RD_DATA] t:\$mem_v2 %d
expose @memin
expose -input @memout
delete t:\$mem_v2
opt_clean
synth -top $unit -flatten ${SYNTH_FLAGS:-}
check -assert
tee -q -o $work/generic.stat stat
design -save generic
dffunmap
tee -q -o $work/cmos.stat stat -tech cmos
design -load generic
tee -q -o $work/ltp.txt ltp -noff
dfflibmap -liberty $lib
abc -liberty $lib -D $period_ps -constr $work/abc.constr $abc_script_arg
opt_clean
tee -q -o $work/lib.stat stat -liberty $lib
write_verilog -noattr -noexpr $work/$unit.mapped.v
EOF
yosys -q -l "$work/yosys.log" -s "$work/synth.ys" > /dev/null

cat > "$work/sta.tcl" <<EOF
read_liberty $lib
read_verilog $work/$unit.mapped.v
link_design $unit
create_clock -name clk -period $period_ns [get_ports clk_i]
set ins [delete_from_list [all_inputs] [get_ports clk_i]]
set_input_delay 0 -clock clk \$ins
set_driving_cell -lib_cell BUFX2 \$ins
set_output_delay 0 -clock clk [all_outputs]
set_load 0.01 [all_outputs]
# rst_ni is asynchronous: its deassertion is synchronized and buffered by the SM's reset tree,
# which this per-unit flow does not build; timed as a data input from one BUFX2 it would
# report the fan-out of an unbuffered net to every flop, not the unit's logic.
set_false_path -from [get_ports rst_ni]
puts "WORST_SLACK [sta::worst_slack -max]"
report_checks -path_delay max -digits 3 -path_group clk
EOF
sta -no_splash -exit "$work/sta.tcl" > "$work/sta.log" 2>&1 || { cat "$work/sta.log" >&2; exit 1; }

num() { awk -v k="$1" 'index($0, k) { for (i = NF; i > 0; i--) if ($i ~ /^[0-9.]+\+?$/) { sub(/\+$/, "", $i); print $i; exit } }' "$2"; }
flops=$(awk '$1 ~ /^\$_(S|AL)?DFF/ { n += $2 } END { print n + 0 }' "$work/generic.stat")
latches=$(awk '$1 ~ /^\$_DLATCH/ { n += $2 } END { print n + 0 }' "$work/generic.stat")
membits=$(num "Number of memory bits:" "$work/pre.stat")
cells=$(num "Number of cells:" "$work/generic.stat")
tr_logic=$(num "Estimated number of transistors:" "$work/cmos.stat")
transistors=$(( ${tr_logic:-0} + 24 * flops ))
depth=$(sed -n 's/.*(length=\([0-9]*\)).*/\1/p' "$work/ltp.txt" | head -1)
area=$(sed -n "s/.*Chip area for module .*: \([0-9.]*\).*/\1/p" "$work/lib.stat" | head -1)
libcells=$(num "Number of cells:" "$work/lib.stat")
libflops=$(awk '$1 ~ /^DFF/ { n += $2 } END { print n + 0 }' "$work/lib.stat")
slack=$(awk '/^WORST_SLACK/ { printf "%.3f", $2 }' "$work/sta.log")
[ -n "$slack" ] || { echo "synth: $unit: no slack in $work/sta.log" >&2; exit 1; }
fmax=$(awk -v p="$period_ns" -v s="$slack" 'BEGIN { printf "%.0f", 1000.0 / (p - s) }')
params=$("$gen" json "${ovr[@]}")
# the descriptor's traced flops by name, so a report can say which of them a paper counts
state=$("$gen" ports "${ovr[@]}" | awk '$2 == "state" { printf "%s\"%s\": %s", (n++ ? ", " : ""), $1, $3 }')
libname=$(basename "$lib")
# the descriptor's memories as arithmetic: "tag_q 1024 x 21 = 21504 + ..."
memories=$("$gen" membits "${ovr[@]}" | awk '$1 != "total" { printf "%s%s %s x %s = %s", (n++ ? " + " : ""), $1, $3, $2, $4 }')

cat > "$out/$unit.json.tmp" <<EOF
{
  "unit": "$unit",
  "params": $params,
  "state": {$state},
  "flop_bits": $flops,
  "memory_bits": ${membits:-0},
  "memories": "$memories",
  "latches": $latches,
  "cells": ${cells:-0},
  "transistors": $transistors,
  "transistors_logic": ${tr_logic:-0},
  "depth": ${depth:-0},
  "liberty": "$libname",
  "lib_cells": ${libcells:-0},
  "lib_flops": $libflops,
  "abc_script": "${SYNTH_ABC_SCRIPT:-}",
  "area_um2": ${area:-0},
  "clock_mhz": $mhz,
  "slack_ns": $slack,
  "fmax_mhz": $fmax
}
EOF
mv "$out/$unit.json.tmp" "$out/$unit.json"

{
  echo "unit $unit  ($rtl/$unit.v)   parameters: $("$gen" params "${ovr[@]}" | tr '\n' ' ')"
  echo "  flip-flop bits      $flops  (descriptor: $(echo "$state" | tr -d '"'))"
  # the descriptor's arrays: SRAMs cut out of the figures, or flops (mem2reg) when none is inferred
  what="SRAM, not in the figures below:"
  [ "${membits:-0}" = 0 ] && what="none inferred: the descriptor's arrays are flops, counted above:"
  echo "  memory bits         ${membits:-0}$(awk -v w="$what" '$1 != "total" { printf "%s %s %s x %s = %s", (n++ ? " +" : "  (" w), $1, $3, $2, $4 } END { if (n) printf ")" }' <<< "$("$gen" membits "${ovr[@]}")")"
  echo "  latches             $latches"
  echo "  generic cells       ${cells:-0}"
  echo "  CMOS transistors    $transistors  (logic ${tr_logic:-0} + 24 x $flops flops)"
  echo "  logic depth         ${depth:-0} gates (ltp -noff)"
  echo "  $libname cells  ${libcells:-0} ($libflops flops)${SYNTH_ABC_SCRIPT:+, ABC script: $SYNTH_ABC_SCRIPT}"
  echo "  area                ${area:-0} um^2 (cells, no wiring)"
  echo "  worst slack         $slack ns at $mhz MHz (period $period_ns ns)"
  echo "  critical path:"
  awk '/^Startpoint/ { p = 1 } p && /slack/ { print "    " $0; exit } p { print "    " $0 }' "$work/sta.log"
} > "$out/$unit.txt"
echo "synth $unit: $flops flops, ${cells:-0} cells, depth ${depth:-0}, ${area:-0} um^2, slack $slack ns @ $mhz MHz (fmax $fmax)"
