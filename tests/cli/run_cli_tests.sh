#!/usr/bin/env bash
# Golden CLI tests from a table (cases.tsv): name, expected exit code, a substring stderr
# must contain ("-" = no check), and the command (run with bash; $TRAWL is the binary, $DATA
# the bundled data, $PARQUET_DUMP a Parquet-to-TSV printer, $FIX a folder of generated bad inputs). stdout must equal
# expected/NAME.out when that file exists; otherwise it must be empty for a non-zero exit.
# Usage: run_cli_tests.sh TRAWL_BINARY [--update]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export TRAWL="$1"
export DATA="$here/../../data"
# The test Parquet reader (tests/parquet), built beside the binary.
export PARQUET_DUMP="$(dirname "$1")/tests/parquet/parquet_dump"
update="${2:-}"
export FIX="$(mktemp -d)"
trap 'rm -rf "$FIX"' EXIT

# Bad and edge-case inputs, made fresh for every run.
printf '>r1\nACGTACGTTATCTATCTGGCATTCAACCAGGACGT\n' > "$FIX/ok.fa"
gzip -c "$FIX/ok.fa" > "$FIX/ok.fa.gz"
head -c 200000 "$DATA/reads.fastq.gz" > "$FIX/truncated.fq.gz"
printf '@q1\nACGTACGT\n+\nIIII\n' > "$FIX/badqual.fq"
printf '@q1\nACGTACGT\nIIIIIIII\n' > "$FIX/noplus.fq"
printf '\x01\x02\x03binary\x00junk\xff' > "$FIX/junk.bin"
printf '>r1\r\nTTTATCTATCTGGCATTCAACCAGGTT\r\n' > "$FIX/crlf.fa"
: > "$FIX/empty.fa"
printf '>e1\n>e2\nTATCTATCTGGCATTCAACCAGG\n>e3\n' > "$FIX/emptyrec.fa"
: > "$FIX/empty.txt"
printf '\n\n' > "$FIX/blank.txt"
printf 'ACGT\n\nTTTT\r\n' > "$FIX/patterns.txt"
mkdir -p "$FIX/adir"
printf '>r1\nACGT\x00ACGT\n' > "$FIX/nul.fa"
{ printf '>'; head -c 1048576 /dev/zero | tr '\0' 'h'; printf ' desc\nTTTATCTATCTGGCATTCAACCAGGTT\n'; } > "$FIX/longheader.fa"
# demux: barcodes A=ACGTACGT and B=TTGGCCAA at the read start, one read with neither, one with
# both (ambiguous at k >= 0), one with A at cost 1 and B at cost 0.
printf '@r1 x\nACGTACGTAAAAAAAAAAAA\n+\nIIIIIIIIIIIIIIIIIIII\n@r2\nTTGGCCAATTTTTTTTTTTT\n+\nIIIIIIIIIIIIIIIIIIII\n@r3\nGGGGGGGGGGGGGGGGGGGG\n+\nIIIIIIIIIIIIIIIIIIII\n@r4\nACGTACGTCCTTGGCCAACC\n+\nIIIIIIIIIIIIIIIIIIII\n@r5\nACGAACGTCCTTGGCCAACC\n+\nIIIIIIIIIIIIIIIIIIII\n' > "$FIX/demux.fq"
# A BGZF file with bytes flipped inside its first compressed block.
cp "$here/../data/reads.bgzf.fastq.gz" "$FIX/corrupt.bgzf.gz"
printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$FIX/corrupt.bgzf.gz" bs=1 seek=5000 conv=notrunc status=none

pass=0
fail=0
while IFS=$'\t' read -r name want_rc want_err cmd; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  # (stdin is the case table: a command that reads stdin would eat the cases after it.)
  out="$(bash -c "$cmd" 2>"$FIX/stderr" < /dev/null)"
  rc=$?
  err="$(cat "$FIX/stderr")"
  expected="$here/expected/$name.out"
  ok=1
  why=""
  if [[ "$rc" != "$want_rc" ]]; then ok=0; why="exit $rc, want $want_rc"; fi
  if [[ "$want_err" != "-" && "$err" != *"$want_err"* ]]; then ok=0; why="$why; stderr lacks '$want_err'"; fi
  if [[ "$update" == "--update" && "$rc" == 0 ]]; then printf '%s\n' "$out" > "$expected"; fi
  if [[ -f "$expected" ]]; then
    if [[ "$out" != "$(cat "$expected")" ]]; then ok=0; why="$why; stdout differs from expected/$name.out"; fi
  elif [[ "$rc" != 0 && -n "$out" ]]; then
    ok=0; why="$why; stdout not empty on failure"
  fi
  if ((ok)); then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: $why"
    echo "  command: $cmd"
    echo "  stderr: $err" | head -5
  fi
done < "$here/cases.tsv"
echo "cli: $pass passed, $fail failed"
((fail == 0))
