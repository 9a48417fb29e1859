#!/usr/bin/env bash
# bench_e2e.sh: whole `trawl` processes on every benchmark workload — the speed a user sees,
# with wall, user and system time. The contract for speed work: a library-level figure alone
# proves nothing; a system time above 25% of wall is printed as a warning (a system call per
# record or per pattern shows itself there first).
#
# Workloads (seeded data from make_workload in ${TRAWL_BENCH_DIR:-/tmp/trawl-bench}, made once):
#   W1-4       100 Mbp random genome, 4 records, 80-column FASTA   hits -p P -k 3            -t 1
#   W1-1       the same 100 Mbp as one record (80-column)           hits -p P -k 3            -t 1
#   W1-1.t2    W1-1 on two threads                                                              -t 2
#   W2         1,000,000 x 150 bp reads, P planted in 1 of 10       hits -p P -k 3            -t 1
#   W2.pq      W2 written as Parquet                                                            -t 1
#   W3-32      100,000 x 150 bp reads, 32 random 23-mers (-l)       hits -k 3                 -t 1
#   W3-1000    the same reads, 1,000 random 23-mers                 hits -k 3                 -t 1
#   W4.hits    "large" windows table, 2,097,152 x 256 bp, the seed's workload:
#              --paired -f large.fa (a pattern FASTA) -k 2 --alphabet dna                       -t 1
#   W4.count, W4.contains   the same with count / contains
#   W5         65,536 x 'ab'x128, -p ab -k 0 --alphabet ascii (8,388,608 hits), TSV             -t 1
#   W5.pq      W5 written as Parquet                                                            -t 1
#   small.t1, small.t2   the 262,144-record table, --paired -f small.fa -k 2 --alphabet dna, hits
#   small.gz   small.t1 with the pattern FASTA gzipped (patterns read record by record)
# P = TATCTATCTGGCATTCAACCAGG. TSV goes to stdout, which is /dev/null; Parquet to a file
# (-o out.parquet in a scratch folder, removed before each run). Timed runs have -q.
#
# Each (workload, trawl build) is run --reps times, interleaved: one run of each build per
# round, so a machine whose speed drifts slows every build alike; medians are printed. An
# extra untimed run per build gives the guard: records and hits from trawl's own summary line
# on stderr, which must agree between builds (else "BAD" and exit status 1).
# Columns: wall, user, sys (median seconds), sys% (of wall), us/rec (wall per record), Mhits/s,
# rss (largest max RSS, MiB), records, hits, vs (wall / the first build's wall).
#
# Targets (issue "Speed that holds on every machine"), for the first build, printed as met or
# NOT met: W4.* <= 0.5 us/record and sys <= 15% of wall; small.t2 >= 1.5x small.t1;
# W5.pq <= 1.3x W5 and W2.pq <= 1.3x W2; W1-1.t2 >= 1.4x W1-1; W1-4 sys <= 15% of wall and
# <= 0.2 s; W5 >= 60 M hits/s; with --search, W1-4 <= 3x and W2 <= 1.6x their library search
# time (bench_speed --only-auto, median of --reps).
#
# Usage: scripts/bench_e2e.sh [--trawl NAME=PATH]... [--reps N] [--workloads "W1-4 W2 ..."]
#                             [--search BENCH_SPEED] [--csv FILE]
#   --trawl      a build to time (repeatable; default: base=build/release/trawl); the first is
#                the reference of the vs column and of the targets
#   --reps       timed runs per build and workload (default 5)
#   --workloads  subset, in this order (default: all of the above)
#   --search     bench_speed binary (bash scripts/setup.sh bench) for the library search times
#   --csv        raw runs as CSV (default: bench_e2e.csv in the data folder)
# Needs make_workload and run_timed (built with every preset) beside the first build's trawl,
# or in build/release.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

root=$(cd "$(dirname "$0")/.." && pwd)
names=()
declare -A BIN
reps=5
workloads="W1-4 W1-1 W1-1.t2 W2 W2.pq W3-32 W3-1000 W4.hits W4.count W4.contains W5 W5.pq small.t1 small.t2 small.gz"
search=""
csv=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --trawl)
      [[ $2 == *=* ]] || { echo "bench_e2e: --trawl wants NAME=PATH" >&2; exit 2; }
      n=${2%%=*}; names+=("$n"); BIN[$n]=$(realpath "${2#*=}"); shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --search) search=$(realpath "$2"); shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_e2e: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_e2e: --reps must be a positive integer" >&2; exit 2; }
if ((${#names[@]} == 0)); then names=(base); BIN[base]=$root/build/release/trawl; fi
for n in "${names[@]}"; do
  [[ -x ${BIN[$n]} ]] || { echo "bench_e2e: ${BIN[$n]} not found (build first)" >&2; exit 1; }
done
tools=$(dirname "${BIN[${names[0]}]}")
[[ -x $tools/run_timed && -x $tools/make_workload ]] || tools=$root/build/release
RUN_TIMED=$tools/run_timed
MAKE_WORKLOAD=$tools/make_workload
for t in "$RUN_TIMED" "$MAKE_WORKLOAD"; do
  [[ -x $t ]] || { echo "bench_e2e: $t not found (bash scripts/setup.sh builds it)" >&2; exit 1; }
done
DATA=${TRAWL_BENCH_DIR:-/tmp/trawl-bench}
SEED=${TRAWL_BENCH_SEED:-42}
mkdir -p "$DATA"
WORK=$(mktemp -d "$DATA/.e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
csv=${csv:-$DATA/bench_e2e.csv}
P=TATCTATCTGGCATTCAACCAGG

gen() {  # gen DEST CMD...: stdout of CMD into DEST, once
  local dest=$1; shift
  [[ -s $dest ]] && return 0
  echo "bench_e2e: generating $dest" >&2
  "$@" > "$dest.tmp.$$"
  mv "$dest.tmp.$$" "$dest"
}
table() {  # table small|large: sets TFA (records) and TPAT (patterns as FASTA)
  TFA=$DATA/windows-$1.fa
  local txt=$DATA/windows-$1.txt
  if [[ ! -s $TFA || ! -s $txt ]]; then
    echo "bench_e2e: generating $TFA" >&2
    "$MAKE_WORKLOAD" windows "$1" "$txt.tmp.$$" > "$TFA.tmp.$$"
    mv "$txt.tmp.$$" "$txt"; mv "$TFA.tmp.$$" "$TFA"
  fi
  TPAT=$DATA/windows-$1.patterns.fa
  gen "$TPAT" awk '{ print ">p" NR; print }' "$txt"
}

# spec ID: sets THREADS, ARGS (the trawl arguments, output file last), IN (input), EXT.
spec() {
  THREADS=1; EXT=tsv
  local id=${1%.t[12]}
  [[ $1 == *.t2 ]] && THREADS=2
  [[ $id == *.pq ]] && EXT=parquet
  id=${id%.pq}
  case $id in
    W1-4|W1-1)
      IN=$DATA/genome-100000000-${id#W1-}-$SEED-w80.fa
      gen "$IN" "$MAKE_WORKLOAD" genome 100000000 "${id#W1-}" "$SEED" 80
      ARGS=(hits -p "$P" -k 3) ;;
    W2)
      IN=$DATA/reads-1000000-150-$SEED-$P.fa
      gen "$IN" "$MAKE_WORKLOAD" reads 1000000 150 "$SEED" "$P"
      ARGS=(hits -p "$P" -k 3) ;;
    W3-32|W3-1000)
      IN=$DATA/reads-100000-150-$((SEED + 1)).fa
      gen "$IN" "$MAKE_WORKLOAD" reads 100000 150 "$((SEED + 1))"
      local pats=$DATA/patterns-${id#W3-}-23-$((SEED + 2)).txt
      gen "$pats" "$MAKE_WORKLOAD" patterns "${id#W3-}" 23 "$((SEED + 2))"
      ARGS=(hits -l "$pats" -k 3) ;;
    W4.*|small|small.gz)
      local size=large
      [[ $id == small* ]] && size=small
      table "$size"
      IN=$TFA
      local cmd=hits
      [[ $1 == W4.* ]] && cmd=${1#W4.}
      local pat=$TPAT
      if [[ $id == small.gz ]]; then
        pat=$TPAT.gz
        gen "$pat" gzip -c "$TPAT"
      fi
      ARGS=("$cmd" --paired -f "$pat" -k 2 --alphabet dna) ;;
    W5)
      IN=$DATA/ascii-65536.fa
      gen "$IN" "$MAKE_WORKLOAD" ascii 65536
      ARGS=(hits -p ab -k 0 --alphabet ascii) ;;
    *) echo "bench_e2e: unknown workload '$1'" >&2; exit 2 ;;
  esac
  ARGS+=(-t "$THREADS")
  # TSV goes to stdout (/dev/null when timed), Parquet to a file.
  [[ $EXT == parquet ]] && ARGS+=(-o "$WORK/out.$EXT")
  return 0
}

for id in $workloads; do spec "$id"; done  # all data made before the first timing

declare -A WALL USER SYS RSS RECS HITS
echo "CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1) ($(nproc) online); $(date -u '+%Y-%m-%d %H:%M UTC'); reps $reps"
for n in "${names[@]}"; do echo "build $n: ${BIN[$n]}"; done
echo
echo "workload,build,rep,wall_s,user_s,sys_s,maxrss_kb" > "$csv"
fmt='%-12s %-8s %7s %7s %7s %5s %8s %8s %6s %9s %10s %6s\n'
printf "$fmt" workload build wall user sys sys% us/rec Mhits/s rss records hits vs
bad=0
median() { sort -g | sed -n "$(( (reps + 1) / 2 ))p"; }
for id in $workloads; do
  spec "$id"
  cat "$IN" > /dev/null  # in the page cache for every build alike
  declare -A runs=()
  for n in "${names[@]}"; do
    "${BIN[$n]}" "${ARGS[@]}" "$IN" > /dev/null 2> "$WORK/guard.err" ||
      { echo "bench_e2e: $n failed on $id:" >&2; cat "$WORK/guard.err" >&2; exit 1; }
    read -r RECS[$id.$n] HITS[$id.$n] < <(sed -n 's/.*done: \([0-9]*\) records, [0-9]* bases, \([0-9]*\) .*/\1 \2/p' "$WORK/guard.err")
    runs[$n]=""
  done
  for ((r = 1; r <= reps; r++)); do
    for n in "${names[@]}"; do
      # (A new output file each run: ext4 flushes a file renamed over an old one first.)
      rm -f "$WORK/out.$EXT"
      "$RUN_TIMED" "$WORK/t" /dev/null "${BIN[$n]}" "${ARGS[@]}" -q "$IN" ||
        { echo "bench_e2e: $n failed on $id:" >&2; cat "$WORK/t.stderr" >&2; exit 1; }
      read -r w u s k _ < "$WORK/t"
      runs[$n]+="$w $u $s $k"$'\n'
      echo "$id,$n,$r,$w,$u,$s,$k" >> "$csv"
    done
  done
  for n in "${names[@]}"; do
    WALL[$id.$n]=$(awk 'NF { print $1 }' <<< "${runs[$n]}" | median)
    USER[$id.$n]=$(awk 'NF { print $2 }' <<< "${runs[$n]}" | median)
    SYS[$id.$n]=$(awk 'NF { print $3 }' <<< "${runs[$n]}" | median)
    RSS[$id.$n]=$(awk 'NF { if ($4 > m) m = $4 } END { printf "%.1f", m / 1024 }' <<< "${runs[$n]}")
    first=${names[0]}
    check=""
    [[ ${HITS[$id.$n]} == "${HITS[$id.$first]}" && ${RECS[$id.$n]} == "${RECS[$id.$first]}" ]] || { check=" BAD(guard)"; bad=1; }
    read -r pct us mh vs < <(awk -v w="${WALL[$id.$n]}" -v s="${SYS[$id.$n]}" -v r="${RECS[$id.$n]}" \
      -v h="${HITS[$id.$n]}" -v f="${WALL[$id.$first]}" 'BEGIN {
        printf "%.0f %.3f %.2f %.3f\n", 100 * s / w, 1e6 * w / r, h / 1e6 / w, w / f }')
    printf "$fmt" "$id" "$n" "${WALL[$id.$n]}" "${USER[$id.$n]}" "${SYS[$id.$n]}" "$pct" "$us" "$mh" \
      "${RSS[$id.$n]}" "${RECS[$id.$n]}" "${HITS[$id.$n]}$check" "$vs"
    ((pct > 25)) && echo "  WARNING: $id ($n) spends $pct% of its wall time in the kernel (system time)"
  done
  unset runs
done
echo "(raw runs: $csv)"

# ---------------------------------------------------------------- targets (first build)
b=${names[0]}
has() { [[ " $workloads " == *" $1 "* ]]; }
declare -A LIB
if [[ -n $search ]]; then
  # (--only-auto prints "ID trawl-auto SECONDS s, N hits" per run.)
  out=$("$search" --workloads "W1 W2" --reps "$reps" --seed "$SEED" --only-auto 2>&1) ||
    { echo "$out" >&2; exit 1; }
  for w in W1 W2; do LIB[$w]=$(awk -v w="$w" '$1 == w && $2 == "trawl-auto" { print $3 }' <<< "$out" | median); done
fi
echo
echo "targets, build $b:"
target() {  # target TEXT VALUE OP GOAL
  local met
  met=$(awk -v v="$2" -v g="$4" -v op="$3" 'BEGIN { print ((op == ">=" ? v >= g : v <= g) ? "met" : "NOT met") }')
  printf '  %-52s %10s  %s\n' "$1" "$2" "$met"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
for c in hits count contains; do
  if has "W4.$c"; then
    target "W4 $c us/record <= 0.5" "$(awk -v w="${WALL[W4.$c.$b]}" -v r="${RECS[W4.$c.$b]}" 'BEGIN { printf "%.3f", 1e6 * w / r }')" "<=" 0.5
    target "W4 $c sys/wall <= 0.15" "$(ratio "${SYS[W4.$c.$b]}" "${WALL[W4.$c.$b]}")" "<=" 0.15
  fi
done
has small.t1 && has small.t2 && target "small: t1 / t2 wall >= 1.5" "$(ratio "${WALL[small.t1.$b]}" "${WALL[small.t2.$b]}")" ">=" 1.5
has W5 && has W5.pq && target "W5: parquet / tsv wall <= 1.3" "$(ratio "${WALL[W5.pq.$b]}" "${WALL[W5.$b]}")" "<=" 1.3
has W5 && has W5.pq && target "W5: parquet rss <= 2x tsv + 32 MiB (MiB)" "${RSS[W5.pq.$b]}" "<=" "$(awk -v r="${RSS[W5.$b]}" 'BEGIN { print 2 * r + 32 }')"
has W2 && has W2.pq && target "W2: parquet / tsv wall <= 1.3" "$(ratio "${WALL[W2.pq.$b]}" "${WALL[W2.$b]}")" "<=" 1.3
has W1-1 && has W1-1.t2 && target "W1-1 (one record): t1 / t2 wall >= 1.4" "$(ratio "${WALL[W1-1.$b]}" "${WALL[W1-1.t2.$b]}")" ">=" 1.4
if has W1-4; then
  target "W1-4 wall <= 0.2 s" "${WALL[W1-4.$b]}" "<=" 0.2
  target "W1-4 sys/wall <= 0.15" "$(ratio "${SYS[W1-4.$b]}" "${WALL[W1-4.$b]}")" "<=" 0.15
  [[ -n ${LIB[W1]:-} ]] && target "W1-4 wall / library search (${LIB[W1]} s) <= 3" "$(ratio "${WALL[W1-4.$b]}" "${LIB[W1]}")" "<=" 3
fi
has W2 && [[ -n ${LIB[W2]:-} ]] && target "W2 wall / library search (${LIB[W2]} s) <= 1.6" "$(ratio "${WALL[W2.$b]}" "${LIB[W2]}")" "<=" 1.6
has W5 && target "W5 M hits/s >= 60" "$(awk -v h="${HITS[W5.$b]}" -v w="${WALL[W5.$b]}" 'BEGIN { printf "%.1f", h / 1e6 / w }')" ">=" 60
((bad == 0)) || { echo "bench_e2e: builds disagree on records or hits (BAD above)" >&2; exit 1; }
