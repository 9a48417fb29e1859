#!/usr/bin/env bash
# Writes every parquet_fixture case as Parquet + TSV and checks each Parquet file with three
# independent readers (DuckDB, hyparquet, parquet-wasm) via compare.mjs.
#
#   tests/parquet/run_crosscheck.sh BUILD_DIR [PATH/TO/parquet_fixture]
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
