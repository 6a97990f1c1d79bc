#!/usr/bin/env bash
# torch -> torch-mlir's FX importer -> torch-mlir-opt (linalg) -> autoac
# (split) -> iree-compile (llvm-cpu, @f_fwd and @f_bwd entry points) ->
# iree.runtime (local-sync): one training step per budget and unplanned,
# gradients against PyTorch's, IREE's allocator peak beside the plan's.
#   scripts/flow-iree.sh MODEL BUDGET [BUDGET...]   e.g. gpt-block 1.35MB 1.29MB 1.22MB
# MODEL: mlp, cnn, gpt-block (autoac.flows.models), or FILE.py:NAME (NAME()
# returns (model, example inputs); e.g. examples/flows/gated_mlp.py:make).
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:?usage: scripts/flow-iree.sh MODEL BUDGET [BUDGET...]}
shift
[ -x build/bin/ac-opt ] || scripts/setup.sh build >&2
PY=$(scripts/mlir-env.sh)
ARGS=()
for b in "$@"; do ARGS+=(--budget "$b"); done
PYTHONPATH=python AUTOAC_LIBRARY=$PWD/build/lib/libautoac.so AUTOAC_BUILD=$PWD/build \
  "$PY" -W ignore -m autoac.flows iree "$MODEL" "${ARGS[@]}" ${AUTOAC_FLOW_DIR:+--keep "$AUTOAC_FLOW_DIR"}
