#!/usr/bin/env bash
# bench_filter.sh: `trawl filter` against cutadapt, seqkit grep and sassy filter (issue #31,
# item 5): whole processes keeping the FASTQ reads that hold a primer, output gzip-compressed.
#
# Data (made once with python3, seed --seed, in the work folder; reused when present):
#   reads-N-150-SEED.fq      N x 150 bp random reads, random qualities ('!'..'I'), names rI
#   reads-N-150-SEED.fq.gz   the same, gzip -6 (plain gzip, not BGZF)
#   primer-SEED.fa           one random 23 bp primer P (fixed by the seed)
#   planted-N-SEED.txt       the names of the N/10 reads (a random tenth) holding P, forward
#                            strand, at a random position, with 0-2 random edits (subst/ins/del)
#
# Runs, each on the plain and on the gzip input (file names: ID.plain, ID.gz):
#   trawl.t1 / trawl.t2  trawl filter -p P -k 2 -t 1|2 -o OUT.fq.gz IN        (both strands)
#   trawl-norc.t1        trawl filter -p P -k 2 --no-rc -t 1 -o OUT.fq.gz IN   (forward only)
#   contains.t1          trawl contains -p P -k 2 -t 1 -o /dev/null IN
#   cutadapt.t1          cutadapt -g P -e 2 --action=none --discard-untrimmed -j 1 -o OUT.fq.gz IN
#                        (forward only; -e 2 = at most 2 errors in a full-length match, fewer in
#                        the partial matches at the read's 5' end that a -g adapter also takes)
#   seqkit.t1            seqkit grep -s -i -m 2 -p P -j 1 -o OUT.fq.gz IN
#                        (both strands, mismatches only)
#   sassy.t1             sassy filter -p P -k 2 -j 1 IN > OUT.fq   (both strands; sassy 0.2.6
#                        cannot compress: plain FASTQ on stdout into a file)
# A tool that is not installed is skipped (apt-get install -y cutadapt seqkit; sassy from
# ../shared/tools/sassy/sassy or PATH, never shipped).
#
# Timing: run_timed (wall, user, sys seconds, max RSS) per whole process; --reps rounds, each
# running every (tool, input) once, interleaved, so a drifting machine slows every tool alike;
# medians printed. Guard: the kept reads of every timed run (records in its output file; for
# contains, "N with hits" from its log) must be the same in every run of a tool, plain or gz
# (else BAD, exit 1). Round 1's plain outputs give the sets of kept read names compared at the
# end (sizes and symmetric differences, also against the planted reads). One more run of
# trawl filter -v per input prints trawl's own reading/searching/writing seconds.
# Goals, printed as met or NOT met (trawl filter 1T, per input): cutadapt / trawl wall >= 15,
# seqkit / trawl wall >= 5, trawl filter / contains wall <= 1.3, 1T / 2T wall >= 1.8.
#
# Usage: scripts/bench_filter.sh [--trawl PATH] [--reps N] [--reads N] [--csv FILE]
#                                [--dir DIR] [--seed S] [--sassy PATH]
#   --trawl  the trawl binary (default build/release/trawl)
#   --reps   timed rounds (default 5)
#   --reads  reads to generate (default 1000000)
#   --csv    raw runs as CSV (default: bench_filter-N.csv in the work folder)
#   --dir    work folder for data and outputs (default /tmp/trawl-bench-filter)
#   --seed   data seed (default 31)
#   --sassy  sassy binary (default ../shared/tools/sassy/sassy, else sassy on PATH)
#   --only   run only these ids, comma separated (e.g. trawl.t1,contains.t1,cutadapt.t1)
#   --pin    run every timed command under `taskset -c CPUS` (e.g. 1: one-thread timings on a
#            CPU that other work is kept off)
# Needs run_timed beside the trawl binary or in build/release (or RUN_TIMED=PATH), python3,
# gzip.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

root=$(cd "$(dirname "$0")/.." && pwd)
trawl=$root/build/release/trawl
reps=5
reads=1000000
csv=""
dir=/tmp/trawl-bench-filter
seed=31
sassy=""
only=""
pin=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --trawl) trawl=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --reads) reads=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --sassy) sassy=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --pin) pin=(taskset -c "$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_filter: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_filter: --reps must be a positive integer" >&2; exit 2; }
[[ $reads =~ ^[1-9][0-9]*$ ]] || { echo "bench_filter: --reads must be a positive integer" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ ]] || { echo "bench_filter: --seed must be a non-negative integer" >&2; exit 2; }
[[ -x $trawl ]] || { echo "bench_filter: $trawl not found (build first)" >&2; exit 1; }
trawl=$(realpath "$trawl")
RUN_TIMED=${RUN_TIMED:-$(dirname "$trawl")/run_timed}
[[ -x $RUN_TIMED ]] || RUN_TIMED=$root/build/release/run_timed
[[ -x $RUN_TIMED ]] || { echo "bench_filter: run_timed not found (bash scripts/setup.sh builds it)" >&2; exit 1; }
command -v python3 > /dev/null || { echo "bench_filter: python3 not found" >&2; exit 1; }
if [[ -z $sassy ]]; then
  sassy=$root/../shared/tools/sassy/sassy
  [[ -x $sassy ]] || sassy=$(command -v sassy || true)
fi

mkdir -p "$dir"
dir=$(realpath "$dir")
csv=${csv:-$dir/bench_filter-$reads.csv}
WORK=$(mktemp -d "$dir/.run.XXXXXX")
t_start=$SECONDS
trap 'rm -rf "$WORK"' EXIT

# ---------------------------------------------------------------- data
FQ=$dir/reads-$reads-150-$seed.fq
GZ=$FQ.gz
PFA=$dir/primer-$seed.fa
TRUTH=$dir/planted-$reads-$seed.txt
if [[ ! -s $FQ || ! -s $PFA || ! -s $TRUTH ]]; then
  echo "bench_filter: generating $FQ" >&2
  python3 - "$reads" 150 "$seed" "$FQ.tmp.$$" "$PFA.tmp.$$" "$TRUTH.tmp.$$" <<'EOF'
import random, sys
n, length, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
fq, fa, truth = sys.argv[4], sys.argv[5], sys.argv[6]
rng = random.Random(seed)
primer = "".join(rng.choice("ACGT") for _ in range(23))  # first: the same for every n
dna = bytes.maketrans(bytes(range(256)), bytes(b"ACGT"[i % 4] for i in range(256)))
qual = bytes.maketrans(bytes(range(256)), bytes(33 + i % 41 for i in range(256)))
planted = set(rng.sample(range(n), n // 10))


def mutate(p):
    p = list(p)
    for _ in range(rng.randint(0, 2)):
        kind, i = rng.choice("sid"), rng.randrange(len(p))
        if kind == "s":
            p[i] = rng.choice([b for b in "ACGT" if b != p[i]])
        elif kind == "i":
            p.insert(i, rng.choice("ACGT"))
        else:
            del p[i]
    return "".join(p)


with open(fq, "w") as out, open(truth, "w") as tr:
    chunk = 10000
    for c0 in range(0, n, chunk):
        m = min(chunk, n - c0)
        seqs = rng.randbytes(m * length).translate(dna).decode()
        quals = rng.randbytes(m * length).translate(qual).decode()
        buf = []
        for j in range(m):
            i = c0 + j
            s = seqs[j * length:(j + 1) * length]
            if i in planted:
                mp = mutate(primer)
                pos = rng.randrange(length - len(mp) + 1)
                s = s[:pos] + mp + s[pos + len(mp):]
                tr.write(f"r{i}\n")
            buf.append(f"@r{i}\n{s}\n+\n{quals[j * length:(j + 1) * length]}\n")
        out.write("".join(buf))
with open(fa, "w") as f:
    f.write(f">primer\n{primer}\n")
EOF
  sort "$TRUTH.tmp.$$" > "$TRUTH.sorted.$$" && rm "$TRUTH.tmp.$$"
  mv "$PFA.tmp.$$" "$PFA"; mv "$TRUTH.sorted.$$" "$TRUTH"; mv "$FQ.tmp.$$" "$FQ"
  rm -f "$GZ"
fi
if [[ ! -s $GZ ]]; then
  echo "bench_filter: generating $GZ" >&2
  gzip -6 -c "$FQ" > "$GZ.tmp.$$"
  mv "$GZ.tmp.$$" "$GZ"
fi
P=$(sed -n 2p "$PFA")
[[ $P =~ ^[ACGT]{23}$ ]] || { echo "bench_filter: bad primer in $PFA" >&2; exit 1; }

# ---------------------------------------------------------------- tools
ids=(trawl.t1 trawl.t2 trawl-norc.t1 contains.t1)
have_cutadapt=0; have_seqkit=0; have_sassy=0
if command -v cutadapt > /dev/null; then have_cutadapt=1; ids+=(cutadapt.t1)
else echo "bench_filter: cutadapt not found, skipped (apt-get install -y cutadapt)" >&2; fi
if command -v seqkit > /dev/null; then have_seqkit=1; ids+=(seqkit.t1)
else echo "bench_filter: seqkit not found, skipped (apt-get install -y seqkit)" >&2; fi
if [[ -n $sassy && -x $sassy ]] && "$sassy" filter -p "$P" -k 0 -j 1 "$PFA" > /dev/null 2>&1; then
  have_sassy=1; ids+=(sassy.t1)
else echo "bench_filter: sassy not found or not runnable here, skipped" >&2; fi
if [[ -n $only ]]; then
  chosen=()
  for id in "${ids[@]}"; do [[ ,$only, == *,$id,* ]] && chosen+=("$id"); done
  ids=("${chosen[@]}")
  ((${#ids[@]})) || { echo "bench_filter: --only $only names no id of: trawl.t1 trawl.t2 trawl-norc.t1 contains.t1 cutadapt.t1 seqkit.t1 sassy.t1" >&2; exit 2; }
fi
inputs=(plain gz)

declare -A LABEL=([trawl]="trawl filter" [trawl-norc]="trawl filter --no-rc" [contains]="trawl contains"
  [cutadapt]=cutadapt [seqkit]="seqkit grep" [sassy]="sassy filter")
# spec ID INPUT: sets CMD (the command), OUT (its output file, "" = none), STDOUT (where its
# stdout goes), THREADS, TOOL.
spec() {
  local in=$FQ
  [[ $2 == gz ]] && in=$GZ
  THREADS=${1##*.t}
  TOOL=${1%.t*}
  OUT=$WORK/out.$1.$2.fq.gz
  STDOUT=/dev/null
  case $TOOL in
    trawl) CMD=("$trawl" filter -p "$P" -k 2 -t "$THREADS" -o "$OUT" "$in") ;;
    trawl-norc) CMD=("$trawl" filter -p "$P" -k 2 --no-rc -t "$THREADS" -o "$OUT" "$in") ;;
    contains) OUT=""; CMD=("$trawl" contains -p "$P" -k 2 -t "$THREADS" -o /dev/null "$in") ;;
    cutadapt) CMD=(cutadapt -g "$P" -e 2 --action=none --discard-untrimmed -j "$THREADS" -o "$OUT" "$in") ;;
    seqkit) CMD=(seqkit grep -s -i -m 2 -p "$P" -j "$THREADS" -o "$OUT" "$in") ;;
    sassy) OUT=$WORK/out.$1.$2.fq; STDOUT=$OUT; CMD=("$sassy" filter -p "$P" -k 2 -j "$THREADS" "$in") ;;
  esac
}
# kept ID: the records the last run of ID kept (its output file, or contains' log).
kept() {
  if [[ -z $OUT ]]; then
    sed -n 's/.*done: [0-9]* records, [0-9]* bases, \([0-9]*\) with hits.*/\1/p' "$WORK/t.stderr"
  else
    gzip -dcf "$OUT" | awk 'END { print NR / 4 }'
  fi
}

echo "CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1) ($(nproc) online); $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg); reps $reps"
echo "trawl: $trawl ($("$trawl" --version)); ids: ${ids[*]}${pin:+; pinned: ${pin[*]}}"
((have_cutadapt)) && echo "cutadapt: $(command -v cutadapt) ($(cutadapt --version))"
((have_seqkit)) && echo "seqkit: $(command -v seqkit) ($(seqkit version | awk '{ print $2 }'))"
((have_sassy)) && echo "sassy: $sassy ($("$sassy" --version | awk '{ print $2 }'))"
echo "data: $FQ (+ .gz), $reads reads, primer $P, $(wc -l < "$TRUTH") planted"
echo

# ---------------------------------------------------------------- timed rounds
echo "id,tool,threads,input,rep,wall_s,user_s,sys_s,maxrss_kb,kept" > "$csv"
declare -A RUNS KEPT
bad=0
cat "$FQ" "$GZ" > /dev/null  # in the page cache for every tool alike
for ((r = 1; r <= reps; r++)); do
  for id in "${ids[@]}"; do
    for in in "${inputs[@]}"; do
      spec "$id" "$in"
      [[ -n $OUT ]] && rm -f "$OUT"  # a new output file each run
      "$RUN_TIMED" "$WORK/t" "$STDOUT" "${pin[@]}" "${CMD[@]}" ||
        { echo "bench_filter: $id on $in failed:" >&2; cat "$WORK/t.stderr" >&2; exit 1; }
      read -r w u s k _ < "$WORK/t"
      n=$(kept)
      [[ -n $n ]] || { echo "bench_filter: no kept count for $id on $in" >&2; cat "$WORK/t.stderr" >&2; exit 1; }
      if [[ -z ${KEPT[$id]:-} ]]; then KEPT[$id]=$n
      elif [[ ${KEPT[$id]} != "$n" ]]; then
        echo "bench_filter: BAD: $id kept $n reads on $in (round $r), ${KEPT[$id]} before" >&2; bad=1
      fi
      if ((r == 1)) && [[ $in == plain && -n $OUT ]]; then
        gzip -dcf "$OUT" | awk 'NR % 4 == 1 { sub(/^@/, ""); print $1 }' | sort > "$WORK/names.${id%.t*}"
      fi
      RUNS[$id.$in]+="$w $u $s $k"$'\n'
      echo "$id,$TOOL,$THREADS,$in,$r,$w,$u,$s,$k,$n" >> "$csv"
      [[ -n $OUT ]] && rm -f "$OUT"
    done
  done
  echo "bench_filter: round $r of $reps done ($((SECONDS - t_start)) s)" >&2
done

median() { sort -g | sed -n "$(( (reps + 1) / 2 ))p"; }
declare -A WALL USER SYS
fmt='%-21s %7s %-6s %8s %8s %7s %10s %8s %8s\n'
printf "$fmt" tool threads input wall user sys reads/s rss_MiB kept
for id in "${ids[@]}"; do
  for in in "${inputs[@]}"; do
    spec "$id" "$in"
    WALL[$id.$in]=$(awk 'NF { print $1 }' <<< "${RUNS[$id.$in]}" | median)
    USER[$id.$in]=$(awk 'NF { print $2 }' <<< "${RUNS[$id.$in]}" | median)
    SYS[$id.$in]=$(awk 'NF { print $3 }' <<< "${RUNS[$id.$in]}" | median)
    rss=$(awk 'NF { if ($4 > m) m = $4 } END { printf "%.1f", m / 1024 }' <<< "${RUNS[$id.$in]}")
    rps=$(awk -v n="$reads" -v w="${WALL[$id.$in]}" 'BEGIN { printf "%.0f", n / w }')
    printf "$fmt" "${LABEL[$TOOL]}" "$THREADS" "$in" "${WALL[$id.$in]}" "${USER[$id.$in]}" "${SYS[$id.$in]}" \
      "$rps" "$rss" "${KEPT[$id]}"
  done
done
echo "(medians of $reps; wall, user, sys in seconds; rss = largest max RSS; raw runs: $csv)"

# ---------------------------------------------------------------- ratios and goals
echo
echo "ratios (wall medians; trawl = trawl filter, both strands unless -norc):"
target() {  # target TEXT VALUE OP GOAL (OP "" = no goal)
  local met=""
  [[ -n $3 && $2 != - ]] && met=$(awk -v v="$2" -v g="$4" -v op="$3" 'BEGIN { print ((op == ">=" ? v >= g : v <= g) ? "met" : "NOT met") }')
  printf '  %-50s %8s  %s\n' "$1" "$2" "$met"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'; }
for in in "${inputs[@]}"; do
  if ((have_cutadapt)); then
    target "$in: cutadapt 1T / trawl 1T >= 15" "$(ratio "${WALL[cutadapt.t1.$in]:-}" "${WALL[trawl.t1.$in]:-}")" ">=" 15
    target "$in: cutadapt 1T / trawl --no-rc 1T" "$(ratio "${WALL[cutadapt.t1.$in]:-}" "${WALL[trawl-norc.t1.$in]:-}")" "" ""
  fi
  ((have_seqkit)) && target "$in: seqkit 1T / trawl 1T >= 5" "$(ratio "${WALL[seqkit.t1.$in]:-}" "${WALL[trawl.t1.$in]:-}")" ">=" 5
  ((have_sassy)) && target "$in: sassy 1T / trawl 1T" "$(ratio "${WALL[sassy.t1.$in]:-}" "${WALL[trawl.t1.$in]:-}")" "" ""
  target "$in: trawl filter / contains (1T) <= 1.3" "$(ratio "${WALL[trawl.t1.$in]:-}" "${WALL[contains.t1.$in]:-}")" "<=" 1.3
  target "$in: trawl 1T / 2T >= 1.8" "$(ratio "${WALL[trawl.t1.$in]:-}" "${WALL[trawl.t2.$in]:-}")" ">=" 1.8
  target "$in: trawl --no-rc / both strands (1T)" "$(ratio "${WALL[trawl-norc.t1.$in]:-}" "${WALL[trawl.t1.$in]:-}")" "" ""
done
echo "  (this machine: $(nproc) CPUs; load at the end $(cut -d' ' -f1-3 /proc/loadavg))"

# ---------------------------------------------------------------- agreement
echo
echo "kept read names (plain input, round 1): |A|, |B|, |A and B|, |A - B|, |B - A|"
cp "$TRUTH" "$WORK/names.planted"
afmt='  %-12s %-12s %8s %8s %8s %8s %8s\n'
printf "$afmt" A B "|A|" "|B|" "A&B" "A-B" "B-A"
agree() {
  local a=$WORK/names.$1 b=$WORK/names.$2
  [[ -f $a && -f $b ]] || return 0
  printf "$afmt" "$1" "$2" "$(wc -l < "$a")" "$(wc -l < "$b")" "$(comm -12 "$a" "$b" | wc -l)" \
    "$(comm -23 "$a" "$b" | wc -l)" "$(comm -13 "$a" "$b" | wc -l)"
}
for t in trawl trawl-norc cutadapt seqkit sassy; do agree "$t" planted; done
agree trawl trawl-norc
agree trawl-norc cutadapt
agree trawl seqkit
agree trawl-norc seqkit
agree trawl sassy
echo "  (trawl, seqkit and sassy search both strands; trawl-norc and cutadapt the forward one;"
echo "   seqkit -m counts mismatches only; cutadapt -g also takes partial matches at the 5' end)"

# ---------------------------------------------------------------- trawl's own stage times
echo
echo "trawl filter -v -t 1 stage times (one run each, stderr):"
for in in "${inputs[@]}"; do
  spec trawl.t1 "$in"
  "${pin[@]}" "${CMD[@]}" -v 2> "$WORK/v.err" > /dev/null
  echo "  $in: $(grep -E 'time:|done:' "$WORK/v.err" | sed 's/^\[trawl\] [a-z]*: //' | paste -sd '|' - | sed 's/|/; /g')"
  rm -f "$OUT"
done
echo
echo "bench_filter: $((SECONDS - t_start)) s in all (data generation included when it ran)"
((bad == 0)) || { echo "bench_filter: a tool kept different reads in different runs (BAD above)" >&2; exit 1; }
