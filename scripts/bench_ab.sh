#!/usr/bin/env bash
# bench_ab.sh: two or more trawl binaries on one command line, as whole processes, runs
# interleaved (A B A B ...) so that a drifting machine speed skews no comparison. For A/B
# checks of a change whose effect is smaller than this VM's run-to-run noise (take --reps 15
# or more there).
#
# Each round runs every binary once with ARGS, stdout to a file; the guard: every run's
# stdout (and the file given by --out, if any) must have the same checksum as the first
# run's, else the script exits 1 after the table. Printed per binary: median and minimum of
# wall, user and system seconds (run_timed where built, else GNU time), and the ratio of
# medians to the first binary's.
#
# Usage: scripts/bench_ab.sh [--reps N] [--csv FILE] [--out FILE] BIN... -- ARGS...
#   --reps  rounds (default 9)
#   --csv   raw runs: binary,round,wall_s,user_s,sys_s (default: none)
#   --out   a file the command writes (e.g. --assignments FILE): checked like stdout
# Example (both ends of long reads, scripts/bench_demux_long.sh's data):
#   scripts/bench_ab.sh --reps 15 /tmp/trawl-old build/release/trawl -- demux -q -t 1 \
#     -f BC.fa -k 4 --region 1:150,-150:-1 --assignments /dev/null reads.fq
set -euo pipefail
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

reps=9
csv=""
out=""
bins=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --reps) reps=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) bins+=("$1"); shift ;;
  esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench_ab: --reps must be a positive integer" >&2; exit 2; }
((${#bins[@]} >= 1 && $# >= 1)) || { echo "bench_ab: give BIN... -- ARGS... (see --help)" >&2; exit 2; }
for b in "${bins[@]}"; do [[ -x $b ]] || { echo "bench_ab: $b is not executable" >&2; exit 2; }; done
# run_timed (scripts/bench/run_timed.cpp, built by scripts/setup.sh) times to the microsecond;
# GNU time's 10 ms steps are too coarse for runs of a tenth of a second.
root=$(cd "$(dirname "$0")/.." && pwd)
RUN_TIMED=${RUN_TIMED:-$root/build/release/run_timed}
if [[ ! -x $RUN_TIMED ]]; then
  RUN_TIMED=""
  command -v /usr/bin/time > /dev/null || { echo "bench_ab: neither run_timed nor GNU time (/usr/bin/time) found" >&2; exit 1; }
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -n $csv ]] && echo "binary,round,wall_s,user_s,sys_s" > "$csv"
bad=0
first_sum=""
for ((r = 1; r <= reps; r++)); do
  for i in "${!bins[@]}"; do
    b=${bins[$i]}
    if [[ -n $RUN_TIMED ]]; then
      "$RUN_TIMED" "$work/t" "$work/stdout" "$b" "$@" && cp "$work/t.stderr" "$work/stderr" ||
        { echo "bench_ab: $b failed:" >&2; tail -5 "$work/t.stderr" >&2; exit 1; }
    else
      /usr/bin/time -o "$work/t" -f "%e %U %S" "$b" "$@" > "$work/stdout" 2> "$work/stderr" ||
        { echo "bench_ab: $b failed:" >&2; tail -5 "$work/stderr" >&2; exit 1; }
    fi
    sum=$(cat "$work/stdout" ${out:+"$out"} | md5sum)
    [[ -z $first_sum ]] && first_sum=$sum
    [[ $sum == "$first_sum" ]] || { echo "bench_ab: BAD: $b, round $r: output differs from the first run's" >&2; bad=1; }
    read -r w u s _ < "$work/t"
    echo "$i $w $u $s" >> "$work/runs"
    [[ -n $csv ]] && echo "$b,$r,$w,$u,$s" >> "$csv"
  done
done

printf '%-40s %9s %9s %9s %9s %9s %9s %7s\n' binary wall_med wall_min user_med user_min sys_med sys_min ratio
base=""
for i in "${!bins[@]}"; do
  read -r wm wn um un sm sn < <(awk -v i="$i" '$1 == i { print $2, $3, $4 }' "$work/runs" | python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
cols = list(zip(*rows))
print(" ".join("%.4f %.4f" % (statistics.median(c), min(c)) for c in cols))')
  [[ -z $base ]] && base=$wm
  ratio=$(awk -v a="$wm" -v b="$base" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
  printf '%-40s %9s %9s %9s %9s %9s %9s %7s\n' "${bins[$i]}" "$wm" "$wn" "$um" "$un" "$sm" "$sn" "$ratio"
done
echo "(seconds over $reps interleaved rounds; ratio = wall median / the first binary's)"
((bad == 0)) || { echo "bench_ab: BAD above" >&2; exit 1; }
