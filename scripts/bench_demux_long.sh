#!/usr/bin/env bash
# bench_demux_long.sh: `trawl demux` on long reads (issue #32, second workload): Nanopore-
# style reads with a barcode near each end, searched whole or at both 150-base ends only,
# against Sassy's batch search followed by a best-per-read reduction.
#
# Data (made once with python3, seed --seed, in the work folder; reused when present):
#   barcodes-96-SEED.fa    96 random 24 bp barcodes bc1..bc96, pairwise edit distance >= 6
#   long-N-SEED.fq         N random reads of 1,000-20,000 bases (uniform), quality '5'; 95%
#                          carry one barcode twice: forward at a random place in the first
#                          150 bases and reverse-complemented in the last 150, each copy with
#                          6% errors (per base: substitution, insertion or deletion alike);
#                          half of the reads are then reverse-complemented whole
#   long-truth-N-SEED.tsv  read name, its barcode ("none" for the 5% without)
#
# Runs (ids: TOOL.tT), every id once per round, --reps rounds interleaved:
#   ends.tT    trawl demux -f BC -k 4 --region 1:150,-150:-1 -t T --assignments A.tsv IN
#   whole.tT   trawl demux -f BC -k 4 -t T --assignments A.tsv IN          (whole reads)
#   sassy.tT   sassy search --v2 -f BC -k 4 -j T IN > hits.tsv             (whole reads; when
#              a sassy binary runs here, else skipped with a message); its rows are reduced
#              after timing to each read's lowest-cost barcode (two at that cost: ambiguous)
# Assignments only (no --out-dir): writing a gzip file per barcode is the same work for
# every search, and measured by bench_demux.sh.
#
# Printed: medians of wall, user, sys, max RSS; reads/s and Mbp of reads per second per
# thread (bases / wall / T); the agreement of round 1's assignments with the truth (same /
# different / unassigned / ambiguous, and % of the reads that carry a barcode); the goals
# (whole reads >= 150 Mbp/s per thread; both ends >= 1,000 Mbp/s per thread; agreement
# >= 99%) as met or NOT met. Guard: every run of an id gives the same assignments.
#
# Usage: scripts/bench_demux_long.sh [--trawl PATH] [--sassy PATH] [--reps N] [--reads N]
#                                    [--threads "1 2"] [--only "ends whole sassy"]
#                                    [--csv FILE] [--dir DIR] [--seed S]
#   --reads     reads to generate (default 100000; about 1 Gbp, 2.1 GB of FASTQ)
#   --threads   thread counts (default "1 2")
#   --only      the runs to time (default "ends whole sassy"; whole and sassy take minutes)
#   --dir       work folder (default /tmp/trawl-bench-demux-long); others as bench_demux.sh
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

root=$(cd "$(dirname "$0")/.." && pwd)
trawl=$root/build/release/trawl
sassy=""
reps=3
reads=100000
threads="1 2"
only="ends whole sassy"
csv=""
dir=/tmp/trawl-bench-demux-long
seed=32
while [[ $# -gt 0 ]]; do
  case $1 in
    --trawl) trawl=$2; shift 2 ;;
    --sassy) sassy=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --reads) reads=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_demux_long: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for v in "$reps" "$reads" $threads; do
  [[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench_demux_long: '$v' is not a positive integer" >&2; exit 2; }
done
for w in $only; do
  [[ $w =~ ^(ends|whole|sassy)$ ]] || { echo "bench_demux_long: --only: unknown run '$w' (ends, whole, sassy)" >&2; exit 2; }
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "bench_demux_long: --seed must be a non-negative integer" >&2; exit 2; }
[[ -x $trawl ]] || { echo "bench_demux_long: $trawl not found (build first)" >&2; exit 1; }
trawl=$(realpath "$trawl")
RUN_TIMED=${RUN_TIMED:-$(dirname "$trawl")/run_timed}
[[ -x $RUN_TIMED ]] || RUN_TIMED=$root/build/release/run_timed
[[ -x $RUN_TIMED ]] || { echo "bench_demux_long: run_timed not found (bash scripts/setup.sh builds it)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "bench_demux_long: python3 not found" >&2; exit 1; }
if [[ -z $sassy ]]; then
  sassy=$root/../shared/tools/sassy/sassy
  [[ -x $sassy ]] || sassy=$(command -v sassy || true)
fi

mkdir -p "$dir"
dir=$(realpath "$dir")
csv=${csv:-$dir/bench_demux_long-$reads.csv}
WORK=$(mktemp -d "$dir/.run.XXXXXX")
t_start=$SECONDS
trap 'rm -rf "$WORK"' EXIT
have_sassy=0
printf '>a\nACGTACGTACGT\n' > "$WORK/probe.fa"
if [[ -n $sassy && -x $sassy ]] && "$sassy" search -p ACGTACGT -k 0 "$WORK/probe.fa" > /dev/null 2>&1; then have_sassy=1
else echo "bench_demux_long: sassy not found or not runnable here: its rows are skipped" >&2; fi

# ---------------------------------------------------------------- data
BC=$dir/barcodes-96-$seed.fa
FQ=$dir/long-$reads-$seed.fq
TRUTH=$dir/long-truth-$reads-$seed.tsv
if ! [[ -s $BC && -s $FQ && -s $TRUTH ]]; then
  echo "bench_demux_long: generating $FQ" >&2
  PYTHONPATH=$root/scripts python3 - "$reads" "$seed" "$BC.tmp.$$" "$FQ.tmp.$$" "$TRUTH.tmp.$$" <<'EOF'
import random, sys
from barcodes import random_barcodes
n, seed = int(sys.argv[1]), int(sys.argv[2])
bc_path, fq_path, truth_path = sys.argv[3], sys.argv[4], sys.argv[5]
rng = random.Random(seed * 7919 + 96)
L, MIN_DIST, B, END, ERR = 24, 6, 96, 150, 0.06

barcodes = random_barcodes(rng, B, L, MIN_DIST)
with open(bc_path, "w") as f:
    for i, s in enumerate(barcodes):
        f.write(f">bc{i + 1}\n{s}\n")

comp = str.maketrans("ACGT", "TGCA")


def rc(s):
    return s.translate(comp)[::-1]


def mutate(p):
    out = []
    for c in p:
        if rng.random() >= ERR:
            out.append(c)
            continue
        kind = rng.choice("sid")
        if kind == "s":
            out.append(rng.choice([x for x in "ACGT" if x != c]))
        elif kind == "i":
            out.append(c + rng.choice("ACGT"))
    return "".join(out)


dna = bytes.maketrans(bytes(range(256)), bytes(b"ACGT"[i % 4] for i in range(256)))
with open(fq_path, "w") as out, open(truth_path, "w") as tr:
    for c0 in range(0, n, 1000):
        buf, tbuf = [], []
        for i in range(c0, min(n, c0 + 1000)):
            s = rng.randbytes(rng.randint(1000, 20000)).translate(dna).decode()
            if rng.random() < 0.05:
                tbuf.append(f"r{i}\tnone\n")
            else:
                k = rng.randrange(B)
                head, tail = mutate(barcodes[k]), mutate(rc(barcodes[k]))
                a = rng.randrange(0, END - len(head) + 1)
                b = len(s) - rng.randrange(len(tail), END + 1)
                s = s[:a] + head + s[a + len(head):b] + tail + s[b + len(tail):]
                tbuf.append(f"r{i}\tbc{k + 1}\n")
            if rng.random() < 0.5:
                s = rc(s)
            buf.append(f"@r{i}\n{s}\n+\n{'5' * len(s)}\n")
        out.write("".join(buf))
        tr.write("".join(tbuf))
EOF
  mv "$BC.tmp.$$" "$BC"; mv "$TRUTH.tmp.$$" "$TRUTH"; mv "$FQ.tmp.$$" "$FQ"
fi
bases=$(awk 'NR % 4 == 2 { n += length($0) } END { print n }' "$FQ")

# ---------------------------------------------------------------- tools
ids=()
for t in $threads; do
  for w in $only; do
    [[ $w == sassy ]] && ! ((have_sassy)) && continue
    ids+=("$w.t$t")
  done
done
declare -A LABEL=([ends]="trawl demux, both ends" [whole]="trawl demux, whole reads" [sassy]="sassy --v2, whole reads")

# spec ID: sets CMD, OUT (its output file), T, TOOL.
spec() {
  T=${1##*.t}
  TOOL=${1%.t*}
  OUT=$WORK/out.$1.tsv
  case $TOOL in
    ends) CMD=("$trawl" demux -f "$BC" -k 4 --region 1:150,-150:-1 -t "$T" --assignments "$OUT" "$FQ") ;;
    whole) CMD=("$trawl" demux -f "$BC" -k 4 -t "$T" --assignments "$OUT" "$FQ") ;;
    sassy) CMD=("$sassy" search --v2 -f "$BC" -k 4 -j "$T" "$FQ") ;;
  esac
}
# assignments: each read's barcode (unassigned, ambiguous) by the last run, sorted by name.
assignments() {
  if [[ $TOOL == sassy ]]; then
    awk -F'\t' 'NR > 1 { if (!($2 in best) || $3 < best[$2]) { best[$2] = $3; id[$2] = $1 }
                         else if ($3 == best[$2] && $1 != id[$2]) id[$2] = "ambiguous" }
                END { for (r in id) print r "\t" id[r] }' "$OUT"
  else
    awk -F'\t' 'NR > 1 { print $1 "\t" $2 }' "$OUT"
  fi | sort -k1,1
}

echo "CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1) ($(nproc) online); $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg); reps $reps"
echo "trawl: $trawl ($("$trawl" --version))"
((have_sassy)) && echo "sassy: $sassy ($("$sassy" --version 2>/dev/null || echo 0.2.6))"
echo "input: $FQ ($reads reads, $bases bases)"
cat "$FQ" > /dev/null  # in the page cache for every tool alike

echo "id,tool,threads,rep,wall_s,user_s,sys_s,maxrss_kb" > "$csv"
bad=0
declare -A RUNS SUM WALL
for ((r = 1; r <= reps; r++)); do
  for id in "${ids[@]}"; do
    spec "$id"
    out=/dev/null
    [[ $TOOL == sassy ]] && out=$OUT
    "$RUN_TIMED" "$WORK/t" "$out" "${CMD[@]}" ||
      { echo "bench_demux_long: $id failed:" >&2; tail -5 "$WORK/t.stderr" >&2; exit 1; }
    read -r w u s k _ < "$WORK/t"
    assignments > "$WORK/assign.$id"
    sum=$(md5sum < "$WORK/assign.$id")
    if [[ -z ${SUM[$id]:-} ]]; then SUM[$id]=$sum; cp "$WORK/assign.$id" "$WORK/assign1.$id"
    elif [[ ${SUM[$id]} != "$sum" ]]; then echo "bench_demux_long: BAD: $id assigned otherwise in round $r" >&2; bad=1; fi
    RUNS[$id]+="$w $u $s $k"$'\n'
    echo "$id,$TOOL,$T,$r,$w,$u,$s,$k" >> "$csv"
  done
  echo "bench_demux_long: round $r of $reps done ($((SECONDS - t_start)) s)" >&2
done
sort -k1,1 "$TRUTH" > "$WORK/truth"

# ---------------------------------------------------------------- tables
median() { sort -g | sed -n "$(( (reps + 1) / 2 ))p"; }
fmt='%-26s %7s %8s %8s %7s %9s %12s %8s\n'
echo
printf "$fmt" tool threads wall user sys reads/s Mbp/s/thread rss_MiB
declare -A MBPT
for id in "${ids[@]}"; do
  spec "$id"
  WALL[$id]=$(awk 'NF { print $1 }' <<< "${RUNS[$id]}" | median)
  user=$(awk 'NF { print $2 }' <<< "${RUNS[$id]}" | median)
  sys=$(awk 'NF { print $3 }' <<< "${RUNS[$id]}" | median)
  rss=$(awk 'NF { if ($4 > m) m = $4 } END { printf "%.1f", m / 1024 }' <<< "${RUNS[$id]}")
  rps=$(awk -v n="$reads" -v w="${WALL[$id]}" 'BEGIN { printf "%.0f", n / w }')
  MBPT[$id]=$(awk -v b="$bases" -v w="${WALL[$id]}" -v t="$T" 'BEGIN { printf "%.0f", b / w / t / 1e6 }')
  printf "$fmt" "${LABEL[$TOOL]}" "$T" "${WALL[$id]}" "$user" "$sys" "$rps" "${MBPT[$id]}" "$rss"
done
echo "(medians of $reps; wall, user, sys in seconds; Mbp/s/thread = bases of reads / wall / threads;"
echo " rss = largest max RSS; raw runs: $csv)"

echo
echo "agreement with the planted truth (round 1, reads; with = reads that carry a barcode):"
afmt='  %-26s %7s %9s %9s %9s %9s %9s %8s\n'
printf "$afmt" tool threads same different unassigned ambiguous none_ok agree%
declare -A AGREE
for id in "${ids[@]}"; do
  spec "$id"
  line=$(join -t $'\t' -a 2 -e unassigned -o 2.1,1.2,2.2 "$WORK/assign1.$id" "$WORK/truth" | awk -F'\t' '
    $3 == "none" { if ($2 == "unassigned") ok++; next }
    { with++ }
    $2 == $3 { same++; next }
    $2 == "unassigned" { un++; next }
    $2 == "ambiguous" { amb++; next }
    { diff++ }
    END { printf "%d %d %d %d %d %.2f", same, diff, un, amb, ok, 100 * same / with }')
  read -r same diff un amb ok pct <<< "$line"
  AGREE[$id]=$pct
  printf "$afmt" "${LABEL[$TOOL]}" "$T" "$same" "$diff" "$un" "$amb" "$ok" "$pct"
done
echo "  (none_ok: reads without a barcode left unassigned; agree% = same / reads with a barcode)"

echo
echo "goals (wall medians):"
target() {  # target TEXT VALUE GOAL (VALUE empty: not run)
  [[ -n $2 ]] || { printf '  %-62s %10s\n' "$1" "not run"; return; }
  local met=$(awk -v v="$2" -v g="$3" 'BEGIN { print (v >= g ? "met" : "NOT met") }')
  printf '  %-62s %10s  %s\n' "$1" "$2" "$met"
}
for t in $threads; do
  target "whole reads, $t thread(s): Mbp of reads/s per thread >= 150" "${MBPT[whole.t$t]:-}" 150
  target "both ends, $t thread(s): Mbp of reads/s per thread >= 1000" "${MBPT[ends.t$t]:-}" 1000
  target "both ends, $t thread(s): agreement with the truth % >= 99" "${AGREE[ends.t$t]:-}" 99
  target "whole reads, $t thread(s): agreement with the truth % >= 99" "${AGREE[whole.t$t]:-}" 99
  [[ -n ${MBPT[sassy.t$t]:-} ]] && printf '  %-62s %10s\n' "(sassy --v2 whole reads, $t thread(s): Mbp/s per thread)" "${MBPT[sassy.t$t]}"
done
echo "  (this machine: $(nproc) CPUs; load at the end $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "bench_demux_long: $((SECONDS - t_start)) s in all (data generation included when it ran)"
((bad == 0)) || { echo "bench_demux_long: BAD above" >&2; exit 1; }
