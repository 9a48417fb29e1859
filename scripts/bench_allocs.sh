#!/usr/bin/env bash
# bench_allocs.sh: heap allocation calls of whole `trawl hits -t 1` runs on 1x and 10x inputs,
# counted by heaptrack (apt-get install heaptrack). The hot path allocates nothing per record
# or per hit, so the count must stay flat while records and hits grow tenfold.
#
# Workloads (make_workload, into ${TRAWL_BENCH_DIR:-/tmp/trawl-bench}, reused when present):
#   reads   100,000 vs 1,000,000 x 150 bp reads, -p TATCTATCTGGCATTCAACCAGG -k 3
#   dense   65,536 vs 655,360 records of 'ab' x 128, -p ab -k 0 --alphabet ascii
#           (8,388,608 vs 83,886,080 hits)
#   paired  the "small" windows table (262,144 x 256 bp, a 23-mer per record) vs ten copies
#           of it, --paired -l -k 2 --alphabet dna (the patterns themselves are held, 12
#           bytes each, so only the calls stay flat, not the peak heap)
# Prints: workload, records, hits (rows written), allocation calls, peak heap.
#
# Usage: scripts/bench_allocs.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build/release}
TRAWL=$build_dir/trawl
MAKE_WORKLOAD=$build_dir/make_workload
command -v heaptrack >/dev/null || { echo "bench_allocs: needs heaptrack (apt-get install heaptrack)" >&2; exit 2; }
for bin in "$TRAWL" "$MAKE_WORKLOAD"; do
  [[ -x $bin ]] || { echo "bench_allocs: $bin not found (build first)" >&2; exit 1; }
done
DATA=${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/.allocs.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

make_once() {  # make_once FILE ARGS...: make_workload ARGS > FILE unless FILE exists
  local file=$1; shift
  [[ -s $file ]] && return 0
  "$MAKE_WORKLOAD" "$@" > "$file.tmp"
  mv -f "$file.tmp" "$file"
}
make_once "$DATA/reads-100000.fa" reads 100000 150 7 TATCTATCTGGCATTCAACCAGG
make_once "$DATA/reads-1000000.fa" reads 1000000 150 7 TATCTATCTGGCATTCAACCAGG
make_once "$DATA/ab-65536.fa" ascii 65536
make_once "$DATA/ab-655360.fa" ascii 655360
if [[ ! -s $DATA/windows-small.fa || ! -s $DATA/windows-small.txt ]]; then
  "$MAKE_WORKLOAD" windows small "$DATA/windows-small.txt.tmp" > "$DATA/windows-small.fa.tmp"
  mv -f "$DATA/windows-small.txt.tmp" "$DATA/windows-small.txt"
  mv -f "$DATA/windows-small.fa.tmp" "$DATA/windows-small.fa"
fi
ten_copies() {  # ten_copies SRC DST
  [[ -s $2 ]] && return 0
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do cat "$1"; done > "$2.tmp"
  mv -f "$2.tmp" "$2"
}
ten_copies "$DATA/windows-small.fa" "$DATA/windows-small-262144-x10.fa"
ten_copies "$DATA/windows-small.txt" "$DATA/windows-small-262144-x10.txt"

printf '%-7s %10s %11s %17s %10s\n' workload records hits allocation_calls peak_heap
run() {  # run NAME RECORDS FILE ARGS...
  local name=$1 records=$2 file=$3; shift 3
  local rows
  heaptrack -o "$WORK/ht" "$TRAWL" hits -q -t 1 -o "$WORK/out.tsv" "$@" "$file" >/dev/null 2>&1
  rows=$(($(wc -l < "$WORK/out.tsv") - 1))
  local report calls peak
  report=$(heaptrack_print "$WORK"/ht.*zst 2>/dev/null)
  calls=$(sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p' <<<"$report")
  peak=$(sed -n 's/^peak heap memory consumption: //p' <<<"$report")
  rm -f "$WORK"/ht.* "$WORK/out.tsv"
  printf '%-7s %10s %11s %17s %10s\n' "$name" "$records" "$rows" "$calls" "$peak"
}
run reads 100000 "$DATA/reads-100000.fa" -p TATCTATCTGGCATTCAACCAGG -k 3
run reads 1000000 "$DATA/reads-1000000.fa" -p TATCTATCTGGCATTCAACCAGG -k 3
run dense 65536 "$DATA/ab-65536.fa" -p ab -k 0 --alphabet ascii
run dense 655360 "$DATA/ab-655360.fa" -p ab -k 0 --alphabet ascii
run paired 262144 "$DATA/windows-small.fa" --paired -l "$DATA/windows-small.txt" -k 2 --alphabet dna
run paired 2621440 "$DATA/windows-small-262144-x10.fa" --paired -l "$DATA/windows-small-262144-x10.txt" -k 2 --alphabet dna
