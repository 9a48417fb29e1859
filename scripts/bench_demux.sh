#!/usr/bin/env bash
# bench_demux.sh: `trawl demux` against cutadapt's demultiplexing (issue #32, item 3): whole
# processes sorting FASTQ reads into a gzip file per barcode.
#
# Data (made once with python3, seed --seed, in the work folder; reused when present):
#   barcodes-B-SEED.fa     B random 24 bp barcodes bc1..bcB, pairwise edit distance >= 6
#   reads-N-B-SEED.fq      N x 150 bp random reads, random qualities, names rI; 94% start with
#                          a barcode (forward, 0-2 random edits: subst/ins/del), 5% have none,
#                          1% have a second, different barcode (exact) at a random place
#                          after base 48
#   truth-N-B-SEED.tsv     read name, the barcode at its start ("none" for the 5%)
# for B in --barcodes (default "96 384").
#
# Runs per panel (ids: TOOL.tT):
#   trawl.t1 / trawl.t2      trawl demux -f BC -k 2 --region 1:40 --no-rc -t T --out-dir D
#                            --assignments D/assignments.tsv IN      (forward strand, as cutadapt)
#   trawl-rc.t1              the same on both strands (trawl's default)
#   cutadapt.t1 / .t2        cutadapt -g ^file:BC -e 2 -j T -o 'D/{name}.fastq.gz' IN
#                            (anchored 5' adapters: its own index at k = 2; trims the barcode)
# cutadapt is skipped when not installed (apt-get install -y cutadapt).
#
# Timing: run_timed (wall, user, sys seconds, max RSS) per whole process; --reps rounds, each
# running every id once, interleaved, medians printed with reads/s. Guard: every run of an id
# writes the same number of reads per file (else BAD, exit 1), and the reads in trawl's files
# add up to N. Round 1's outputs give each tool's assignment of every read (trawl: its
# --assignments; cutadapt: the file each read name is in; unknown = unassigned), compared
# with the planted truth and with each other: same barcode / different barcode / one side
# unassigned (or none planted) / trawl ambiguous.
# Goals, printed as met or NOT met: cutadapt / trawl wall >= 10 (same threads, per panel);
# trawl's reads agreeing with the truth >= cutadapt's; trawl 1T / 2T wall >= 1.8.
#
# Usage: scripts/bench_demux.sh [--trawl PATH] [--reps N] [--reads N] [--barcodes "96 384"]
#                               [--csv FILE] [--dir DIR] [--seed S]
#   --trawl     the trawl binary (default build/release/trawl)
#   --reps      timed rounds (default 3)
#   --reads     reads to generate (default 1000000)
#   --barcodes  panel sizes (default "96 384")
#   --csv       raw runs as CSV (default: bench_demux-N.csv in the work folder)
#   --dir       work folder for data and outputs (default /tmp/trawl-bench-demux)
#   --seed      data seed (default 32)
# Needs run_timed beside the trawl binary or in build/release (or RUN_TIMED=PATH), python3.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

root=$(cd "$(dirname "$0")/.." && pwd)
trawl=$root/build/release/trawl
reps=3
reads=1000000
panels="96 384"
csv=""
dir=/tmp/trawl-bench-demux
seed=32
while [[ $# -gt 0 ]]; do
  case $1 in
    --trawl) trawl=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --reads) reads=$2; shift 2 ;;
    --barcodes) panels=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_demux: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_demux: --reps must be a positive integer" >&2; exit 2; }
[[ $reads =~ ^[1-9][0-9]*$ ]] || { echo "bench_demux: --reads must be a positive integer" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ ]] || { echo "bench_demux: --seed must be a non-negative integer" >&2; exit 2; }
for b in $panels; do [[ $b =~ ^[1-9][0-9]*$ ]] || { echo "bench_demux: --barcodes: '$b' is not a count" >&2; exit 2; }; done
[[ -x $trawl ]] || { echo "bench_demux: $trawl not found (build first)" >&2; exit 1; }
trawl=$(realpath "$trawl")
RUN_TIMED=${RUN_TIMED:-$(dirname "$trawl")/run_timed}
[[ -x $RUN_TIMED ]] || RUN_TIMED=$root/build/release/run_timed
[[ -x $RUN_TIMED ]] || { echo "bench_demux: run_timed not found (bash scripts/setup.sh builds it)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "bench_demux: python3 not found" >&2; exit 1; }

mkdir -p "$dir"
dir=$(realpath "$dir")
csv=${csv:-$dir/bench_demux-$reads.csv}
WORK=$(mktemp -d "$dir/.run.XXXXXX")
t_start=$SECONDS
trap 'rm -rf "$WORK"' EXIT

# ---------------------------------------------------------------- data
make_data() {  # make_data B: barcodes, reads and truth for a panel of B
  local b=$1
  BC=$dir/barcodes-$b-$seed.fa
  FQ=$dir/reads-$reads-$b-$seed.fq
  TRUTH=$dir/truth-$reads-$b-$seed.tsv
  [[ -s $BC && -s $FQ && -s $TRUTH ]] && return 0
  echo "bench_demux: generating $FQ" >&2
  PYTHONPATH=$root/scripts python3 - "$reads" "$b" "$seed" "$BC.tmp.$$" "$FQ.tmp.$$" "$TRUTH.tmp.$$" <<'EOF'
import random, sys
from barcodes import random_barcodes
n, b, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
bc_path, fq_path, truth_path = sys.argv[4], sys.argv[5], sys.argv[6]
rng = random.Random(seed * 1000 + b)
L, MIN_DIST, LEN = 24, 6, 150

barcodes = random_barcodes(rng, b, L, MIN_DIST)
with open(bc_path, "w") as f:
    for i, s in enumerate(barcodes):
        f.write(f">bc{i + 1}\n{s}\n")


def mutate(p):
    p = list(p)
    for _ in range(rng.randint(0, 2)):
        kind, i = rng.choice("sid"), rng.randrange(len(p))
        if kind == "s":
            p[i] = rng.choice([x for x in "ACGT" if x != p[i]])
        elif kind == "i":
            p.insert(i, rng.choice("ACGT"))
        else:
            del p[i]
    return "".join(p)


dna = bytes.maketrans(bytes(range(256)), bytes(b"ACGT"[i % 4] for i in range(256)))
qual = bytes.maketrans(bytes(range(256)), bytes(33 + i % 41 for i in range(256)))
with open(fq_path, "w") as out, open(truth_path, "w") as tr:
    chunk = 10000
    for c0 in range(0, n, chunk):
        m = min(chunk, n - c0)
        seqs = rng.randbytes(m * LEN).translate(dna).decode()
        quals = rng.randbytes(m * LEN).translate(qual).decode()
        buf, tbuf = [], []
        for j in range(m):
            i = c0 + j
            s = seqs[j * LEN:(j + 1) * LEN]
            u = rng.random()
            if u < 0.05:
                tbuf.append(f"r{i}\tnone\n")
            else:
                k = rng.randrange(b)
                s = (mutate(barcodes[k]) + s)[:LEN]
                if u < 0.06:
                    k2 = rng.choice([x for x in range(b) if x != k])
                    pos = rng.randrange(48, LEN - L + 1)
                    s = s[:pos] + barcodes[k2] + s[pos + L:]
                tbuf.append(f"r{i}\tbc{k + 1}\n")
            buf.append(f"@r{i}\n{s}\n+\n{quals[j * LEN:j * LEN + len(s)]}\n")
        out.write("".join(buf))
        tr.write("".join(tbuf))
EOF
  mv "$BC.tmp.$$" "$BC"; mv "$TRUTH.tmp.$$" "$TRUTH"; mv "$FQ.tmp.$$" "$FQ"
}

# ---------------------------------------------------------------- tools
ids=(trawl.t1 trawl.t2 trawl-rc.t1)
have_cutadapt=0
if command -v cutadapt > /dev/null; then have_cutadapt=1; ids+=(cutadapt.t1 cutadapt.t2)
else echo "bench_demux: cutadapt not found, skipped (apt-get install -y cutadapt)" >&2; fi
declare -A LABEL=([trawl]="trawl demux --no-rc" [trawl-rc]="trawl demux" [cutadapt]=cutadapt)

# spec ID: sets CMD, OUT (its output folder), THREADS, TOOL for the current panel.
spec() {
  THREADS=${1##*.t}
  TOOL=${1%.t*}
  OUT=$WORK/out.$1
  case $TOOL in
    trawl) CMD=("$trawl" demux -f "$BC" -k 2 --region 1:40 --no-rc -t "$THREADS" --out-dir "$OUT"
                --assignments "$OUT/assignments.tsv" "$FQ") ;;
    trawl-rc) CMD=("$trawl" demux -f "$BC" -k 2 --region 1:40 -t "$THREADS" --out-dir "$OUT"
                   --assignments "$OUT/assignments.tsv" "$FQ") ;;
    cutadapt) CMD=(cutadapt -g "^file:$BC" -e 2 -j "$THREADS" -o "$OUT/{name}.fastq.gz" "$FQ") ;;
  esac
}
# counts: reads per output file of the last run, one "file count" line each, sorted.
counts() {
  local f
  for f in "$OUT"/*.fastq.gz; do echo "$(basename "$f") $(gzip -dc "$f" | awk 'END { print NR / 4 }')"; done | sort
}
# assignments ID: each read's barcode (unassigned, ambiguous) by the last run, sorted by name.
assignments() {
  local f
  if [[ $TOOL == cutadapt ]]; then
    for f in "$OUT"/*.fastq.gz; do
      local id=$(basename "$f" .fastq.gz)
      [[ $id == unknown ]] && id=unassigned
      gzip -dc "$f" | awk -v id="$id" 'NR % 4 == 1 { print substr($1, 2) "\t" id }'
    done
  else
    awk 'NR > 1 { print $1 "\t" $2 }' "$OUT/assignments.tsv"
  fi | sort -k1,1
}

echo "CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1) ($(nproc) online); $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg); reps $reps"
echo "trawl: $trawl ($("$trawl" --version))"
((have_cutadapt)) && echo "cutadapt: $(command -v cutadapt) ($(cutadapt --version))"

echo "panel,id,tool,threads,rep,wall_s,user_s,sys_s,maxrss_kb" > "$csv"
bad=0
declare -A RUNS COUNTS WALL
for b in $panels; do
  make_data "$b"
  echo "panel $b: $BC, $FQ ($reads reads)"
  cat "$FQ" > /dev/null  # in the page cache for every tool alike
  for ((r = 1; r <= reps; r++)); do
    for id in "${ids[@]}"; do
      spec "$id"
      rm -rf "$OUT"; mkdir -p "$OUT"
      "$RUN_TIMED" "$WORK/t" /dev/null "${CMD[@]}" ||
        { echo "bench_demux: $id failed:" >&2; tail -5 "$WORK/t.stderr" >&2; exit 1; }
      read -r w u s k _ < "$WORK/t"
      c=$(counts)
      if [[ -z ${COUNTS[$b.$id]:-} ]]; then COUNTS[$b.$id]=$c
      elif [[ ${COUNTS[$b.$id]} != "$c" ]]; then
        echo "bench_demux: BAD: $id on panel $b wrote other counts in round $r" >&2; bad=1
      fi
      if [[ $TOOL != cutadapt ]]; then
        total=$(awk '{ n += $2 } END { print n }' <<< "$c")
        [[ $total == "$reads" ]] || { echo "bench_demux: BAD: $id wrote $total reads, not $reads" >&2; bad=1; }
      fi
      ((r == 1)) && assignments > "$WORK/assign.$b.${id%.t*}"
      RUNS[$b.$id]+="$w $u $s $k"$'\n'
      echo "$b,$id,$TOOL,$THREADS,$r,$w,$u,$s,$k" >> "$csv"
      rm -rf "$OUT"
    done
    echo "bench_demux: panel $b round $r of $reps done ($((SECONDS - t_start)) s)" >&2
  done
  sort -k1,1 "$TRUTH" > "$WORK/assign.$b.truth"
done

# ---------------------------------------------------------------- tables
median() { sort -g | sed -n "$(( (reps + 1) / 2 ))p"; }
fmt='%-6s %-20s %7s %8s %8s %7s %10s %8s\n'
echo
printf "$fmt" panel tool threads wall user sys reads/s rss_MiB
for b in $panels; do
  for id in "${ids[@]}"; do
    spec "$id"
    WALL[$b.$id]=$(awk 'NF { print $1 }' <<< "${RUNS[$b.$id]}" | median)
    user=$(awk 'NF { print $2 }' <<< "${RUNS[$b.$id]}" | median)
    sys=$(awk 'NF { print $3 }' <<< "${RUNS[$b.$id]}" | median)
    rss=$(awk 'NF { if ($4 > m) m = $4 } END { printf "%.1f", m / 1024 }' <<< "${RUNS[$b.$id]}")
    rps=$(awk -v n="$reads" -v w="${WALL[$b.$id]}" 'BEGIN { printf "%.0f", n / w }')
    printf "$fmt" "$b" "${LABEL[$TOOL]}" "$THREADS" "${WALL[$b.$id]}" "$user" "$sys" "$rps" "$rss"
  done
done
echo "(medians of $reps; wall, user, sys in seconds; rss = largest max RSS; raw runs: $csv)"

echo
echo "agreement (round 1, reads): A vs B"
afmt='  %-6s %-10s %-10s %9s %9s %9s %9s %9s %9s\n'
printf "$afmt" panel A B same different A_unass B_unass both_unas A_ambig
agree() {  # agree PANEL A B
  local a=$WORK/assign.$1.$2 c=$WORK/assign.$1.$3
  [[ -f $a && -f $c ]] || return 0
  join -t $'\t' "$a" "$c" | awk -F'\t' -v p="$1" -v A="$2" -v B="$3" '
    { x = $2; y = $3; if (x == "none") x = "unassigned"; if (y == "none") y = "unassigned" }
    x == "ambiguous" { amb++; next }
    x == y && x != "unassigned" { same++; next }
    x == "unassigned" && y == "unassigned" { both++; next }
    x == "unassigned" { a_un++; next }
    y == "unassigned" { b_un++; next }
    { diff++ }
    END { printf "  %-6s %-10s %-10s %9d %9d %9d %9d %9d %9d\n", p, A, B, same, diff, a_un, b_un, both, amb }'
}
declare -A SAME
for b in $panels; do
  agree "$b" trawl truth
  agree "$b" trawl-rc truth
  agree "$b" cutadapt truth
  agree "$b" trawl cutadapt
  for t in trawl cutadapt; do
    [[ -f $WORK/assign.$b.$t ]] && SAME[$b.$t]=$(join -t $'\t' "$WORK/assign.$b.$t" "$WORK/assign.$b.truth" |
      awk -F'\t' '$2 == $3 || ($2 == "unassigned" && $3 == "none") { n++ } END { print n + 0 }')
  done
done
echo "  (same: both name the same barcode; A_unass / B_unass: only A / only B unassigned (the truth's"
echo "   'none' counts as unassigned); both_unas: both; A_ambig: A says ambiguous. Agreeing with the"
echo "   truth, in the goals: same + both_unas)"

echo
echo "goals (wall medians):"
target() {  # target TEXT VALUE OP GOAL
  local met=$(awk -v v="$2" -v g="$4" -v op="$3" 'BEGIN { print ((op == ">=" ? v >= g : v <= g) ? "met" : "NOT met") }')
  printf '  %-58s %10s  %s\n' "$1" "$2" "$met"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for b in $panels; do
  if ((have_cutadapt)); then
    target "$b barcodes: cutadapt 1T / trawl 1T >= 10" "$(ratio "${WALL[$b.cutadapt.t1]}" "${WALL[$b.trawl.t1]}")" ">=" 10
    target "$b barcodes: cutadapt 2T / trawl 2T >= 10" "$(ratio "${WALL[$b.cutadapt.t2]}" "${WALL[$b.trawl.t2]}")" ">=" 10
    target "$b barcodes: trawl - cutadapt reads agreeing with the truth >= 0" \
      "$((SAME[$b.trawl] - SAME[$b.cutadapt]))" ">=" 0
  fi
  target "$b barcodes: trawl 1T / 2T >= 1.8" "$(ratio "${WALL[$b.trawl.t1]}" "${WALL[$b.trawl.t2]}")" ">=" 1.8
done
echo "  (this machine: $(nproc) CPUs; load at the end $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "bench_demux: $((SECONDS - t_start)) s in all (data generation included when it ran)"
((bad == 0)) || { echo "bench_demux: BAD above" >&2; exit 1; }
