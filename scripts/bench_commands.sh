#!/usr/bin/env bash
# bench_commands.sh: `trawl hits` vs `trawl count` vs `trawl contains` on one thread (-t 1).
#
# Workloads (data generated with make_workload into ${TRAWL_BENCH_DIR:-/tmp/trawl-bench},
# reused when present):
#   W4  the "large" windows table: 2,097,152 records x 256 bp, one 23-mer per record
#       (`make_workload windows large large.txt`), --paired -l large.txt -k 2 --alphabet dna
#       (both strands)
#   W5  65,536 records of 'ab' x 128 (`make_workload ascii 65536`), -p ab -k 0 --alphabet ascii
#       (8,388,608 hits)
# Each command is timed (wall seconds to 1 ms, GNU time's max RSS; scripts/bench/common.sh) as a whole
# process with -q and output to /dev/null; seconds are the median of --reps runs, taken in
# rounds of hits, count, contains so that a drifting machine speed skews no ratio. The ratio is
# seconds / seconds of hits on the same workload. Targets: W4 count <= 0.8, contains <= 0.4;
# W5 count <= 0.15, contains <= 0.05.
# Guard (from one extra untimed run of the same command, output piped): hits = data rows,
# count = sum of the count column, contains = number of records with `true`. check is "ok" when
# W4: hits >= records (each record holds its own 23-mer), count sum = hits rows,
#     contains = records;
# W5: hits = count sum = 128 x records, contains = records.
#
# Usage: scripts/bench_commands.sh [BUILD_DIR] [--quick] [--reps N] [--workloads "W4 W5"] [--csv FILE]
#   BUILD_DIR     default build/release (needs trawl and make_workload there)
#   --quick       sizes divided by 8 (262,144 and 8,192 records), for a smoke run
#   --reps        timed runs per command, median reported (default 3)
#   --workloads   subset of "W4 W5" (default both)
#   --csv FILE    CSV path (default: bench_commands[-quick].csv in the data directory)
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

build_dir=build/release
reps=3
quick=0
workloads="W4 W5"
csv=""
if [[ $# -gt 0 && $1 != -* ]]; then build_dir=$1; shift; fi
while [[ $# -gt 0 ]]; do
  case $1 in
    --quick) quick=1; shift ;;
    --reps) reps=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_commands: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_commands: --reps must be a positive integer" >&2; exit 2; }

# ---------------------------------------------------------------- common set-up
[[ -d $build_dir ]] || build_dir="$(cd "$(dirname "$0")/.." && pwd)/$build_dir"
build_dir=$(cd "$build_dir" && pwd)
TRAWL=$build_dir/trawl
MAKE_WORKLOAD=$build_dir/make_workload
for bin in "$TRAWL" "$MAKE_WORKLOAD"; do
  for _ in $(seq 30); do [[ -x $bin ]] && break; sleep 2; done  # tolerate a rebuild in progress
  [[ -x $bin ]] || { echo "bench_commands: $bin not found (build first)" >&2; exit 1; }
done
DATA=${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/.run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
div=1; suffix=""
if ((quick)); then div=8; suffix="-quick"; fi

NAME=bench_commands  # shellcheck disable=SC2034  # used in bench/common.sh
# shellcheck source=bench/common.sh
source "$(dirname "$0")/bench/common.sh"

# guard COMMAND CMD...: untimed run of CMD, output piped: hits -> data rows, count -> sum of the
# `count` column, contains -> records whose `contains` column is true.
guard() {
  local command=$1; shift
  case $command in
    hits) "$@" | awk 'END { print (NR > 0 ? NR - 1 : 0) }' ;;
    count) "$@" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "count") c = i; next }
                              { s += $c } END { printf "%d\n", s }' ;;
    contains) "$@" | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "contains") c = i; next }
                                 $c == "true" { n++ } END { print n + 0 }' ;;
  esac
}

gen_file() {  # gen_file DEST CMD...: stdout of CMD -> DEST (atomically), skipped when DEST exists
  local dest=$1; shift
  [[ -s $dest ]] && return 0
  echo "bench_commands: generating $dest" >&2
  "$@" > "$dest.tmp.$$"
  mv "$dest.tmp.$$" "$dest"
}

# windows TABLE ROWS: sets WFA and WTXT to the FASTA and pattern list of the first ROWS records
# of a windows table. All three tables are prefixes of one sequence of windows (large = small x 8,
# whose first 262,144 rows are small), so a prefix of <= 262,144 rows is cut from the small table.
windows() {
  local table=$1 rows=$2 full
  case $table in small) full=262144 ;; large) full=2097152 ;; balanced) full=983040 ;; esac
  local src=$table
  if ((rows < full)); then
    ((rows <= 262144)) || { echo "bench_commands: prefix too long" >&2; exit 1; }
    src=small
    if ((rows == 262144)); then full=262144; fi  # the whole small table
  fi
  local fa=$DATA/windows-$src.fa txt=$DATA/windows-$src.txt
  if [[ ! -s $fa || ! -s $txt ]]; then
    echo "bench_commands: generating $fa" >&2
    "$MAKE_WORKLOAD" windows "$src" "$txt.tmp.$$" > "$fa.tmp.$$"
    mv "$txt.tmp.$$" "$txt"
    mv "$fa.tmp.$$" "$fa"
  fi
  if ((rows < full)); then
    local pfa=$DATA/windows-$table-$rows.fa ptxt=$DATA/windows-$table-$rows.txt
    gen_file "$ptxt" head -n "$rows" "$txt"
    gen_file "$pfa" head -n "$((2 * rows))" "$fa"
    fa=$pfa; txt=$ptxt
  fi
  WFA=$fa; WTXT=$txt
}

# prepare W: generates missing data; sets records, fa, args, t_count, t_contains.
prepare() {
  case $1 in
    W4)
      records=$((2097152 / div))
      windows large "$records"
      fa=$WFA; args=(--paired -l "$WTXT" -k 2 --alphabet dna)
      t_count=0.8; t_contains=0.4 ;;
    W5)
      records=$((65536 / div))
      fa=$DATA/ascii-$records.fa
      gen_file "$fa" "$MAKE_WORKLOAD" ascii "$records"
      args=(-p ab -k 0 --alphabet ascii)
      t_count=0.15; t_contains=0.05 ;;
    *) echo "bench_commands: unknown workload '$1' (W4 or W5)" >&2; exit 2 ;;
  esac
}

# ---------------------------------------------------------------- the table
csv=${csv:-$DATA/bench_commands$suffix.csv}
for w in $workloads; do prepare "$w"; done  # generate missing data before the table
echo "workload,command,records,seconds,ratio_to_hits,target_ratio,target_met,max_rss_kb,guard,check" > "$csv"
row() { printf '%-4s %-9s %9s %8s %7s %7s %4s %9s %10s  %s\n' "$@"; }  # one table row
row wl command records seconds ratio target met rss_MiB guard check
for w in $workloads; do
  prepare "$w"
  cat "$fa" > /dev/null  # warm the page cache
  hits_sec=""; hits_guard=""
  declare -A ISEC=() IKB=()
  interleaved_reps "hits count contains" -- "$TRAWL" {} "${args[@]}" -t 1 -q "$fa"
  for command in hits count contains; do
    cmd=("$TRAWL" "$command" "${args[@]}" -t 1 -q "$fa")
    SEC=${ISEC[$command]}; KB=${IKB[$command]}
    g=$(guard "$command" "${cmd[@]}")
    target="-"; met="-"; ratio=1.000
    if [[ $command == hits ]]; then
      hits_sec=$SEC; hits_guard=$g
    else
      ratio=$(awk -v s="$SEC" -v h="$hits_sec" 'BEGIN { printf "%.3f", (h > 0 ? s / h : 0) }')
      if [[ $command == count ]]; then target=$t_count; else target=$t_contains; fi
      met=$(awk -v r="$ratio" -v g="$target" 'BEGIN { print (r <= g ? "yes" : "NO") }')
    fi
    check=ok
    case $w/$command in
      W4/hits) ((g >= records)) || check="BAD(<records)" ;;
      W4/count) ((g == hits_guard)) || check="BAD(!=hits)" ;;
      W5/hits|W5/count) ((g == 128 * records)) || check="BAD(!=$((128 * records)))" ;;
      */contains) ((g == records)) || check="BAD(!=records)" ;;
    esac
    rss=$(awk -v k="$KB" 'BEGIN { printf "%.1f", k / 1024 }')
    row "$w" "$command" "$records" "$SEC" "$ratio" "$target" "$met" "$rss" "$g" "$check"
    echo "$w,$command,$records,$SEC,$ratio,$target,$met,$KB,$g,$check" >> "$csv"
  done
done
echo "(seconds: median of $reps run(s), -t 1; ratio = seconds / hits seconds; target: ratio <= target)"
echo "(guard: hits = rows, count = sum of counts, contains = records with true)"
echo "CSV: $csv"
