#!/usr/bin/env bash
# torch -> torch-mlir's FX importer -> torch-mlir-opt (linalg) -> autoac ->
# auto-ac-lower-cpu -> run: the planned program's measured peak and results
# against the unplanned one's (docs/flows.md).
#   scripts/flow-torch-mlir.sh MODEL BUDGET [BUDGET...]   e.g. gpt-block 1.35MB 1.22MB
# (imported once; one ac-measure run per budget; fails if any run does).
# MODEL: mlp, cnn, gpt-block (autoac.flows.models), or FILE.py:NAME (NAME()
# returns (model, example inputs); e.g. examples/flows/gated_mlp.py:make).
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:?usage: scripts/flow-torch-mlir.sh MODEL BUDGET [BUDGET...]}
shift
[ $# -gt 0 ] || { echo "usage: scripts/flow-torch-mlir.sh MODEL BUDGET [BUDGET...]" >&2; exit 2; }
[ -x build/bin/ac-opt ] || scripts/setup.sh build >&2
PY=$(scripts/mlir-env.sh)
OUT=${AUTOAC_FLOW_DIR:-$(mktemp -d)}
STEM=$(basename "${MODEL//:/_}" | tr -c 'A-Za-z0-9_.\n-' _)
PYTHONPATH=python AUTOAC_LIBRARY=$PWD/build/lib/libautoac.so "$PY" -W ignore \
  -m autoac export "$MODEL" --importer torch-mlir -o "$OUT/$STEM.torch.mlir"
rc=0
for BUDGET in "$@"; do
  "$PY" tools/ac-measure "$OUT/$STEM.torch.mlir" --build build \
    --torch-mlir-opt "$(dirname "$PY")/torch-mlir-opt" --budget="$BUDGET" \
    --keep "$OUT/measure-$BUDGET" || rc=$?
done
exit $rc
