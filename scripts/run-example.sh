#!/usr/bin/env bash
# The main job on a bundled example: plan the 8-layer MLP's joint graph
# (traced from PyTorch) under a 1.5 GB budget, print what autoac saw and
# chose, and write the planned IR and the report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
mkdir -p out
build/bin/ac-opt examples/corpus/mlp_relu_8.mlir --ac-budget=${BUDGET:-1.5GB} \
  --ac-optimizer=adam --ac-report=out/mlp_relu_8.report.json \
  --ac-summary -o out/mlp_relu_8.planned.mlir
echo "planned IR: out/mlp_relu_8.planned.mlir, report: out/mlp_relu_8.report.json"
