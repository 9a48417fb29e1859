#!/usr/bin/env bash
# Regression guard: trawl's system calls grow with the MiBs it reads and writes, never with
# the number of records or patterns. A call per record or per pattern is cheap on one kernel
# and costly on another (MADV_POPULATE_READ per lent record once made loading 262,144
# patterns take 8 s of system time), and no timing on one machine shows it; this counts.
#
# Counts the system calls of whole runs (strace -f -c, all threads; all but sched_yield,
# which an idle worker thread makes as often as time allows) on N = 10,000 and
# N = 100,000 records of 256 bp with one pattern each (--paired), for several ways in:
# patterns as FASTA (-f) and as a list (-l), records as FASTA file, FASTQ gzip, and stdin,
# on 1 and 2 threads. The extra calls of the larger run must stay within
# kPerMiB x (its extra MiB of input and output) + kSlack; one call per record or pattern
# would add 90,000 or more. Not timed.
#
# Usage: check_syscalls.sh TRAWL MAKE_WORKLOAD   (needs strace; exit 1 on a failed budget)
set -euo pipefail
trawl=$(realpath "$1")
make_workload=$(realpath "$2")
command -v strace >/dev/null || { echo "check_syscalls: strace not found (apt-get install strace)" >&2; exit 1; }
kPerMiB=64
kSlack=1000
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# Inputs: random reads and random 23-mers (make_workload is seeded), cut to both sizes.
"$make_workload" reads 100000 256 7 > reads-all.fa
"$make_workload" patterns 100000 23 8 > pats-all.txt
for n in 10000 100000; do
  head -n $((2 * n)) reads-all.fa > reads-$n.fa
  head -n "$n" pats-all.txt > pats-$n.txt
  awk '{ print ">p" NR; print }' pats-$n.txt > pats-$n.fa
  awk 'NR % 2 == 1 { print "@" substr($0, 2); next } { print; print "+"; gsub(/./, "I"); print }' \
    reads-$n.fa | gzip -1 > reads-$n.fq.gz
done

# calls N SCENARIO THREADS: prints the total system calls of one run (all threads) and the
# bytes it read and wrote (inputs, patterns, output).
calls() {
  local n=$1 scenario=$2 threads=$3 cmd
  case $scenario in
    fasta-f) cmd=("$trawl" hits --paired -f "pats-$n.fa" -k 2 --alphabet dna -t "$threads" -o out.tsv "reads-$n.fa") ;;
    fastq-gz-l) cmd=("$trawl" hits --paired -l "pats-$n.txt" -k 2 --alphabet dna -t "$threads" -o out.tsv "reads-$n.fq.gz") ;;
    stdin-f) cmd=("$trawl" hits --paired -f "pats-$n.fa" -k 2 --alphabet dna -t "$threads" -o out.tsv -) ;;
    count-f) cmd=("$trawl" count --paired -f "pats-$n.fa" -k 2 --alphabet dna -t "$threads" -o out.tsv "reads-$n.fa") ;;
    parquet-f) cmd=("$trawl" hits --paired -f "pats-$n.fa" -k 2 --alphabet dna -t "$threads" -o out.parquet "reads-$n.fa") ;;
  esac
  rm -f out.tsv out.parquet
  if [[ $scenario == stdin-* ]]; then
    strace -f -c -o sc.txt "${cmd[@]}" < "reads-$n.fa"
  else
    strace -f -c -o sc.txt "${cmd[@]}"
  fi
  local input=reads-$n.fa patterns=pats-$n.fa
  [[ $scenario == fastq-gz-l ]] && { input=reads-$n.fq.gz; patterns=pats-$n.txt; }
  local bytes=$(( $(stat -c %s "$input") + $(stat -c %s "$patterns") + $(stat -c %s out.*) ))
  # Every call but sched_yield: an idle oneTBB worker yields while it waits for the serial
  # stage, as often as time allows, whatever the input.
  echo "$(awk '$1 ~ /^[0-9.]+$/ && $NF != "total" && $NF != "sched_yield" { n += $4 } END { print n + 0 }' sc.txt) $bytes"
}

status=0
printf '%-11s %7s %12s %12s %10s %10s %8s\n' scenario threads calls_10k calls_100k extra_MiB budget result
for scenario in fasta-f fastq-gz-l stdin-f count-f parquet-f; do
  for threads in 1 2; do
    read -r small small_bytes < <(calls 10000 "$scenario" "$threads")
    read -r large large_bytes < <(calls 100000 "$scenario" "$threads")
    [[ -n ${small:-} && -n ${large:-} ]] || { echo "check_syscalls: $scenario failed" >&2; exit 1; }
    top=$(sort -k4,4nr sc.txt | awk '$NF != "total" && $NF != "syscall" && NF >= 5 { printf "%s %s, ", $NF, $4 }' | head -c 160)
    read -r mib budget < <(awk -v a="$small_bytes" -v b="$large_bytes" -v p="$kPerMiB" -v s="$kSlack" \
      'BEGIN { m = (b - a) / 1048576; printf "%.1f %d\n", m, p * m + s }')
    result=ok
    if ((large - small > budget)); then result=FAILED; status=1; fi
    printf '%-11s %7s %12s %12s %10s %10s %8s\n' "$scenario" "$threads" "$small" "$large" "$mib" "$budget" "$result"
    [[ $result == ok ]] || echo "  most frequent at 100,000: $top"
  done
done
exit $status
