#!/usr/bin/env bash
# bench_formats.sh: TSV vs Parquet output of `trawl hits` (-o FILE.tsv vs -o FILE.parquet), -t 1.
#
# Workloads (data generated with make_workload into ${TRAWL_BENCH_DIR:-/tmp/trawl-bench},
# reused when present):
#   W2  1,000,000 reads x 150 bp, TATCTATCTGGCATTCAACCAGG planted in 1 read of 10
#       (`make_workload reads 1000000 150 SEED TATCTATCTGGCATTCAACCAGG`),
#       -p TATCTATCTGGCATTCAACCAGG -k 3
#   W5  65,536 records of 'ab' x 128 (`make_workload ascii 65536`), -p ab -k 0 --alphabet ascii
#       (8,388,608 hits)
# Each run is timed (wall seconds to 1 ms, GNU time's max RSS; scripts/bench/common.sh) as a whole process
# with -q, writing its output file into the data directory; seconds are the median of --reps
# runs. ratio = parquet seconds / tsv seconds. Target: ratio <= 1.3 and a smaller file
# (met: yes, or NO(time) / NO(size)).
# Guard: the rows of the timed run's own output file: TSV lines minus the header; Parquet
# FileMetaData.num_rows read from the footer (python3, no libraries). check is "ok" when
# TSV rows >= planted reads (W2) or = 128 x records (W5), and Parquet rows = TSV rows.
# If this trawl build has no Parquet output yet, the parquet rows say "unsupported".
#
# Usage: scripts/bench_formats.sh [BUILD_DIR] [--quick] [--reps N] [--workloads "W2 W5"]
#                                 [--compression zstd|snappy|none] [--keep] [--csv FILE]
#   BUILD_DIR      default build/release (needs trawl and make_workload there)
#   --quick        sizes divided by 8 (125,000 reads and 8,192 records), for a smoke run
#   --reps         timed runs per point, median reported (default 3)
#   --workloads    subset of "W2 W5" (default both)
#   --compression  passed to the Parquet runs as --compression (default: trawl's default)
#   --keep         keep the output files (default: deleted after measuring)
#   --csv FILE     CSV path (default: bench_formats[-quick].csv in the data directory)
# Environment: TRAWL_BENCH_DIR (data/cache directory), TRAWL_BENCH_SEED (W2 reads seed, 42).
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

build_dir=build/release
reps=3
quick=0
keep=0
workloads="W2 W5"
compression=""
csv=""
if [[ $# -gt 0 && $1 != -* ]]; then build_dir=$1; shift; fi
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) quick=1; shift ;;
    --reps) reps=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --compression) compression=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --csv) csv=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_formats: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_formats: --reps must be a positive integer" >&2; exit 2; }

# ---------------------------------------------------------------- common set-up
[[ -d $build_dir ]] || build_dir="$(cd "$(dirname "$0")/.." && pwd)/$build_dir"
build_dir=$(cd "$build_dir" && pwd)
TRAWL=$build_dir/trawl
MAKE_WORKLOAD=$build_dir/make_workload
for bin in "$TRAWL" "$MAKE_WORKLOAD"; do
  for _ in $(seq 30); do [[ -x $bin ]] && break; sleep 2; done  # tolerate a rebuild in progress
  [[ -x $bin ]] || { echo "bench_formats: $bin not found (build first)" >&2; exit 1; }
done
DATA=${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
SEED=${TRAWL_BENCH_SEED:-42}
mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/.run.XXXXXX")
cur_out=""  # the output file being measured; removed on exit unless --keep
trap 'rm -rf "$WORK"; if ((!keep)) && [[ -n $cur_out ]]; then rm -f "$cur_out"; fi' EXIT
div=1; suffix=""
if ((quick)); then div=8; suffix="-quick"; fi

NAME=bench_formats  # shellcheck disable=SC2034  # used in bench/common.sh
# shellcheck source=bench/common.sh
source "$(dirname "$0")/bench/common.sh"

# parquet_rows FILE: FileMetaData.num_rows (field 3, i64) from the Thrift-compact footer.
parquet_rows() {
  command -v python3 > /dev/null || { echo "n/a"; return 0; }
  python3 - "$1" <<'EOF'
import struct, sys
with open(sys.argv[1], "rb") as f:
    f.seek(-8, 2)
    tail = f.read(8)
    if tail[4:] != b"PAR1":
        sys.exit("not a Parquet file: " + sys.argv[1])
    n = struct.unpack("<I", tail[:4])[0]
    f.seek(-8 - n, 2)
    buf = f.read(n)
pos = 0
def byte():
    global pos
    pos += 1
    return buf[pos - 1]
def varint():
    r = sh = 0
    while True:
        b = byte()
        r |= (b & 0x7F) << sh
        sh += 7
        if not b & 0x80:
            return r
def zigzag():
    v = varint()
    return (v >> 1) ^ -(v & 1)
def skip(t, in_container=False):
    global pos
    if t in (1, 2):              # bool: in the field header, or one byte in a container
        pos += 1 if in_container else 0
    elif t == 3: pos += 1
    elif t in (4, 5, 6): varint()
    elif t == 7: pos += 8
    elif t == 8:
        n = varint()             # (not pos += varint(): that reads pos first)
        pos += n
    elif t in (9, 10):
        h = byte(); size, et = h >> 4, h & 15
        if size == 15: size = varint()
        for _ in range(size): skip(et, True)
    elif t == 11:
        size = varint()
        if size:
            h = byte()
            for _ in range(size): skip(h >> 4, True); skip(h & 15, True)
    elif t == 12: fields(None)
    else: sys.exit("bad Thrift type %d" % t)
def fields(want):                # walks a struct; returns field `want` if it is an i64
    fid = 0
    while True:
        h = byte()
        if h == 0:
            return None
        t, d = h & 15, h >> 4
        fid = fid + d if d else zigzag()
        if fid == want and t == 6:
            return zigzag()
        skip(t)
rows = fields(3)
if rows is None:
    sys.exit("no num_rows in " + sys.argv[1])
print(rows)
EOF
}

gen_file() {  # gen_file DEST CMD...: stdout of CMD -> DEST (atomically), skipped when DEST exists
  local dest=$1; shift
  [[ -s $dest ]] && return 0
  echo "bench_formats: generating $dest" >&2
  "$@" > "$dest.tmp.$$"
  mv "$dest.tmp.$$" "$dest"
}

parquet_ok=0
if "$TRAWL" hits --help 2>/dev/null | grep -qi parquet; then parquet_ok=1; fi
pq_args=()
[[ -n $compression ]] && pq_args=(--compression "$compression")

# ---------------------------------------------------------------- the table
csv=${csv:-$DATA/bench_formats$suffix.csv}
echo "workload,format,records,seconds,ratio_parquet_tsv,target,target_met,output_bytes,max_rss_kb,guard_rows,check" > "$csv"
row() { printf '%-4s %-8s %9s %8s %6s %6s %-9s %12s %9s %10s  %s\n' "$@"; }  # one table row
P2=TATCTATCTGGCATTCAACCAGG
# prepare W: generates missing data; sets records, fa, args, min_rows, exact_rows.
prepare() {
  case $1 in
    W2)
      records=$((1000000 / div))
      fa=$DATA/reads-$records-150-$SEED-$P2.fa
      gen_file "$fa" "$MAKE_WORKLOAD" reads "$records" 150 "$SEED" "$P2"
      args=(-p "$P2" -k 3)
      min_rows=$(( (records + 9) / 10 )); exact_rows="" ;;
    W5)
      records=$((65536 / div))
      fa=$DATA/ascii-$records.fa
      gen_file "$fa" "$MAKE_WORKLOAD" ascii "$records"
      args=(-p ab -k 0 --alphabet ascii)
      min_rows=""; exact_rows=$((128 * records)) ;;
    *) echo "bench_formats: unknown workload '$1' (W2 or W5)" >&2; exit 2 ;;
  esac
}
for w in $workloads; do prepare "$w"; done  # generate missing data before the table
row wl format records seconds ratio target met bytes rss_MiB rows check
for w in $workloads; do
  prepare "$w"
  cat "$fa" > /dev/null  # warm the page cache
  tsv_sec=""; tsv_bytes=""; tsv_rows=""
  for format in tsv parquet; do
    out=$DATA/out-$w$suffix.$format
    cur_out=$out
    extra=()
    [[ $format == parquet ]] && extra=("${pq_args[@]}")
    if [[ $format == parquet ]] && ((!parquet_ok)); then
      row "$w" "$format" "$records" - - 1.3 unsupported - - - -
      echo "$w,$format,$records,,,1.3,unsupported,,,," >> "$csv"
      continue
    fi
    timed_reps "$TRAWL" hits "${args[@]}" ${extra[@]+"${extra[@]}"} -t 1 -q -o "$out" "$fa"
    bytes=$(stat -c %s "$out")
    target="-"; met="-"; ratio=1.000; check=ok
    if [[ $format == tsv ]]; then
      rows=$(awk 'END { print (NR > 0 ? NR - 1 : 0) }' "$out")
      tsv_sec=$SEC; tsv_bytes=$bytes; tsv_rows=$rows
      if [[ -n $exact_rows ]]; then
        ((rows == exact_rows)) || check="BAD(!=$exact_rows)"
      else
        ((rows >= min_rows)) || check="BAD(<$min_rows planted)"
      fi
    else
      rows=$(parquet_rows "$out")
      target=1.3
      ratio=$(awk -v s="$SEC" -v t="$tsv_sec" 'BEGIN { printf "%.3f", (t > 0 ? s / t : 0) }')
      met=$(awk -v r="$ratio" -v b="$bytes" -v tb="$tsv_bytes" \
        'BEGIN { m = ""; if (r > 1.3) m = "time"; if (b >= tb) m = m (m == "" ? "" : ",") "size";
                 print (m == "" ? "yes" : "NO(" m ")") }')
      [[ $rows == "$tsv_rows" ]] || check="BAD(!=tsv rows)"
    fi
    rss=$(awk -v k="$KB" 'BEGIN { printf "%.1f", k / 1024 }')
    row "$w" "$format" "$records" "$SEC" "$ratio" "$target" "$met" "$bytes" "$rss" "$rows" "$check"
    echo "$w,$format,$records,$SEC,$ratio,$target,$met,$bytes,$KB,$rows,$check" >> "$csv"
    ((keep)) || rm -f "$out"
  done
done
echo "(seconds: median of $reps run(s), -t 1; ratio = parquet / tsv seconds; target: ratio <= 1.3 and fewer bytes)"
echo "(rows: TSV lines minus header / Parquet footer num_rows, of the timed run's own output)"
echo "CSV: $csv"
