#!/usr/bin/env bash
# Builds oneTBB itself with -fsanitize=thread and prints the install prefix.
#
# Why: Debian's libtbb is not instrumented, so ThreadSanitizer cannot see the happens-before
# edges of TBB's scheduler (its atomics live in uninstrumented code) and reports a false race
# at every hand-off between pipeline stages. Rebuilding the very same oneTBB release that
# Debian ships (its source package, from the Debian archive) with TBB_SANITIZE=thread makes
# those edges visible, so the TSan run needs no blanket suppressions.
#
# Usage: bash scripts/tsan_tbb.sh   (prints the prefix; cached under build/tbb-tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/build/tbb-tsan"
prefix="$root/install"
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi
exec 3>&1 1>&2  # logs to stderr; stdout carries only the prefix

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
for p in dpkg-dev xz-utils; do
  dpkg -s "$p" >/dev/null 2>&1 || {
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$p" >/dev/null
  }
done

# The source version must match the installed headers' package exactly.
version=$(dpkg-query -W -f='${source:Version}' libtbb-dev)
upstream=${version%%-*}
rm -rf "$root"
mkdir -p "$root/apt/lists/partial" "$root/src"

# A private apt configuration with a deb-src line, so the machine's own sources stay untouched.
cat >"$root/apt/sources.list" <<EOF
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
EOF
apt_opts=(-o "Dir::Etc::SourceList=$root/apt/sources.list" -o "Dir::Etc::SourceParts=-"
          -o "Dir::State::Lists=$root/apt/lists" -o "APT::Sandbox::User=root")
apt-get "${apt_opts[@]}" update -qq
(cd "$root/src" && apt-get "${apt_opts[@]}" source --download-only -qq "onetbb=$version")
tar -C "$root/src" -xf "$root/src/onetbb_${upstream}.orig.tar.xz"

cmake -S "$root/src/oneTBB-${upstream}" -B "$root/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBB_STRICT=OFF \
  -DTBBMALLOC_BUILD=OFF -DTBB_DISABLE_HWLOC_AUTOMATIC_SEARCH=ON \
  -DCMAKE_CXX_FLAGS=-Wno-tsan -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib >/dev/null
cmake --build "$root/build" -j"$(nproc)" >/dev/null
cmake --install "$root/build" >/dev/null
touch "$prefix/.complete"
echo "$prefix" >&3
