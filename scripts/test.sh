#!/usr/bin/env bash
# Installs, builds and runs the whole test suite: ctest (C unit tests, the
# lit tests for ac-opt, the mlir-opt plugin, CPU execution and GPU lowering as
# the ctest `lit`, the install and exported-symbols tests), Python tests
# (pytest, on torch 1.13 and on torch 2.x), then the same ctest suite again under AddressSanitizer + UBSan
# with leak checks, then each fuzz target for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh build
# torch-mlir and IREE (python/requirements-mlir.txt) layered on the torch 2.x
# environment, both outside the work tree: lit's feature torch-mlir runs the
# real FX importer with this Python (test/lit/torch-mlir).
export AUTOAC_MLIR_PYTHON=$(scripts/mlir-env.sh)
(cd build && ctest --output-on-failure -j"$(nproc)")   # lit included
# Speed and plan quality against bench/regress_table.json (a higher floor,
# a costlier mid-budget plan or a slowdown past the tolerance fails).
/usr/bin/python3 bench/regress.py --build build
# The Python tests twice (the first run also tests the layout checker,
# test/layout): the door on Debian's torch 1.13 (system python3),
# then on the pinned torch 2.x of python/requirements-torch.txt, in the
# virtual environment scripts/torch-env.sh makes once outside the work tree
# (torch.compile, Inductor; each run depends on one torch only).
PYTHONPATH=python AUTOAC_LIBRARY=$PWD/build/lib/libautoac.so /usr/bin/python3 -m pytest -q python/tests test/layout
TORCH_PY=$(scripts/torch-env.sh)
PYTHONPATH=python AUTOAC_LIBRARY=$PWD/build/lib/libautoac.so "$TORCH_PY" -m pytest -q python/tests
# The torch-mlir and IREE flows (docs/flows.md), in the environment that has them.
PYTHONPATH=python AUTOAC_LIBRARY=$PWD/build/lib/libautoac.so "$AUTOAC_MLIR_PYTHON" -m pytest -q python/tests/test_flows.py

if [ "${AUTOAC_SKIP_ASAN:-0}" != 1 ]; then
  scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DAUTOAC_SANITIZE=ON
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # lit's torch-mlir tests: Python (torch) loads the uninstrumented library.
  export AUTOAC_MLIR_LIBRARY=$PWD/build/lib/libautoac.so
  (cd build-asan && ctest --output-on-failure -j"$(nproc)")   # lit included
fi

# Fuzzing, bounded: every libFuzzer target (fuzz/) for AUTOAC_FUZZ_SECONDS
# (60) from its seed corpus, in build-fuzz (clang, coverage, ASan + UBSan);
# any crash, leak, UB or failed check fails the run (docs/reliability.md).
if [ "${AUTOAC_SKIP_FUZZ:-0}" != 1 ]; then
  scripts/fuzz.sh all "${AUTOAC_FUZZ_SECONDS:-60}"
fi
echo "autoac: all test suites passed"
