#!/usr/bin/env bash
# bench_scaling.sh: thread scaling of `trawl hits` (wall time, speedup, efficiency, max RSS).
#
# Workloads (data generated with make_workload into ${TRAWL_BENCH_DIR:-/tmp/trawl-bench},
# reused when present):
#   small     262,144 records x 256 bp, paired 23-mer per record   --paired -l small.txt -k 2 --alphabet dna
#   large   2,097,152 records (small x 8)                            (same options)
#   balanced  983,040 records                                        (same options)
#   w1-1      100 Mbp random genome as ONE record (genome 100000000 1 SEED)
#   w1-4      the same 100 Mbp as FOUR records  (genome 100000000 4 SEED)
#             W1: -p TATCTATCTGGCATTCAACCAGG -k 3 (default alphabet, both strands)
# For each workload and thread count: median wall seconds of --reps timed runs (in rounds over
# the thread counts, so drifting machine speed skews no speedup)
# (wall seconds to 1 ms and GNU time's max RSS of the whole process, -q, output to /dev/null), speedup vs the
# first thread count (normally 1), efficiency = speedup / (threads / base threads), the largest
# max RSS, and a guard: the number of hit rows printed by one extra untimed run at the same
# thread count. `check` is "ok" when the guard equals the guard of the first thread count (and,
# for the tables, is at least one hit per record: every record holds its own 23-mer). W1's
# pattern is not planted, so its guard is about 0 on a random genome and only checks that
# every thread count agrees.
# Targets: speedup >= 1.9 at 2 threads and >= 7.5 at 8 threads on small/large/balanced.
# Columns ceil and of_ceil (2-thread rows, when 1 is the first thread count): the machine's
# own ceiling for that workload, 2 x (one one-thread run) / (two one-thread runs at once), and
# speedup / ceiling.
#
# --rss mode instead measures bounded memory: the small table at 1x and at 10x (10 concatenated
# copies of the FASTA and of the pattern list) with -t 2, and W1 one record (100 Mbp) with -t 2;
# it prints time, max RSS and guard (the 10x guard must be 10 x the 1x guard).
#
# Usage: scripts/bench_scaling.sh [BUILD_DIR] [--threads "1 2"] [--reps N] [--quick]
#                                 [--workloads "small large balanced w1-1 w1-4"] [--csv FILE] [--rss]
#   BUILD_DIR     default build/release (needs trawl and make_workload there)
#   --threads     thread counts, default "1 2"; the first one is the speedup base
#   --reps        timed runs per point, median reported (default 3)
#   --quick       every workload 8 times smaller (smoke run)
#   --workloads   subset/order of workloads (default all five)
#   --csv FILE    CSV path (default: bench_scaling[_rss][-quick].csv in the data directory)
#   --rss         the bounded-memory check described above instead of the scaling table
# Environment: TRAWL_BENCH_DIR (data/cache directory), TRAWL_BENCH_SEED (W1 genome seed, 42).
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

build_dir=build/release
threads="1 2"
reps=3
quick=0
rss_mode=0
workloads="small large balanced w1-1 w1-4"
csv=""
if [[ $# -gt 0 && $1 != -* ]]; then build_dir=$1; shift; fi
while [[ $# -gt 0 ]]; do
  case $1 in
    --threads) threads=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --rss) rss_mode=1; shift ;;
    --workloads) workloads=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_scaling: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_scaling: --reps must be a positive integer" >&2; exit 2; }
for t in $threads; do
  [[ $t =~ ^[1-9][0-9]*$ ]] || { echo "bench_scaling: bad thread count '$t'" >&2; exit 2; }
done

# ---------------------------------------------------------------- common set-up
[[ -d $build_dir ]] || build_dir="$(cd "$(dirname "$0")/.." && pwd)/$build_dir"
build_dir=$(cd "$build_dir" && pwd)
TRAWL=$build_dir/trawl
MAKE_WORKLOAD=$build_dir/make_workload
for bin in "$TRAWL" "$MAKE_WORKLOAD"; do
  for _ in $(seq 30); do [[ -x $bin ]] && break; sleep 2; done  # tolerate a rebuild in progress
  [[ -x $bin ]] || { echo "bench_scaling: $bin not found (build first)" >&2; exit 1; }
done
DATA=${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
SEED=${TRAWL_BENCH_SEED:-42}
mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/.run.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
div=1; suffix=""
if ((quick)); then div=8; suffix="-quick"; fi

NAME=bench_scaling  # shellcheck disable=SC2034  # used in bench/common.sh
# shellcheck source=bench/common.sh
source "$(dirname "$0")/bench/common.sh"

# hit_rows CMD...: untimed; the number of data rows (lines minus the header) CMD prints.
hit_rows() { "$@" | awk 'END { print (NR > 0 ? NR - 1 : 0) }'; }

# atomic generation: gen_file DEST CMD... (stdout of CMD -> DEST), skipped when DEST exists.
gen_file() {
  local dest=$1; shift
  [[ -s $dest ]] && return 0
  echo "bench_scaling: generating $dest" >&2
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
    ((rows <= 262144)) || { echo "bench_scaling: prefix too long" >&2; exit 1; }
    src=small
    if ((rows == 262144)); then full=262144; fi  # the whole small table
  fi
  local fa=$DATA/windows-$src.fa txt=$DATA/windows-$src.txt
  if [[ ! -s $fa || ! -s $txt ]]; then
    echo "bench_scaling: generating $fa" >&2
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

genome() {  # genome TOTAL RECORDS: sets GFA to the FASTA path
  GFA=$DATA/genome-$1-$2-$SEED.fa
  gen_file "$GFA" "$MAKE_WORKLOAD" genome "$1" "$2" "$SEED"
}

W1_PATTERN=TATCTATCTGGCATTCAACCAGG
W1_BP=$((100000000 / div))

# setup_workload NAME: sets FA, ARGS (trawl options), RECORDS (0 = unchecked).
setup_workload() {
  local rows
  case $1 in
    small|large|balanced)
      case $1 in small) rows=262144 ;; large) rows=2097152 ;; balanced) rows=983040 ;; esac
      rows=$((rows / div))
      windows "$1" "$rows"
      FA=$WFA; ARGS=(--paired -l "$WTXT" -k 2 --alphabet dna); RECORDS=$rows ;;
    w1-1|w1-4)
      genome "$W1_BP" "${1#w1-}"
      FA=$GFA
      ARGS=(-p "$W1_PATTERN" -k 3); RECORDS=0 ;;
    *) echo "bench_scaling: unknown workload '$1'" >&2; exit 2 ;;
  esac
}

mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# ---------------------------------------------------------------- --rss mode
if ((rss_mode)); then
  csv=${csv:-$DATA/bench_scaling_rss$suffix.csv}
  rows=$((262144 / div))
  windows small "$rows"
  fa1=$WFA; txt1=$WTXT
  fa10=$DATA/windows-small-$rows-x10.fa; txt10=$DATA/windows-small-$rows-x10.txt
  # shellcheck disable=SC2317  # called through gen_file
  cat10() { local i; for i in 1 2 3 4 5 6 7 8 9 10; do cat "$1"; done; }
  gen_file "$txt10" cat10 "$txt1"
  gen_file "$fa10" cat10 "$fa1"
  setup_workload w1-1
  echo "workload,scale,threads,records,input_bytes,seconds,max_rss_kb,guard_rows,check" > "$csv"
  printf '%-10s %5s %3s %10s %12s %8s %10s %10s  %s\n' \
    workload scale thr records input_bytes seconds rss_MiB guard check
  guard1=""
  for scale in 1 10; do
    if ((scale == 1)); then fa=$fa1; txt=$txt1; else fa=$fa10; txt=$txt10; fi
    cat "$fa" > /dev/null
    cmd=("$TRAWL" hits --paired -l "$txt" -k 2 --alphabet dna -t 2)
    timed_reps "${cmd[@]}" -q "$fa"
    guard=$(hit_rows "${cmd[@]}" -q "$fa")
    records=$((rows * scale))
    if ((scale == 1)); then
      guard1=$guard
      if ((guard >= records)); then check=ok; else check="BAD(<records)"; fi
    else
      if ((guard == 10 * guard1)); then check=ok; else check="BAD(!=10x)"; fi
    fi
    bytes=$(stat -c %s "$fa")
    printf '%-10s %4sx %3s %10s %12s %8s %10s %10s  %s\n' small "$scale" 2 "$records" "$bytes" \
      "$SEC" "$(mib "$KB")" "$guard" "$check"
    echo "small,$scale,2,$records,$bytes,$SEC,$KB,$guard,$check" >> "$csv"
  done
  # The same records with one pattern (not --paired): --paired keeps every pattern in
  # memory (about 80 bytes each), so this row isolates what the records cost.
  first_pattern=$(head -1 "$txt1")
  guard1=""
  for scale in 1 10; do
    if ((scale == 1)); then fa=$fa1; else fa=$fa10; fi
    cmd=("$TRAWL" hits -p "$first_pattern" -k 2 --alphabet dna -t 2)
    timed_reps "${cmd[@]}" -q "$fa"
    guard=$(hit_rows "${cmd[@]}" -q "$fa")
    records=$((rows * scale))
    if ((scale == 1)); then guard1=$guard; check=ok
    elif ((guard == 10 * guard1)); then check=ok; else check="BAD(!=10x)"; fi
    bytes=$(stat -c %s "$fa")
    printf '%-10s %4sx %3s %10s %12s %8s %10s %10s  %s\n' small-1pat "$scale" 2 "$records" "$bytes" \
      "$SEC" "$(mib "$KB")" "$guard" "$check"
    echo "small-1pat,$scale,2,$records,$bytes,$SEC,$KB,$guard,$check" >> "$csv"
  done
  setup_workload w1-1
  cat "$FA" > /dev/null
  cmd=("$TRAWL" hits "${ARGS[@]}" -t 2)
  timed_reps "${cmd[@]}" -q "$FA"
  guard=$(hit_rows "${cmd[@]}" -q "$FA")
  bytes=$(stat -c %s "$FA")
  printf '%-10s %4sx %3s %10s %12s %8s %10s %10s  %s\n' w1-1 1 2 1 "$bytes" "$SEC" \
    "$(mib "$KB")" "$guard" "-"
  echo "w1-1,1,2,1,$bytes,$SEC,$KB,$guard," >> "$csv"
  echo "(max RSS at 10x should stay close to 1x: memory is bounded, not proportional to input)"
  echo "CSV: $csv"
  exit 0
fi

# What the machine itself allows a workload at 2 threads: two independent one-thread runs at
# the same time vs one alone (rounds of both, medians), as 2 x alone / pair. On a shared
# machine, or one whose two vCPUs share a core or memory bandwidth, this is below 2 (and
# differs by workload), and no two-thread speedup can beat it. Sets CEIL.
ceiling() {
  local alone=() pair=() i t0 t1 t2 a p
  for ((i = 0; i < reps; i++)); do
    t0=$EPOCHREALTIME; "$TRAWL" hits "${ARGS[@]}" -t 1 -q "$FA" > /dev/null; t1=$EPOCHREALTIME
    "$TRAWL" hits "${ARGS[@]}" -t 1 -q "$FA" > /dev/null &
    "$TRAWL" hits "${ARGS[@]}" -t 1 -q "$FA" > /dev/null; wait; t2=$EPOCHREALTIME
    alone+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
    pair+=("$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')")
  done
  a=$(printf '%s\n' "${alone[@]}" | sort -g | sed -n "$(( (reps + 1) / 2 ))p")
  p=$(printf '%s\n' "${pair[@]}" | sort -g | sed -n "$(( (reps + 1) / 2 ))p")
  CEIL=$(awk -v a="$a" -v p="$p" 'BEGIN { printf "%.2f", 2 * a / p }')
}

# ---------------------------------------------------------------- scaling table
csv=${csv:-$DATA/bench_scaling$suffix.csv}
for w in $workloads; do setup_workload "$w"; done  # generate missing data before the table
echo "workload,threads,seconds,speedup,efficiency,ceiling,of_ceiling,max_rss_kb,guard_rows,target_speedup,target_met,check" > "$csv"
printf '%-9s %3s %8s %8s %6s %5s %8s %9s %10s %7s %4s  %s\n' \
  workload thr seconds speedup eff ceil of_ceil rss_MiB guard target met check
read -r -a thread_list <<< "$threads"
base_t=${thread_list[0]}
for w in $workloads; do
  setup_workload "$w"
  cat "$FA" > /dev/null  # warm the page cache
  base_sec=""; base_guard=""
  declare -A ISEC=() IKB=()
  interleaved_reps "$threads" -- "$TRAWL" hits "${ARGS[@]}" -t {} -q "$FA"
  CEIL="-"
  [[ " $threads " == *" 2 "* && $base_t == 1 ]] && ceiling
  for t in "${thread_list[@]}"; do
    cmd=("$TRAWL" hits "${ARGS[@]}" -t "$t")
    SEC=${ISEC[$t]}; KB=${IKB[$t]}
    guard=$(hit_rows "${cmd[@]}" -q "$FA")
    if [[ -z $base_sec ]]; then base_sec=$SEC; base_guard=$guard; fi
    read -r speedup eff < <(awk -v b="$base_sec" -v s="$SEC" -v t="$t" -v bt="$base_t" \
      'BEGIN { sp = (s > 0 ? b / s : 0); printf "%.2f %.2f\n", sp, sp / (t / bt) }')
    target="-"; met="-"
    if [[ $w == small || $w == large || $w == balanced ]] && ((base_t == 1)); then
      case $t in 2) target=1.9 ;; 8) target=7.5 ;; esac
      if [[ $target != - ]]; then
        met=$(awk -v s="$speedup" -v g="$target" 'BEGIN { print (s >= g ? "yes" : "NO") }')
      fi
    fi
    ceil="-"; of_ceil="-"
    if [[ $t == 2 && $CEIL != - ]]; then
      ceil=$CEIL
      of_ceil=$(awk -v s="$speedup" -v c="$CEIL" 'BEGIN { printf "%.2f", s / c }')
    fi
    check=ok
    ((guard == base_guard)) || check="BAD(!=${base_t}t)"
    ((RECORDS == 0 || guard >= RECORDS)) || check="BAD(<records)"
    printf '%-9s %3s %8s %8s %6s %5s %8s %9s %10s %7s %4s  %s\n' "$w" "$t" "$SEC" "$speedup" "$eff" \
      "$ceil" "$of_ceil" "$(mib "$KB")" "$guard" "$target" "$met" "$check"
    echo "$w,$t,$SEC,$speedup,$eff,$ceil,$of_ceil,$KB,$guard,$target,$met,$check" >> "$csv"
  done
done
echo "(seconds: median of $reps run(s); speedup and efficiency vs $base_t thread(s); guard: hit rows)"
echo "(ceiling: two one-thread runs of the workload at once vs one alone, 2 x alone / pair; of_ceil = speedup / ceiling)"
echo "CSV: $csv"
