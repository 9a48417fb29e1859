#!/usr/bin/env bash
# Runs the Snakemake workflow (snakemake from Debian, local executor, --cores 2) on the
# bundled data in a scratch folder, with 3 and with 7 shards, and checks the gathered hits
# against one unsharded run and MultiQC's table against the shards' summaries.
# Usage: workflow/snakemake/check_workflow.sh TRAWL
set -euo pipefail
trawl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
command -v snakemake >/dev/null || { echo "FAIL: snakemake not installed (apt-get install snakemake)" >&2; exit 1; }
command -v multiqc >/dev/null || { echo "FAIL: multiqc not installed (apt-get install multiqc)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$trawl" hits -q -k 3 -f "$root/data/primers.fa" "$root/data/reads.fastq.gz" > "$work/whole.tsv"
for n in 3 7; do
  out=$work/out$n
  snakemake -q -s "$here/Snakefile" --cores 2 --directory "$work" \
    --config reads="$root/data/reads.fastq.gz" patterns="$root/data/primers.fa" k=3 shards=$n \
    trawl="$trawl" outdir="$out" > "$work/snakemake.log" 2>&1 || { cat "$work/snakemake.log" >&2; exit 1; }
  cmp "$out/hits.tsv" "$work/whole.tsv" || { echo "FAIL: $n shards gathered differ from one run" >&2; exit 1; }
  table=$out/multiqc/multiqc_data/multiqc_trawl_summary.txt
  [ "$(tail -n +2 "$table" | wc -l)" = "$n" ] || { echo "FAIL: MultiQC table has not $n rows" >&2; exit 1; }
  records=$(awk -F'\t' 'NR > 1 { s += $2 } END { print s }' "$table")
  hits=$(awk -F'\t' 'NR > 1 { s += $4 } END { print s }' "$table")
  [ "$records" = 2000 ] || { echo "FAIL: the shards read $records records, not 2000" >&2; exit 1; }
  [ "$hits" = "$(($(wc -l < "$work/whole.tsv") - 1))" ] || { echo "FAIL: MultiQC hits $hits" >&2; exit 1; }
  echo "snakemake, $n shards: gathered hits = one run ($hits hits), MultiQC table of $n shards, $records records"
done
