#!/usr/bin/env bash
# Sets up like scripts/setup.sh, builds Release with the tests and runs all of them: unit,
# differential (vs the DP oracle), Sassy vectors, pipeline invariance, golden CLI table, the
# system-call budget (strace), and the Parquet crosscheck (DuckDB, hyparquet and parquet-wasm
# from npm; skipped if npm or its registry is unavailable). Then the unit, property and CLI
# tests again under AddressSanitizer and UndefinedBehaviorSanitizer (fewer random cases), and
# the pipeline tests under ThreadSanitizer against a oneTBB rebuilt with TSan
# (scripts/tsan_tbb.sh; Debian's is not instrumented). Set TRAWL_SKIP_SANITIZERS=1 to skip both.
set -euo pipefail
cd "$(dirname "$0")/.."
# Test tools: nodejs and npm for the Parquet crosscheck, strace for the system-call budget,
# multiqc for the --json summary, snakemake for the workflow, samtools and bedtools for the
# CLI cases that read trawl's SAM and BED.
tools=()
command -v npm >/dev/null 2>&1 || tools+=(nodejs npm)
command -v strace >/dev/null 2>&1 || tools+=(strace)
command -v multiqc >/dev/null 2>&1 || tools+=(multiqc)
command -v snakemake >/dev/null 2>&1 || tools+=(snakemake)
command -v samtools >/dev/null 2>&1 || tools+=(samtools)
command -v bedtools >/dev/null 2>&1 || tools+=(bedtools)
if ((${#tools[@]})); then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "test: installing ${tools[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${tools[@]}" >/dev/null
fi
bash scripts/setup.sh release
ctest --preset release --output-on-failure -j"$(nproc)"

if [ "${TRAWL_SKIP_SANITIZERS:-0}" != 1 ]; then
  bash scripts/setup.sh asan-ubsan
  # tests/lsan.supp: one known htslib leak on its threaded error path.
  export TRAWL_DIFF_CASES=12000 TRAWL_CMD_CASES=5000 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
  # (The system-call budget is a property of the release build: ASan adds calls of its own;
  # the package is the release build's.)
  ctest --preset asan-ubsan --output-on-failure -j"$(nproc)" -E "parquet_crosscheck|syscall_budget|packaging|snakemake_workflow"

  # ThreadSanitizer: the multi-threaded pipeline tests (every thread count and batch size,
  # tasks sized while they run, a long record's end and chunks' line index found by several
  # threads, a long record searched while it is read) and the parallel pattern list loader,
  # no suppressions. Only the test binary is built, to keep CI short.
  bash scripts/tsan_tbb.sh >/dev/null
  cmake --preset tsan >/dev/null
  cmake --build --preset tsan -j"$(nproc)" --target trawl_tests >&2
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" TRAWL_PIPELINE_ITERS=12 \
    build/tsan/tests/trawl_tests -tc="output is identical for every thread count*,tasks sized by hit density*,long one-line records*,long records in lines*,chunks indexed in parts*,pattern lists load*"
fi
