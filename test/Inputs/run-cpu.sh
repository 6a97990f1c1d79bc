#!/bin/sh
# Lowers linalg-on-tensors IR read on stdin to LLVM and runs @main with
# mlir-runner; prints what @main prints (printMemrefF32 / printMemrefI32),
# with buffer addresses masked so that the output of two runs can be diffed.
# Uses mlir-opt and mlir-runner from PATH and the runner support libraries of
# LLVM 22 (another directory through AUTOAC_LLVM_LIB).  Fails when lowering
# or running fails.
set -e
lib=${AUTOAC_LLVM_LIB:-/usr/lib/llvm-22/lib}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mlir-opt --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},convert-linalg-to-loops,convert-scf-to-cf,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)' \
  -o "$tmp/ll.mlir"
mlir-runner "$tmp/ll.mlir" -e main -entry-point-result=void \
  -shared-libs="$lib/libmlir_runner_utils.so,$lib/libmlir_c_runner_utils.so" \
  > "$tmp/out"
sed 's/base@ = 0x[0-9a-fA-F]*/base@ = ADDR/' "$tmp/out"
