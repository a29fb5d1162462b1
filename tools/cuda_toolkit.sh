#!/usr/bin/env bash
# Installs Debian 12's CUDA 11.8 toolkit (nvidia-cuda-toolkit, in the non-free component) when it
# is missing, without touching the machine's own apt configuration: apt reads a private sources
# list (the machine's own Debian mirror with main, contrib and non-free) and a private lists
# folder, both under $RFSIM_CUDA_APT (default build/cuda-apt). CUDA 11.8 is the newest toolkit that
# still compiles for Pascal (sm_61) and Volta (sm_70); the machine may have a newer one, which
# cannot. Without root or password-less sudo it prints the commands to run and exits 1.
set -euo pipefail
want=nvidia-cuda-toolkit
if [ -x /usr/bin/nvcc ] && /usr/bin/nvcc --version 2>/dev/null | grep -q 'release 11\.8'; then
  exit 0
fi
state="${RFSIM_CUDA_APT:-build/cuda-apt}"
mkdir -p "$state/lists/partial"
state="$(cd "$state" && pwd)"
# The machine's configured Debian mirror (deb822 or one-line form); deb.debian.org otherwise.
mirror="$(grep -hoE '^URIs: *[^ ]+/debian/?$' /etc/apt/sources.list.d/*.sources 2>/dev/null \
           | head -1 | sed 's/^URIs: *//')"
[ -n "$mirror" ] || mirror="$(grep -hoE '^deb +[^ ]+/debian/? ' /etc/apt/sources.list 2>/dev/null \
                              | head -1 | awk '{print $2}')"
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")"
echo "deb $mirror $codename main contrib non-free non-free-firmware" > "$state/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$state/sources.list" -o Dir::Etc::sourceparts=/dev/null
          -o "Dir::State::Lists=$state/lists")
if [ "$(id -u)" -eq 0 ]; then
  sudo_cmd=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo_cmd=(sudo)
else
  echo "rfsim: the CUDA 11.8 toolkit is missing and cannot be installed here (not root, no" >&2
  echo "password-less sudo). As root, run:" >&2
  echo "  apt-get ${apt_opts[*]} update" >&2
  echo "  apt-get ${apt_opts[*]} install --no-install-recommends $want clang-14" >&2
  exit 1
fi
echo "rfsim: installing Debian's CUDA 11.8 toolkit ($want, about 1.5 GB) from $mirror non-free"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get "${apt_opts[@]}" update -qq
"${sudo_cmd[@]}" apt-get "${apt_opts[@]}" install -y -qq --no-install-recommends "$want" clang-14
/usr/bin/nvcc --version | grep -q 'release 11\.8' || {
  echo "rfsim: $want installed but /usr/bin/nvcc is not CUDA 11.8" >&2; exit 1; }
