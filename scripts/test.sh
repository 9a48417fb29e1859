#!/usr/bin/env bash
# Sets up like scripts/setup.sh, builds Release with the tests and runs all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh release
ctest --preset release --output-on-failure -j"$(nproc)"
