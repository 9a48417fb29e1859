#!/usr/bin/env bash
# Runs the libFuzzer targets (clang + ASan + UBSan) for SECONDS each (default 60), all at
# once, on the corpus in tests/fuzz/corpus/<target>. New coverage is merged back into that
# corpus (minimized); crashes are written to tests/fuzz/corpus/<target>/crash-* so the replay
# test keeps checking them after the fix.
# Usage: bash scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("${@:-fuzz_reader}")
[ $# -eq 0 ] && targets=(fuzz_reader fuzz_search fuzz_parquet_roundtrip)
command -v clang++ >/dev/null || { echo "fuzz: needs clang (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
CC=clang CXX=clang++ cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRAWL_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build build/fuzz -j"$(nproc)" --target "${targets[@]}" >&2
mkdir -p build/fuzz/work
for t in "${targets[@]}"; do
  mkdir -p "build/fuzz/work/$t" "tests/fuzz/corpus/$t"
  ( build/fuzz/tests/fuzz/"$t" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="tests/fuzz/corpus/$t/" "build/fuzz/work/$t" "tests/fuzz/corpus/$t" \
      > "build/fuzz/$t.log" 2>&1; echo "$t exit $?" >> "build/fuzz/$t.log" ) &
done
wait
for t in "${targets[@]}"; do
  # Keep the committed corpus small: only inputs that add coverage.
  mkdir -p "build/fuzz/merged/$t"
  build/fuzz/tests/fuzz/"$t" -merge=1 "build/fuzz/merged/$t" "tests/fuzz/corpus/$t" "build/fuzz/work/$t" >/dev/null 2>&1 || true
  rm -f tests/fuzz/corpus/"$t"/[0-9a-f]*
  cp build/fuzz/merged/"$t"/* "tests/fuzz/corpus/$t/" 2>/dev/null || true
  echo "== $t"
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|exit|ERROR|SUMMARY" "build/fuzz/$t.log" | head -8
  ls "tests/fuzz/corpus/$t" | wc -l | sed 's/^/corpus files: /'
done
