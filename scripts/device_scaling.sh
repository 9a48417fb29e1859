#!/usr/bin/env bash
# device_scaling.sh: thread scaling of `trawl hits` on a many-core machine (1, 2, 4, 8, 16
# threads), in one self-contained run from a fresh checkout (no apt, no network).
#
# Builds Release (`cmake --preset release && cmake --build --preset release -j16`) only when
# build/release/trawl is missing (make_workload alone, if missing, is compiled directly: it is
# one dependency-free file), then runs
#   scripts/bench_scaling.sh build/release --threads "1 2 4 8 16" --reps ${REPS:-1} \
#       --workloads "small large balanced w1-1"
# (tables small 262,144 / large 2,097,152 / balanced 983,040 records, --paired -k 2 --alphabet
# dna; W1 = 100 Mbp random genome as one record, -p TATCTATCTGGCATTCAACCAGG -k 3), one timed
# run per point plus one untimed guard run. Data goes to ${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
# (about 1 GB). The table (with a header of machine, version and elapsed time) goes to
# ${OUT:-.}/scaling.txt and the CSV to ${OUT:-.}/scaling.csv.
# Designed to finish in well under 8 minutes on 16 cores (build included); the benchmark is cut
# off by `timeout` at ${TIME_BUDGET_S:-450} s after the start minus the build time, so whatever
# rows were finished still come back.
#
# Usage: scripts/device_scaling.sh          (from anywhere; environment: OUT, REPS,
#                                            TIME_BUDGET_S, TRAWL_BENCH_DIR)
# For a smoke test on a small machine: THREADS="1 2" QUICK=1 scripts/device_scaling.sh
# (THREADS replaces "1 2 4 8 16"; QUICK=1 passes --quick, sizes / 8).
set -euo pipefail

case ${1:-} in
  "") ;;
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "device_scaling: takes no arguments (see --help; settings via environment)" >&2; exit 2 ;;
esac
start=$(date +%s)
cd "$(dirname "$0")/.."
OUT=${OUT:-.}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
txt=$OUT/scaling.txt
csv=$OUT/scaling.csv

build_note="reused build/release"
if [[ ! -x build/release/trawl ]]; then
  build_note="built here"
  if ! { cmake --preset release && cmake --build --preset release -j16; } > "$OUT/build.log" 2>&1; then
    tail -n 30 "$OUT/build.log"
    echo "# build failed after $(( $(date +%s) - start )) s; see build.log" | tee "$txt"
    exit 1
  fi
fi
if [[ ! -x build/release/make_workload ]]; then
  mkdir -p build/release
  c++ -O2 -std=c++20 -o build/release/make_workload scripts/bench/make_workload.cpp
fi

cpu=$( (lscpu 2>/dev/null || true) | sed -n 's/^Model name: *//p' | head -n 1)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# trawl thread scaling: $(nproc) cores${cpu:+, $cpu}"
  echo "# trawl $(build/release/trawl --version 2>/dev/null || echo '?'), commit $commit ($build_note, $(( $(date +%s) - start )) s)"
} > "$txt"
cat "$txt"

left=$(( ${TIME_BUDGET_S:-450} - ($(date +%s) - start) ))
if ((left < 60)); then left=60; fi
rc=0
quick=()
if [[ ${QUICK:-0} == 1 ]]; then quick=(--quick); fi
timeout "$left" bash scripts/bench_scaling.sh build/release --threads "${THREADS:-1 2 4 8 16}" \
  --reps "${REPS:-1}" --workloads "small large balanced w1-1" --csv "$csv" ${quick[@]+"${quick[@]}"} 2>&1 \
  | tee -a "$txt" || rc=$?
((rc != 124)) || echo "# cut off by timeout after $left s" | tee -a "$txt"
echo "# elapsed $(( $(date +%s) - start )) s in all, exit $rc" | tee -a "$txt"
exit "$rc"
