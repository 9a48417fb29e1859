#!/usr/bin/env bash
# check_same_output.sh: the same command lines on a base revision's trawl and on this tree's,
# and a check that every output is the same: stdout, exit code, stderr of failing commands,
# and the files they write (TSV byte for byte, .tsv.gz decompressed, Parquet by its decoded
# rows: writers may lay out pages differently). For changes that must not change behaviour
# (speed work, restructuring).
#
# Usage: scripts/check_same_output.sh BASE_REV [--keep]
#   BASE_REV  a commit; its tree is checked out into a scratch folder (git worktree) and
#             built (Release, no tests)
#   --keep    keep the scratch folder (its path is printed)
# This tree's binaries come from build/release (trawl, make_workload, and parquet_dump from
# the tests), built first where missing or stale (cmake --build). Prints one line per command
# that differs and "N same, M different"; exit status 1 if any differs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 1 && $1 != -* ]] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
base_rev=$1; shift
keep=0
[[ ${1:-} == --keep ]] && keep=1
base_rev=$(git -C "$root" rev-parse --verify "$base_rev^{commit}")
work=$(mktemp -d /tmp/trawl-same.XXXXXX)
cleanup() {
  git -C "$root" worktree remove --force "$work/base-src" >/dev/null 2>&1 || true
  if ((keep)); then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "building $base_rev and this tree" >&2
git -C "$root" worktree add --detach "$work/base-src" "$base_rev" >/dev/null 2>&1
cmake -S "$work/base-src" -B "$work/base-build" -DCMAKE_BUILD_TYPE=Release -DTRAWL_BUILD_TESTS=OFF >/dev/null
cmake --build "$work/base-build" --target trawl -j"$(nproc)" >/dev/null
cmake -S "$root" -B "$root/build/release" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build/release" --target trawl make_workload parquet_dump -j"$(nproc)" >/dev/null
DUMP=$root/build/release/tests/parquet/parquet_dump
MAKE_WORKLOAD=$root/build/release/make_workload

# Inputs: the bundled data, seeded workloads, and edge cases.
in=$work/in
mkdir -p "$in"
D=$root/data
"$MAKE_WORKLOAD" reads 3000 150 7 TATCTATCTGGCATTCAACCAGG > "$in/reads.fa"
"$MAKE_WORKLOAD" genome 3000000 3 9 61 > "$in/genome61.fa"     # long records in lines
"$MAKE_WORKLOAD" genome 3000000 2 9 > "$in/genome1line.fa"     # long one-line records
gzip -c "$in/genome61.fa" > "$in/genome61.fa.gz"
"$MAKE_WORKLOAD" windows small "$in/table.txt" > "$in/table.fa"
head -n 20000 "$in/table.fa" > "$in/paired.fa"
head -n 10000 "$in/table.txt" > "$in/paired.txt"
awk '{ print ">p" NR; print }' "$in/paired.txt" > "$in/paired.pat.fa"
"$MAKE_WORKLOAD" ascii 300 > "$in/ascii.fa"
printf '>n1 desc\tx\nACGTNNNNNNACGTTATCTATCTGGCATTCAACCAGGNNNN\n>n2\nNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN\n' > "$in/nrich.fa"
printf '@q1\nACGTACGT\n+\nIIII\n' > "$in/badqual.fq"
printf '>r1\nACGT\000ACGT\n' > "$in/nul.fa"
head -c 100000 "$D/reads.fastq.gz" > "$in/truncated.fq.gz"
printf '>r1\r\nTTTATCTATCTGGCATTCAACCAGGTT\r\nACGT\r\n' > "$in/crlf.fa"

# name <TAB> command; $T the trawl binary, $D the data, $I the inputs, $O an output file
# (its extension tells how to compare it).
cases=$(cat <<'EOF'
hits_fastq_gz	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 3 $D/reads.fastq.gz
hits_t1	$T hits -q -t 1 -p TATCTATCTGGCATTCAACCAGG -k 3 $D/reads.fastq.gz
hits_stdin	cat $I/reads.fa | $T hits -q -p TATCTATCTGGCATTCAACCAGG -k 3 -
hits_primers_genome	$T hits -q -f $D/primers.fa -k 2 $D/genome.fa
hits_genome_windows	$T hits -q -f $D/primers.fa -k 2 --batch-bases 10000 $D/genome.fa
hits_barcodes	$T hits -q -l $D/barcodes.txt -k 1 $D/reads.fastq.gz
hits_dna	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 3 --alphabet dna $I/reads.fa
hits_no_rc	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 3 --no-rc $I/reads.fa
hits_all_ends	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 3 --all-ends $I/reads.fa
hits_best	$T hits -q -f $D/primers.fa -k 4 --best $D/genome.fa
hits_overhang	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 4 --overhang 0.5 $I/reads.fa
hits_max_n	$T hits -q -p ACGTNNNNNNACGT -k 2 --max-n-frac 0.5 $I/nrich.fa
hits_n_off	$T hits -q -p TATCTATCTGG -k 1 --max-n-frac 1 $I/nrich.fa
hits_columns	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 3 --columns pattern_start,pattern_end,pat_idx,text_idx $I/reads.fa
hits_sam	$T hits -q -f $D/primers.fa -k 2 --sam $D/genome.fa
hits_no_region_cigar	$T hits -q -f $D/primers.fa -k 2 --no-region --no-cigar $D/genome.fa
hits_full_header	$T hits -q -p ACGTTATCTATCTGG -k 1 --full-header $I/nrich.fa
hits_ascii	$T hits -q -p ab -k 0 --alphabet ascii $I/ascii.fa
hits_ascii_i	$T hits -q -p AB -k 0 --alphabet ascii -i $I/ascii.fa
hits_paired_l	$T hits -q --paired -l $I/paired.txt -k 2 --alphabet dna $I/paired.fa
hits_paired_f	$T hits -q --paired -f $I/paired.pat.fa -k 2 --alphabet dna $I/paired.fa
hits_long_lines	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 5 $I/genome61.fa
hits_long_lines_t2	$T hits -q -t 2 -p TATCTATCTGGCATTCAACCAGG -k 5 --batch-bases 65536 $I/genome61.fa
hits_long_gz	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 5 --batch-bases 65536 $I/genome61.fa.gz
hits_long_one_line	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 5 $I/genome1line.fa
hits_homopolymer_k_ge_m	$T hits -q -p AAAA -k 4 --best --batch-bases 65536 $I/genome61.fa
hits_crlf	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 1 $I/crlf.fa
count_pairs	$T count -q -f $D/primers.fa -k 2 $D/genome.fa
count_zeros	$T count -q -l $D/barcodes.txt -k 1 --zeros $D/reads.fastq.gz
count_by_pattern	$T count -q -l $D/barcodes.txt -k 2 --by pattern $D/reads.fastq.gz
count_paired	$T count -q --paired -f $I/paired.pat.fa -k 2 --alphabet dna $I/paired.fa
count_long	$T count -q -p TATCTATCTGGCATTCAACCAGG -k 5 --batch-bases 65536 $I/genome61.fa
contains	$T contains -q -p TATCTATCTGGCATTCAACCAGG -k 3 $D/reads.fastq.gz
contains_by_pattern	$T contains -q -f $D/primers.fa -k 2 --by-pattern $D/reads.fastq.gz
contains_paired	$T contains -q --paired -l $I/paired.txt -k 2 --alphabet dna $I/paired.fa
contains_long	$T contains -q -f $D/primers.fa -k 2 --batch-bases 10000 $D/genome.fa
tsv_file	$T hits -q -f $D/primers.fa -k 2 -o $O.tsv $D/genome.fa
tsv_gz_file	$T hits -q -f $D/primers.fa -k 2 -o $O.tsv.gz $D/genome.fa
parquet_hits	$T hits -q -p TATCTATCTGGCATTCAACCAGG -k 3 -o $O.parquet $D/reads.fastq.gz
parquet_hits_columns_sam	$T hits -q -f $D/primers.fa -k 3 --sam --columns pat_idx,text_idx -o $O.parquet $D/genome.fa
parquet_dense_snappy	$T hits -q -p ab -k 0 --alphabet ascii --compression snappy --row-group-rows 1000 -o $O.parquet $I/ascii.fa
parquet_count	$T count -q -l $D/barcodes.txt -k 1 --zeros -o $O.parquet $D/reads.fastq.gz
parquet_count_by_pattern	$T count -q -l $D/barcodes.txt -k 2 --by pattern -o $O.parquet $D/reads.fastq.gz
parquet_contains	$T contains -q -f $D/primers.fa -k 2 --by-pattern -o $O.parquet $D/reads.fastq.gz
parquet_contains_records	$T contains -q -p TATCTATCTGGCATTCAACCAGG -k 3 --format parquet -o $O.parquet $D/reads.fastq.gz
parquet_empty	$T hits -q -p GGGGGGGGGGGGGGGGGGGGGGGGGGGGGG -k 0 -o $O.parquet $D/reads.fastq.gz
err_bad_letter	$T hits -p ACGJ -k 0 $D/genome.fa
err_missing_input	$T hits -p ACGT -k 0 $I/does-not-exist.fa
err_bad_option	$T hits -p ACGT -k 0 --no-such-option $D/genome.fa
err_truncated_gz	$T hits -q -p ACGT -k 1 $I/truncated.fq.gz
err_badqual	$T hits -p ACGT -k 0 $I/badqual.fq
err_nul	$T hits -p ACGT -k 0 $I/nul.fa
err_paired_count	$T hits -q --paired -l $D/barcodes.txt -k 1 $D/reads.fastq.gz
err_no_patterns	$T hits -k 1 $D/genome.fa
EOF
)

# run BUILD NAME COMMAND: runs it with that build's trawl into $work/BUILD/NAME.*
run() {
  local build=$1 name=$2 cmd=$3 dir=$work/$1
  mkdir -p "$dir"
  local T=$work/bin-$build/trawl I=$in O=$dir/$name.out
  cmd=${cmd//\$T/$T}; cmd=${cmd//\$D/$D}; cmd=${cmd//\$I/$I}; cmd=${cmd//\$O/$O}
  local rc=0
  (cd "$dir" && bash -c "$cmd") > "$dir/$name.stdout" 2> "$dir/$name.stderr" || rc=$?
  echo "$rc" > "$dir/$name.rc"
  # Where a command fails, its message counts; the paths of the two builds differ.
  sed -i "s#$work/bin-$build/##g; s#$dir#OUT#g" "$dir/$name.stderr"
  ((rc != 0)) || : > "$dir/$name.stderr"
  for f in "$dir/$name".out.*; do
    [[ -e $f ]] || continue
    case $f in
      *.parquet) "$DUMP" "$f" > "$f.rows" ;;
      *.gz) gzip -dc "$f" > "$f.plain" ;;
    esac
  done
}

# Both builds run as ".../bin-NAME/trawl", so that nothing differs but the code.
mkdir -p "$work/bin-base" "$work/bin-head"
cp "$work/base-build/trawl" "$work/bin-base/trawl"
cp "$root/build/release/trawl" "$work/bin-head/trawl"
same=0 different=0
while IFS=$'\t' read -r name cmd; do
  [[ -n $name ]] || continue
  run base "$name" "$cmd"
  run head "$name" "$cmd"
  diffs=()
  for part in stdout rc stderr; do
    cmp -s "$work/base/$name.$part" "$work/head/$name.$part" || diffs+=("$part")
  done
  for f in "$work/base/$name".out.*; do
    [[ -e $f ]] || continue
    case $f in
      *.rows|*.plain) cmp -s "$f" "${f/\/base\//\/head\/}" || diffs+=("$(basename "$f")") ;;
      *.parquet|*.gz) ;;
      *) cmp -s "$f" "${f/\/base\//\/head\/}" || diffs+=("$(basename "$f")") ;;
    esac
  done
  if ((${#diffs[@]})); then
    echo "DIFFERENT $name (${diffs[*]})"
    different=$((different + 1))
  else
    same=$((same + 1))
  fi
done <<< "$cases"
echo "$same same, $different different"
((different == 0))
