#!/usr/bin/env bash
# Writes every parquet_fixture case as Parquet + TSV and checks each Parquet file with three
# independent readers (DuckDB, hyparquet, parquet-wasm) via compare.mjs.
#
#   tests/parquet/run_crosscheck.sh BUILD_DIR [PATH/TO/parquet_fixture] [PATH/TO/trawl]
#
# With a trawl binary, trawl's own output of every command (hits, count, contains and their
# row shapes, every compression, windows, many row groups, zero rows) is written both as TSV
# and as Parquet and checked the same way.
#
# The readers (versions pinned in package-lock.json) are installed once into BUILD_DIR/parquet-node
# with `npm ci`; files go to BUILD_DIR/parquet-crosscheck. Prints "N passed, M failed"; exits 0 if
# all passed, 1 if any failed, 77 (ctest SKIP) if node/npm or the npm registry is unavailable.
# Environment: PARQUET_CROSSCHECK_BIG=0 skips the 10M-row case; PARQUET_CROSSCHECK_KEEP=1 keeps
# the written files (the big case writes ~700 MB); PARQUET_COMPARE_VERBOSE=1 times each phase.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [PARQUET_FIXTURE]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
fixture=${2:-}
if [ -z "$fixture" ]; then
  for f in "$build/tests/parquet/parquet_fixture" "$build/parquet_fixture"; do
    if [ -x "$f" ]; then fixture=$f; break; fi
  done
fi
if [ ! -x "$fixture" ]; then
  echo "parquet_fixture not found: build the target parquet_fixture or pass its path" >&2
  exit 2
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "SKIP: node and npm are needed for the Parquet reader crosscheck"
  exit 77
fi

start_time=$EPOCHREALTIME

# Readers, installed once; reinstalled when the lockfile changes.
node_dir=$build/parquet-node
if ! cmp -s "$here/package-lock.json" "$node_dir/.installed-lock"; then
  echo "installing Parquet readers into $node_dir ..."
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  cp "$here/package.json" "$here/package-lock.json" "$node_dir/"
  if ! (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >npm.log 2>&1); then
    cat "$node_dir/npm.log"
    rm -rf "$node_dir"
    echo "SKIP: npm ci failed (is the npm registry reachable?)"
    exit 77
  fi
  cp "$here/package-lock.json" "$node_dir/.installed-lock"
fi
# ES modules resolve packages next to the script, so the script runs from the install directory.
cp "$here/compare.mjs" "$node_dir/compare.mjs"

out=$build/parquet-crosscheck
rm -rf "$out" && mkdir -p "$out"

total=0
passed=0
run_compare() {
  local result
  result=$(cd "$node_dir" && node compare.mjs "$@" 2>&1)
  echo "$result"
  passed=$((passed + $(grep -c '^PASS ' <<<"$result")))
}

# The 10M-row case is written in the background while the small cases are checked (2 cores).
big_pid=
if [ "${PARQUET_CROSSCHECK_BIG:-1}" != 0 ]; then
  total=$((total + 1))
  "$fixture" big zstd "$out/big.zstd" 2>"$out/big.zstd.log" &
  big_pid=$!
fi

small_args=()
while IFS=$'\t' read -r name _; do
  [ "$name" = big ] && continue
  for codec in zstd snappy none; do
    total=$((total + 1))
    prefix=$out/$name.$codec
    if "$fixture" "$name" "$codec" "$prefix" 2>"$prefix.log"; then
      small_args+=("$name/$codec" "$prefix.parquet" "$prefix.tsv")
    else
      echo "FAIL $name/$codec: parquet_fixture failed: $(cat "$prefix.log")"
    fi
  done
done < <("$fixture" --list)

# trawl's own outputs: the same command written as TSV and as Parquet must hold equal rows.
trawl_bin=${3:-}
if [ -n "$trawl_bin" ]; then
  data=$here/../../data
  "$(dirname "$trawl_bin")/make_workload" ascii 3000 > "$out/ab.fa" 2>/dev/null || printf '>t\nabab\n' > "$out/ab.fa"
  : > "$out/empty.fa"  # (an empty result of every command is a valid file: issue 33)
  while IFS='|' read -r name args; do
    total=$((total + 1))
    prefix=$out/trawl_$name
    if "$trawl_bin" $args -q -o "$prefix.tsv" 2>"$prefix.log" &&
       "$trawl_bin" $args -q -o "$prefix.parquet" 2>>"$prefix.log"; then
      small_args+=("trawl/$name" "$prefix.parquet" "$prefix.tsv")
    else
      echo "FAIL trawl/$name: trawl failed: $(cat "$prefix.log")"
    fi
  done <<EOF2
hits_reads|hits -f $data/primers.fa -k 3 $data/reads.fastq.gz
hits_genome_snappy_extra|hits -f $data/primers.fa -k 3 --compression snappy --columns pattern_start,pattern_end,pat_idx,text_idx $data/genome.fa
hits_none_sam_noregion|hits -f $data/primers.fa -k 3 --compression none --sam --no-region $data/genome.fa
hits_windows_small_groups|hits -f $data/primers.fa -k 3 --batch-bases 5000 --row-group-rows 7 $data/genome.fa
hits_zero_rows|hits -p TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT -k 0 $data/reads.fastq.gz
hits_ascii_dense|hits -p ab -k 0 --alphabet ascii --row-group-rows 50000 $out/ab.fa
count_pairs|count -f $data/primers.fa -k 3 $data/reads.fastq.gz
count_zeros|count -f $data/primers.fa -k 2 --zeros --compression snappy $data/reads.fastq.gz
count_by_pattern|count -f $data/primers.fa -k 3 --by pattern $data/genome.fa
contains_records|contains -f $data/primers.fa -k 2 $data/reads.fastq.gz
contains_by_pattern|contains -f $data/primers.fa -k 2 --by-pattern --compression none $data/reads.fastq.gz
count_zero_rows|count -p TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT -k 0 $data/reads.fastq.gz
count_by_pattern_empty_input|count --by pattern -f $data/primers.fa -k 0 $out/empty.fa
contains_zero_rows|contains -f $data/primers.fa -k 0 $out/empty.fa
contains_by_pair_zero_rows|contains --by pair -f $data/primers.fa -k 0 $out/empty.fa
EOF2
fi
[ ${#small_args[@]} -gt 0 ] && run_compare "${small_args[@]}"

if [ -n "$big_pid" ]; then
  if wait "$big_pid"; then
    echo "  $(cat "$out/big.zstd.log")"
    run_compare --large big/zstd "$out/big.zstd.parquet" "$out/big.zstd.tsv"
  else
    echo "FAIL big/zstd: parquet_fixture failed: $(cat "$out/big.zstd.log")"
  fi
fi

[ "${PARQUET_CROSSCHECK_KEEP:-0}" = 1 ] || rm -f "$out"/big.*.tsv "$out"/big.*.parquet
failed=$((total - passed))
printf '%d passed, %d failed (%s s)\n' "$passed" "$failed" "$(awk -v a="$start_time" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
[ "$failed" -eq 0 ]
