#!/usr/bin/env bash
# bench_panels.sh: large pattern panels (issue #34). trawl with its pattern index (--index
# auto: the plan decides), trawl scanning every pair (--index never), and Sassy 0.2.6 (its
# default search and --v2) where a sassy binary runs here; whole processes, one thread.
#
# Data (python3, seeded by --seed, made once in --dir and reused):
#   reads.fq         100,000 x 150 bp random reads; 1 in 10 holds a pattern of pat23-1000.txt
#                    (forward or reverse complement, 0-3 random edits)
#   pat23-1000.txt   1,000 random 23 bp patterns; pat23-32.txt its first 32
#   guides.txt       77,441 random 20 bp guides (a Brunello-sized library)
#   brunello.fq      --brunello-reads x 150 bp reads (default 1,000,000), 80% holding a guide
#                    (forward or reverse complement, a substitution in 1 of 4)
#   bc-B.txt, bc-B.fq  B random 24 bp barcodes; 100,000 x 150 bp reads, 94% starting with one
#                    (0-2 random edits)
#   panel-N.txt      the first N of 10,000 random 20 bp patterns (the crossover), searched in
#                    xreads.fq, the first 20,000 reads of reads.fq
#
# Workloads (trawl -q -t 1; ids WORKLOAD.VARIANT, variants: index = --index auto or always,
# never = --index never, sassy = sassy search -j 1, sassy-v2 = the same with --v2):
#   p1000     hits -l pat23-1000.txt -k 3 reads.fq       goals: index <= 1.0 s; sassy-v2 / index >= 3.7
#   p32       hits -l pat23-32.txt -k 3 reads.fq         goal: sassy-v2 / index >= 5
#   brunello  count --by pattern -l guides.txt -k 1 brunello.fq (index only: the others would
#             take hours)                                goal: <= 10 s
#   bc96, bc384  count --region 1:40 --no-rc -l bc-B.txt -k 2 bc-B.fq   goal: never / index >= 3
#   xN        count -l panel-N.txt -k 1 xreads.fq, N = 1 8 32 128 1000 10000, --index always and
#             never (not at 10,000: over ten minutes): the crossover (CSV, and a PNG where
#             gnuplot is installed)
# Every id runs once per round, --reps rounds interleaved (sassy's default search, which is
# far slower here, only in round 1); medians of wall, user and system seconds, and the
# largest max RSS (run_timed). Guards: within a workload every trawl variant
# prints the same rows (checked on round 1's output), and for p1000 trawl's hits equal Sassy's
# default search row for row (sorted); a difference prints BAD and exits 1 at the end.
#
# Usage: scripts/bench_panels.sh [--trawl PATH] [--sassy PATH] [--reps N] [--only "p1000 x ..."]
#                                [--brunello-reads N] [--csv FILE] [--dir DIR] [--seed S]
#   --only   workloads to run (default: p1000 p32 brunello bc96 bc384 x)
#   --csv    raw runs (default: bench_panels.csv in --dir); the crossover's medians go to
#            crossover.csv (and crossover.png) beside it
# Needs run_timed beside the trawl binary or in build/release (or RUN_TIMED=PATH), python3.
set -euo pipefail

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

root=$(cd "$(dirname "$0")/.." && pwd)
trawl=$root/build/release/trawl
sassy=""
reps=5
only="p1000 p32 brunello bc96 bc384 x"
brunello_reads=1000000
csv=""
dir=/tmp/trawl-bench-panels
seed=34
while [[ $# -gt 0 ]]; do
  case $1 in
    --trawl) trawl=$2; shift 2 ;;
    --sassy) sassy=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --brunello-reads) brunello_reads=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench_panels: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
RUN_TIMED=${RUN_TIMED:-$(dirname "$trawl")/run_timed}
[[ -x $RUN_TIMED ]] || RUN_TIMED=$root/build/release/run_timed
[[ -x $RUN_TIMED ]] || { echo "bench_panels: run_timed not found (bash scripts/setup.sh builds it)" >&2; exit 1; }
if [[ -z $sassy ]]; then
  sassy=$root/../shared/tools/sassy/sassy
  [[ -x $sassy ]] || sassy=$(command -v sassy || true)
fi
mkdir -p "$dir"
have_sassy=0
printf '>a\nACGTACGTACGT\n' > "$dir/probe.fa"
if [[ -n $sassy && -x $sassy ]] && "$sassy" search -p ACGTACGT -k 0 "$dir/probe.fa" > /dev/null 2>&1; then have_sassy=1
else echo "bench_panels: sassy not found or not runnable here: its rows are skipped" >&2; fi
WORK=$dir
csv=${csv:-$dir/bench_panels.csv}

# ---------------------------------------------------------------- data
[[ -s $dir/reads.fq && -s $dir/guides.txt && -s $dir/brunello-$brunello_reads.fq && -s $dir/bc-384.fq ]] ||
python3 - "$dir" "$seed" "$brunello_reads" <<'EOF'
import random, sys
d, seed, nb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
ACGT = bytes.maketrans(bytes(range(256)), b"ACGT" * 64)
def rand_seq(n): return rng.randbytes(n).translate(ACGT).decode()
def rc(s): return s[::-1].translate(str.maketrans("ACGT", "TGCA"))
def mutate(p, edits):
    p = list(p)
    for _ in range(edits):
        i, op = rng.randrange(len(p)), rng.randrange(3)
        if op == 0: p[i] = rng.choice("ACGT")
        elif op == 1: del p[i]
        else: p.insert(i, rng.choice("ACGT"))
    return "".join(p)
def write_list(name, pats):
    with open(f"{d}/{name}", "w") as f: f.write("".join(p + "\n" for p in pats))
def write_reads(name, n, plant):
    q = "I" * 150
    with open(f"{d}/{name}", "w") as f:
        for start in range(0, n, 10000):
            buf = []
            for i in range(start, min(n, start + 10000)):
                s = plant(rand_seq(150))[:150]
                buf.append(f"@r{i}\n{s}\n+\n{q[:len(s)]}\n")
            f.write("".join(buf))
def planted(pats, frac, edits, at_start=False):
    def plant(s):
        if rng.random() >= frac: return s
        p = mutate(rng.choice(pats), edits())
        if not at_start and rng.random() < 0.5: p = rc(p)
        i = 0 if at_start else rng.randrange(150 - len(p))
        return s[:i] + p + s[i + len(p):]
    return plant
p23 = [rand_seq(23) for _ in range(1000)]
write_list("pat23-1000.txt", p23); write_list("pat23-32.txt", p23[:32])
write_reads("reads.fq", 100000, planted(p23, 0.1, lambda: rng.randrange(4)))
guides = [rand_seq(20) for _ in range(77441)]
write_list("guides.txt", guides)
write_reads(f"brunello-{nb}.fq", nb, planted(guides, 0.8, lambda: int(rng.random() < 0.25)))
for b in (96, 384):
    bcs = [rand_seq(24) for _ in range(b)]
    write_list(f"bc-{b}.txt", bcs)
    write_reads(f"bc-{b}.fq", 100000, planted(bcs, 0.94, lambda: rng.randrange(3), at_start=True))
x = [rand_seq(20) for _ in range(10000)]
for n in (1, 8, 32, 128, 1000, 10000): write_list(f"panel-{n}.txt", x[:n])
with open(f"{d}/reads.fq") as f, open(f"{d}/xreads.fq", "w") as g:
    for i, line in enumerate(f):
        if i >= 80000: break
        g.write(line)
EOF

# ---------------------------------------------------------------- runs
# spec WORKLOAD VARIANT: sets CMD (empty: the variant does not apply).
spec() {
  local w=$1 v=$2 index=auto
  [[ $v == never ]] && index=never
  [[ $w == x* && $v == index ]] && index=always
  CMD=()
  case $w.$v in
    p1000.sassy) CMD=("$sassy" search -l "$dir/pat23-1000.txt" -k 3 -j 1 "$dir/reads.fq") ;;
    p1000.sassy-v2) CMD=("$sassy" search --v2 -l "$dir/pat23-1000.txt" -k 3 -j 1 "$dir/reads.fq") ;;
    p32.sassy-v2) CMD=("$sassy" search --v2 -l "$dir/pat23-32.txt" -k 3 -j 1 "$dir/reads.fq") ;;
    p1000.index|p1000.never) CMD=("$trawl" hits -q -t 1 --index "$index" -l "$dir/pat23-1000.txt" -k 3 "$dir/reads.fq") ;;
    p32.index|p32.never) CMD=("$trawl" hits -q -t 1 --index "$index" -l "$dir/pat23-32.txt" -k 3 "$dir/reads.fq") ;;
    brunello.index) CMD=("$trawl" count -q -t 1 --by pattern -l "$dir/guides.txt" -k 1 "$dir/brunello-$brunello_reads.fq") ;;
    bc*.index|bc*.never)
      CMD=("$trawl" count -q -t 1 --index "$index" --region 1:40 --no-rc -l "$dir/${w/bc/bc-}.txt" -k 2 "$dir/${w/bc/bc-}.fq") ;;
    x10000.never) ;;  # (every pair of 10,000 patterns goes the one-record path: over ten minutes)
    x*.index|x*.never) CMD=("$trawl" count -q -t 1 --index "$index" -l "$dir/panel-${w#x}.txt" -k 1 "$dir/xreads.fq") ;;
  esac
}
workloads=()
for w in $only; do
  if [[ $w == x ]]; then workloads+=(x1 x8 x32 x128 x1000 x10000); else workloads+=("$w"); fi
done
variants="index never sassy sassy-v2"

echo "CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1) ($(nproc) online); $(date -u '+%Y-%m-%d %H:%M UTC'); load $(cut -d' ' -f1-3 /proc/loadavg); reps $reps"
echo "trawl: $trawl ($("$trawl" --version))"
((have_sassy)) && echo "sassy: $sassy ($("$sassy" --version))"
echo "workload,variant,rep,wall_s,user_s,sys_s,maxrss_kb,rows" > "$csv"
bad=0
declare -A W U S K ROWS
for w in "${workloads[@]}"; do
  cat "$dir"/*.fq > /dev/null  # in the page cache for every run alike
  for ((r = 1; r <= reps; r++)); do
    for v in $variants; do
      spec "$w" "$v"
      ((${#CMD[@]})) || continue
      [[ $v == sassy* ]] && ((!have_sassy)) && continue
      [[ $v == sassy && $r -gt 1 ]] && continue  # (its default search is slow: once, as the guard)
      out=$dir/out.$w.$v
      "$RUN_TIMED" "$dir/t" "$out" "${CMD[@]}" || { echo "bench_panels: $w.$v failed:" >&2; tail -5 "$dir/t.stderr" >&2; exit 1; }
      read -r wall user sys kb _ < "$dir/t"
      rows=$(($(wc -l < "$out") - 1))
      echo "$w,$v,$r,$wall,$user,$sys,$kb,$rows" >> "$csv"
      W[$w.$v]+="$wall "; U[$w.$v]+="$user "; S[$w.$v]+="$sys "
      ((kb > ${K[$w.$v]:-0})) && K[$w.$v]=$kb
      if ((r == 1)); then
        ROWS[$w.$v]=$rows
        if [[ $v == never && -s $dir/out.$w.index ]] && ! cmp -s "$dir/out.$w.index" "$out"; then
          echo "bench_panels: BAD: $w: --index never and the index print different rows" >&2; bad=1
        fi
        if [[ $v == sassy && -s $dir/out.$w.index ]] &&
           ! cmp -s <(tail -n +2 "$dir/out.$w.index" | sort) <(tail -n +2 "$out" | sort); then
          echo "bench_panels: BAD: $w: trawl's hits differ from sassy's default search" >&2; bad=1
        fi
      fi
    done
  done
done

median() { local n; n=$(wc -w <<< "$1"); printf '%s\n' $1 | sort -g | sed -n "$(( (n + 1) / 2 ))p"; }
printf '\n%-10s %-9s %8s %8s %8s %9s %10s\n' workload variant wall_s user_s sys_s rss_MB rows
declare -A MED
for w in "${workloads[@]}"; do
  for v in $variants; do
    [[ -n ${W[$w.$v]:-} ]] || continue
    MED[$w.$v]=$(median "${W[$w.$v]}")
    printf '%-10s %-9s %8s %8s %8s %9.1f %10s\n' "$w" "$v" "${MED[$w.$v]}" "$(median "${U[$w.$v]}")" \
      "$(median "${S[$w.$v]}")" "$(awk -v k="${K[$w.$v]}" 'BEGIN { print k / 1024 }')" "${ROWS[$w.$v]}"
  done
done

goal() {  # goal TEXT VALUE OP LIMIT
  [[ -n $2 ]] || { echo "  $1: not measured"; return; }
  if awk -v a="$2" -v b="$4" -v op="$3" 'BEGIN { exit !(op == "<=" ? a <= b : a >= b) }'; then echo "  $1 = $2 ($3 $4): met"
  else echo "  $1 = $2 ($3 $4): NOT met"; fi
}
ratio() { [[ -n ${1:-} && -n ${2:-} ]] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }' || true; }
echo; echo "Goals (issue #34):"
goal "p1000 trawl wall s" "${MED[p1000.index]:-}" "<=" 1.0
goal "p1000 sassy --v2 / trawl" "$(ratio "${MED[p1000.sassy-v2]:-}" "${MED[p1000.index]:-}")" ">=" 3.7
goal "p32 sassy --v2 / trawl" "$(ratio "${MED[p32.sassy-v2]:-}" "${MED[p32.index]:-}")" ">=" 5
goal "brunello trawl wall s ($brunello_reads reads)" "${MED[brunello.index]:-}" "<=" 10
goal "bc96 never / index" "$(ratio "${MED[bc96.never]:-}" "${MED[bc96.index]:-}")" ">=" 3
goal "bc384 never / index" "$(ratio "${MED[bc384.never]:-}" "${MED[bc384.index]:-}")" ">=" 3

if [[ " ${workloads[*]} " == *" x1 "* ]]; then
  cross=$(dirname "$csv")/crossover.csv
  echo "patterns,index_s,never_s" > "$cross"
  for n in 1 8 32 128 1000 10000; do echo "$n,${MED[x$n.index]:-},${MED[x$n.never]:-}" >> "$cross"; done
  echo; echo "crossover (20,000 reads, 20 bp patterns, k = 1, count): $cross"; column -t -s, "$cross"
  if command -v gnuplot > /dev/null; then
    gnuplot <<EOF
set terminal png size 720,440
set output "${cross%.csv}.png"
set datafile separator ","
set logscale xy
set xlabel "patterns (20 bp, k = 1)"
set ylabel "seconds, whole process, 1 thread"
set key top left
plot "$cross" using 1:2 skip 1 with linespoints title "pattern index (--index always)", \
     "$cross" using 1:3 skip 1 with linespoints title "every pair (--index never)"
EOF
    echo "plot: ${cross%.csv}.png"
  fi
fi
echo "raw runs: $csv"
exit $bad
