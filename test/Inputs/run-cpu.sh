#!/bin/sh
# Lowers linalg-on-tensors IR read on stdin to LLVM with autoac's named
# pipeline auto-ac-lower-cpu (bufferize, deallocate, free every buffer at its
# last use, ownership of saved activations given to @f_bwd; docs/rewrite.md)
# and runs @main with mlir-runner; prints what @main prints (printMemrefF32 /
# printMemrefI32), with buffer addresses masked so that the output of two
# runs can be diffed.  Uses ac-opt and mlir-runner from PATH and the runner
# support libraries of LLVM 22 (another directory through AUTOAC_LLVM_LIB).
# Fails when lowering or running fails.
set -e
lib=${AUTOAC_LLVM_LIB:-/usr/lib/llvm-22/lib}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ac-opt - --pass-pipeline='builtin.module(auto-ac-lower-cpu)' -o "$tmp/ll.mlir"
mlir-runner "$tmp/ll.mlir" -e main -entry-point-result=void \
  -shared-libs="$lib/libmlir_runner_utils.so,$lib/libmlir_c_runner_utils.so" \
  > "$tmp/out"
sed 's/base@ = 0x[0-9a-fA-F]*/base@ = ADDR/' "$tmp/out"
