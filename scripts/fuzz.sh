#!/usr/bin/env bash
# Runs a libFuzzer target of autoac for a bounded time (docs/reliability.md).
#   scripts/fuzz.sh TARGET [SECONDS]     TARGET: fuzz_size, fuzz_torch_type,
#   scripts/fuzz.sh all [SECONDS]        fuzz_planfile, fuzz_plan_mlir
# Builds the targets in build-fuzz (clang, -DAUTOAC_FUZZ=ON: coverage, ASan,
# UBSan) if needed.  Seeds come from fuzz/corpus/TARGET (read only); inputs
# the fuzzer finds interesting go to build-fuzz/fuzz-corpus/TARGET, and a
# crash, leak, UB report or timeout to build-fuzz/fuzz-artifacts/TARGET/ (the
# script then exits non-zero).  Each run appends "TARGET SECONDS EXECS" to
# build-fuzz/fuzz-stats.txt.  AUTOAC_FUZZ_JOBS=N runs N workers in parallel
# (-fork=N) for long local runs.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${1:?usage: scripts/fuzz.sh TARGET|all [SECONDS]}
SECS=${2:-15}
BUILD=${AUTOAC_FUZZ_BUILD:-build-fuzz}
ALL="fuzz_size fuzz_torch_type fuzz_planfile fuzz_plan_mlir"

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DAUTOAC_FUZZ=ON >/dev/null
fi
cmake --build "$BUILD" -j"${AUTOAC_JOBS:-$(nproc)}" --target fuzz-targets >/dev/null

export ASAN_OPTIONS=${AUTOAC_FUZZ_ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_one() {
  local t=$1 work=$BUILD/fuzz-corpus/$1 art=$BUILD/fuzz-artifacts/$1 log
  mkdir -p "$work" "$art"
  log=$BUILD/fuzz-$t.log
  local fork=()
  [ -n "${AUTOAC_FUZZ_JOBS:-}" ] && fork=(-fork="$AUTOAC_FUZZ_JOBS" -ignore_crashes=0)
  echo "fuzz: $t for ${SECS}s"
  if ! "$BUILD/bin/$t" "${fork[@]}" -max_total_time="$SECS" -timeout=60 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$art/" \
        "$work" "fuzz/corpus/$t" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz: $t FAILED: a finding is in $art/ (log: $log)"
    return 1
  fi
  local execs
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  [ -n "$execs" ] || execs=$(grep -o '#[0-9]*' "$log" | tail -1 | tr -d '#')
  echo "$t $SECS ${execs:-?}" >>"$BUILD/fuzz-stats.txt"
  echo "fuzz: $t ok, ${execs:-?} executions in ${SECS}s"
}

if [ "$TARGET" = all ]; then
  for t in $ALL; do run_one "$t"; done
else
  run_one "$TARGET"
fi
