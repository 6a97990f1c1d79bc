#!/usr/bin/env bash
# The differential tester (docs/reliability.md, "Differential testing"):
# N random joint programs, each planned with every strategy at random
# budgets, lowered with auto-ac-lower-cpu, run on the CPU with the counting
# allocator and checked against the unplanned program (results bit-equal,
# measured peak = simulated peak, peak <= budget where feasible).
#   scripts/difftest.sh N [SEED]
# Program i has the seed SEED+i (SEED defaults to 1): rerun one with
#   python3 test/difftest/difftest.py --one S [--keep DIR]
# Every divergence is printed with its seed and class and shrunk to a small
# case in $AUTOAC_DIFFTEST_OUT (default build/difftest-out/).  Environment:
# AUTOAC_BUILD (default build), AUTOAC_DIFFTEST_JOBS (default nproc),
# AUTOAC_DIFFTEST_ARGS (more options, e.g. --no-shrink, --time-limit=S).
# Exit status: 0 when nothing diverged, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:?usage: scripts/difftest.sh N [SEED]}
SEED=${2:-1}
BUILD=${AUTOAC_BUILD:-build}
if [ ! -x "$BUILD/bin/ac-opt" ] || [ ! -f "$BUILD/lib/libac_count_alloc.so" ]; then
  scripts/setup.sh "$BUILD" >/dev/null
fi
OUT=${AUTOAC_DIFFTEST_OUT:-$BUILD/difftest-out}
mkdir -p "$OUT"
# shellcheck disable=SC2086
exec /usr/bin/python3 test/difftest/difftest.py "$N" "$SEED" \
  --jobs "${AUTOAC_DIFFTEST_JOBS:-$(nproc)}" --build "$BUILD" --out "$OUT" \
  --log "$OUT/log.jsonl" ${AUTOAC_DIFFTEST_ARGS:-}
