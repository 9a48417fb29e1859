#!/usr/bin/env bash
# bench_speed.sh: trawl vs edlib vs trawl's own scalar kernel (issue "Speed"), then the whole
# `trawl hits` process on the same workloads, checked against the issue's targets.
#
# Part 1 runs BUILD_DIR/bench_speed (scripts/bench/bench_speed.cpp): seeded workloads built in
# memory, one thread, library-level `hits` work only (data generation excluded); per workload
# one line per engine: trawl-auto(KERNEL), trawl-scalar, edlib, with median seconds, Mbp/s,
# µs/record, hits, records with hits and seconds / trawl-auto seconds. Its guard (trawl-auto
# and trawl-scalar report the same hits) failing stops the script with exit status 1.
# Part 2 writes the same workloads as FASTA with make_workload into
# ${TRAWL_BENCH_DIR:-/tmp/trawl-bench} (reused when present) and times `trawl hits -q -t 1`
# (default TSV columns, which include match_region and cigar; output to /dev/null) as a whole
# process (wall seconds to 1 ms, GNU time's max RSS: scripts/bench/common.sh), median of --reps runs:
#   W1       genome 100000000 4 SEED                 -p TATCTATCTGGCATTCAACCAGG -k 3
#   W2       reads 1000000 150 SEED TATCTATCTGGCATTCAACCAGG (planted in 1 of 10), same options
#   W3-32    reads 100000 150 SEED+1                 -l (patterns 32 23 SEED+2) -k 3
#   W3-1000  the same reads                          -l (patterns 1000 23 SEED+2) -k 3
#   W4       windows large                           --paired -l large.txt -k 2 --alphabet dna
#   W5       ascii 65536                             -p ab -k 0 --alphabet ascii
# (record counts times --scale; W4 below full size is a prefix of the table). Guard: the data
# rows of one extra untimed run must equal bench_speed's trawl hits for that workload
# (check "ok", else the script exits 1 after the tables).
# bench_speed's rows are kept as bench_speed-SCALE.tsv in the data directory.
# Targets (issue "Speed"): edlib seconds / trawl-auto seconds (part 1) W1 >= 15, W2 >= 40,
# W3-32 >= 150; end to end (part 2) W4 <= 0.35 µs per record, W5 >= 40 million hits/s
# written as TSV. Each is marked "met" or "NOT met"; at --scale != 1 they are indicative only.
#
# Usage: scripts/bench_speed.sh [BUILD_DIR] [--scale F] [--reps N] [--workloads "W1 W2 W3 W4 W5"]
#   BUILD_DIR     default build/bench; needs bench_speed, trawl and make_workload there, i.e. a
#                 build configured with -DTRAWL_BUILD_BENCH=ON (needs libedlib-dev), which
#                 `bash scripts/setup.sh bench` (the bench preset) installs and builds
#   --scale F     workload sizes times F (e.g. 0.1 for a quick run; default 1)
#   --reps N      timed runs per engine and per command, median reported (default 3)
#   --workloads   subset of "W1 W2 W3 W4 W5" (default all; W3 = W3-32 and W3-1000, which may
#                 also be named alone)
# Environment: TRAWL_BENCH_DIR (data/cache directory), TRAWL_BENCH_SEED (seed, 42).
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

build_dir=build/bench
reps=3
scale=1
workloads="W1 W2 W3 W4 W5"
if [[ $# -gt 0 && $1 != -* ]]; then build_dir=$1; shift; fi
while [[ $# -gt 0 ]]; do
  case $1 in
    --scale) scale=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_speed: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_speed: --reps must be a positive integer" >&2; exit 2; }
[[ $scale =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "bench_speed: --scale must be a positive number" >&2; exit 2; }

# ---------------------------------------------------------------- common set-up
given_build_dir=$build_dir
[[ -d $build_dir ]] || build_dir="$(cd "$(dirname "$0")/.." && pwd)/$build_dir"
[[ -d $build_dir ]] || { echo "bench_speed: $given_build_dir not found (configure with -DTRAWL_BUILD_BENCH=ON, see --help)" >&2; exit 1; }
build_dir=$(cd "$build_dir" && pwd)
TRAWL=$build_dir/trawl
MAKE_WORKLOAD=$build_dir/make_workload
BENCH_SPEED=$build_dir/bench_speed
for bin in "$TRAWL" "$MAKE_WORKLOAD" "$BENCH_SPEED"; do
  for _ in $(seq 30); do [[ -x $bin ]] && break; sleep 2; done  # tolerate a rebuild in progress
  [[ -x $bin ]] || { echo "bench_speed: $bin not found (build with -DTRAWL_BUILD_BENCH=ON, see --help)" >&2; exit 1; }
done
DATA=${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
SEED=${TRAWL_BENCH_SEED:-42}
mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/.run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# shellcheck disable=SC2034  # NAME is used in bench/common.sh
NAME=bench_speed
# shellcheck source=bench/common.sh
source "$(dirname "$0")/bench/common.sh"

# The W3 workload names (bench_speed's) for the chosen subset.
ids=()
for w in $workloads; do
  case $w in
    W3) ids+=(W3-32 W3-1000) ;;
    W1|W2|W3-32|W3-1000|W4|W5) ids+=("$w") ;;
    *) echo "bench_speed: unknown workload '$w' (W1 W2 W3 W3-32 W3-1000 W4 W5)" >&2; exit 2 ;;
  esac
done

cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
[[ -n $cpu ]] || cpu=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)
echo "CPU: ${cpu:-unknown} ($(nproc) cores online); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo

# ---------------------------------------------------------------- part 1: bench_speed
TSV=$WORK/speed.tsv
rc=0
"$BENCH_SPEED" --workloads "${ids[*]}" --scale "$scale" --reps "$reps" --seed "$SEED" --tsv "$TSV" || rc=$?
if ((rc != 0)); then
  echo "bench_speed: bench_speed failed (exit $rc)" >&2
  exit 1
fi

# field ID ENGINE COLUMN: one value of bench_speed's TSV (engine trawl-auto, trawl-scalar, edlib).
field() {
  awk -F'\t' -v w="$1" -v e="$2" -v c="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) col = i; next }
    $1 == w && $2 == e { print $col }' "$TSV"
}

# ---------------------------------------------------------------- part 2: whole process
gen_file() {  # gen_file DEST CMD...: stdout of CMD -> DEST (atomically), skipped when DEST exists
  local dest=$1; shift
  [[ -s $dest ]] && return 0
  echo "bench_speed: generating $dest" >&2
  "$@" > "$dest.tmp.$$"
  mv "$dest.tmp.$$" "$dest"
}

# windows_large ROWS: sets WFA and WTXT to the FASTA and pattern list of the first ROWS rows of
# the "large" windows table. Its first 262,144 rows are the small table, so shorter prefixes are
# cut from that (the same files as scripts/bench_commands.sh).
windows_large() {
  local rows=$1 src=large full=2097152
  if ((rows <= 262144)); then src=small; full=262144; fi
  local fa=$DATA/windows-$src.fa txt=$DATA/windows-$src.txt
  if [[ ! -s $fa || ! -s $txt ]]; then
    echo "bench_speed: generating $fa" >&2
    "$MAKE_WORKLOAD" windows "$src" "$txt.tmp.$$" > "$fa.tmp.$$"
    mv "$txt.tmp.$$" "$txt"
    mv "$fa.tmp.$$" "$fa"
  fi
  if ((rows < full)); then
    local pfa=$DATA/windows-large-$rows.fa ptxt=$DATA/windows-large-$rows.txt
    gen_file "$ptxt" head -n "$rows" "$txt"
    gen_file "$pfa" head -n "$((2 * rows))" "$fa"
    fa=$pfa; txt=$ptxt
  fi
  WFA=$fa; WTXT=$txt
}

P=TATCTATCTGGCATTCAACCAGG
# prepare ID: generates missing data for bench_speed's workload ID (same sizes and seeds);
# sets records, bp, fa, args.
prepare() {
  records=$(field "$1" trawl-auto records)
  bp=$(field "$1" trawl-auto text_bp)
  case $1 in
    W1)
      fa=$DATA/genome-$bp-4-$SEED.fa
      gen_file "$fa" "$MAKE_WORKLOAD" genome "$bp" 4 "$SEED"
      args=(-p "$P" -k 3) ;;
    W2)
      fa=$DATA/reads-$records-150-$SEED-$P.fa
      gen_file "$fa" "$MAKE_WORKLOAD" reads "$records" 150 "$SEED" "$P"
      args=(-p "$P" -k 3) ;;
    W3-32|W3-1000)
      local npat=${1#W3-}
      fa=$DATA/reads-$records-150-$((SEED + 1)).fa
      gen_file "$fa" "$MAKE_WORKLOAD" reads "$records" 150 "$((SEED + 1))"
      local pats=$DATA/patterns-$npat-23-$((SEED + 2)).txt
      gen_file "$pats" "$MAKE_WORKLOAD" patterns "$npat" 23 "$((SEED + 2))"
      args=(-l "$pats" -k 3) ;;
    W4)
      windows_large "$records"
      fa=$WFA; args=(--paired -l "$WTXT" -k 2 --alphabet dna) ;;
    W5)
      fa=$DATA/ascii-$records.fa
      gen_file "$fa" "$MAKE_WORKLOAD" ascii "$records"
      args=(-p ab -k 0 --alphabet ascii) ;;
  esac
}

echo
echo "whole process: trawl hits -q -t 1 (TSV with match_region and cigar to /dev/null), median of $reps run(s)"
for id in "${ids[@]}"; do prepare "$id"; done  # generate missing data before the table
row() { printf '%-8s %10s %8s %9s %11s %9s %8s %12s  %s\n' "$@"; }  # one table row
row wl records seconds Mbp/s us/record Mhits/s rss_MiB rows check
declare -A e2e_us e2e_mhits
bad=0
for id in "${ids[@]}"; do
  prepare "$id"
  cat "$fa" > /dev/null  # warm the page cache
  cmd=("$TRAWL" hits "${args[@]}" -t 1 -q "$fa")
  timed_reps "${cmd[@]}"
  rows=$("${cmd[@]}" | awk 'END { print (NR > 0 ? NR - 1 : 0) }')
  want=$(field "$id" trawl-auto hits)
  check=ok
  if ((rows != want)); then check="BAD(bench_speed: $want)"; bad=1; fi
  read -r mbps us mhits < <(awk -v s="$SEC" -v b="$bp" -v n="$records" -v h="$rows" 'BEGIN {
    if (s <= 0) s = 0.005  # below /usr/bin/time resolution
    printf "%.1f %.3f %.2f\n", b / 1e6 / s, s * 1e6 / n, h / 1e6 / s }')
  e2e_us[$id]=$us; e2e_mhits[$id]=$mhits
  rss=$(awk -v k="$KB" 'BEGIN { printf "%.1f", k / 1024 }')
  row "$id" "$records" "$SEC" "$mbps" "$us" "$mhits" "$rss" "$rows" "$check"
done
echo "(rows: data rows of one extra untimed run; check: = bench_speed's trawl hits)"

# ---------------------------------------------------------------- targets
echo
echo "targets (issue \"Speed\")$(awk -v s="$scale" 'BEGIN { if (s != 1) printf " at --scale %s: indicative only, the targets are for full size", s }')"
trow() { printf '%-8s %-36s %12s  %s\n' "$@"; }
trow wl target value result
# target ID TEXT VALUE OP GOAL UNIT
target() {
  local met
  met=$(awk -v v="$3" -v g="$5" -v op="$4" 'BEGIN { ok = op == ">=" ? v >= g : v <= g; print (ok ? "met" : "NOT met") }')
  trow "$1" "$2" "$3$6" "$met"
}
for id in "${ids[@]}"; do
  case $id in
    W1) target W1 "edlib / trawl-auto >= 15x" "$(field W1 edlib ratio_to_auto | awk '{ printf "%.1f", $1 }')" ">=" 15 x ;;
    W2) target W2 "edlib / trawl-auto >= 40x" "$(field W2 edlib ratio_to_auto | awk '{ printf "%.1f", $1 }')" ">=" 40 x ;;
    W3-32) target W3-32 "edlib / trawl-auto >= 150x" "$(field W3-32 edlib ratio_to_auto | awk '{ printf "%.1f", $1 }')" ">=" 150 x ;;
    W4) target W4 "<= 0.35 us/record end to end" "${e2e_us[W4]}" "<=" 0.35 " us" ;;
    W5) target W5 ">= 40 million hits/s end to end" "${e2e_mhits[W5]}" ">=" 40 " M/s" ;;
  esac
done
cp "$TSV" "$DATA/bench_speed-$scale.tsv"
echo "bench_speed rows: $DATA/bench_speed-$scale.tsv"
if ((bad)); then
  echo "bench_speed: whole-process hit rows differ from bench_speed's (see check)" >&2
  exit 1
fi
