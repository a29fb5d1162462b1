#!/usr/bin/env bash
# Installs the Debian packages rfsim needs, if any are missing. Runs apt-get only as root or
# through sudo; otherwise it names what is missing and stops, so nothing fails later obscurely.
# Arguments name further packages a goal needs (make fuzz: clang's libFuzzer).
set -euo pipefail
packages=(build-essential zlib1g-dev liblzma-dev libcmocka-dev verilator yosys iverilog gtkwave opensta
          qflow-tech-osu018 gnuplot-nox xvfb "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "rfsim: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo_cmd=(sudo)
else
  echo "rfsim: cannot install (not root, no password-less sudo). Please run:" >&2
  echo "  sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
