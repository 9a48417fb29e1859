#!/usr/bin/env bash
# Installs the Debian 12 packages trawl needs (only those missing) and builds one CMake
# preset (default: release): every target of it, or only the targets named after the preset.
# Usage: bash scripts/setup.sh [release|debug|asan-ubsan|tsan|bench] [TARGET...]
#   e.g. bash scripts/setup.sh release trawl   (just build/release/trawl, no tests)
set -euo pipefail
cd "$(dirname "$0")/.."

# help2man: the man page; file and dpkg-dev: cpack's .deb (its library dependencies).
packages=(build-essential cmake pkg-config libcli11-dev libhts-dev libtbb-dev libspdlog-dev
          doctest-dev zlib1g-dev libisal-dev libzstd-dev libsnappy-dev help2man file dpkg-dev)
# The bench preset also builds bench_speed against edlib (scripts/bench_speed.sh).
[ "${1:-release}" = bench ] && packages+=(libedlib-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

preset="${1:-release}"
# Targets after the preset narrow the build (the quick start needs only the binary).
targets=("${@:2}")
target_args=()
((${#targets[@]})) && target_args=(--target "${targets[@]}")
# TSan needs a oneTBB built with -fsanitize=thread (see scripts/tsan_tbb.sh); the preset
# finds it under build/tbb-tsan/install.
[ "$preset" = tsan ] && bash scripts/tsan_tbb.sh >/dev/null
cmake --preset "$preset" >/dev/null
# Build logs go to stderr, so `setup.sh && trawl ... > out.tsv` keeps stdout for data.
exec 1>&2
cmake --build --preset "$preset" -j"$(nproc)" "${target_args[@]}"
