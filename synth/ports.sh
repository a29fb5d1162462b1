#!/usr/bin/env bash
# Checks a unit's descriptor against its RTL: the same port names, directions and widths
# (clk_i and rst_ni implicit), read from Yosys' JSON of the elaborated module with the
# descriptor's parameters. usage: synth/ports.sh UNIT RTLDIR GEN WORKDIR
set -euo pipefail
unit=$1 rtl=$2 gen=$3 work=$4
mkdir -p "$work"
chp=$("$gen" params | awk -F= '{printf " -chparam %s %s", $1, $2}')
yosys -q -p "read_verilog $rtl/$unit.v; hierarchy -check -top $unit -libdir $rtl$chp; proc; flatten; \
  hierarchy -top $unit; check -assert; \
  write_json $work/ports.json" > /dev/null
# "name": { "direction": "input", "bits": [ 2, 3 ] } -> name in 2
awk '/"ports": \{/ { p = 1; next } p && /"netnames"/ { exit }
     p && /"direction"/ { d = $0; sub(/.*"direction": "/, "", d); sub(/".*/, "", d) }
     p && /^ *"[A-Za-z0-9_]+": \{/ { n = $1; gsub(/[":]/, "", n) }
     p && /"bits": \[/ { b = $0; sub(/.*\[/, "", b); sub(/\].*/, "", b); k = split(b, a, ",");
                         print n, (d == "input" ? "in" : "out"), k }' "$work/ports.json" |
  grep -v -e '^clk_i ' -e '^rst_ni ' | sort > "$work/ports.rtl"
"$gen" ports | grep -v -e ' state ' -e ' mem ' | sort > "$work/ports.desc"
if ! diff -u "$work/ports.desc" "$work/ports.rtl" > "$work/ports.diff"; then
  echo "ports of $unit: descriptor (-) and $rtl/$unit.v (+) differ:" >&2
  cat "$work/ports.diff" >&2
  exit 1
fi
