// REQUIRES: plugin
// Planning and lowering in one stock mlir-opt run: auto-ac, then the named
// pipeline auto-ac-lower-cpu (docs/rewrite.md, "Lowering the output"), which
// expands to inlining (calls without no_inline), TOSA and arith/math on
// tensors to linalg, bufferization, the
// deallocation pipeline, the free pass and the CPU lowering.  Options reach the passes; a bad option is an error.
//
// RUN: mlir-opt %inputs/fidelity/small-mlp.mlir --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac{strategy=mincut},auto-ac-lower-cpu)' \
// RUN:   --dump-pass-pipeline -o %t.ll.mlir 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP:      auto-ac{
// DUMP-NEXT: inline{default-pipeline= {{.*}}},
// DUMP-NEXT: func.func(
// DUMP-NEXT: tosa-to-linalg-named{{.*}},
// DUMP-NEXT: tosa-to-linalg{{.*}},
// DUMP-NEXT: tosa-to-tensor
// DUMP-NEXT: ),
// DUMP-NEXT: auto-ac-to-linalg,
// DUMP-NEXT: auto-ac-copy-returned-views,
// DUMP-NEXT: auto-ac-copy-before-write,
// DUMP-NEXT: one-shot-bufferize{{.*}}buffer-alignment=64 bufferize-function-boundaries=true {{.*}}function-boundary-type-conversion=identity-layout-map
// DUMP:      ownership-based-buffer-deallocation
// DUMP:      bufferization-lower-deallocations
// DUMP:      auto-ac-free-at-last-use,
// DUMP-NEXT: convert-bufferization-to-memref,
// DUMP-NEXT: convert-linalg-to-loops,
// DUMP:      finalize-memref-to-llvm{{.*}}use-generic-functions=false
// DUMP:      reconcile-unrealized-casts
//
// RUN: FileCheck %s < %t.ll.mlir
// CHECK-LABEL: llvm.func @mlp_fwd(
// CHECK:         llvm.call @free(
// CHECK-LABEL: llvm.func @mlp_bwd(
// CHECK:         llvm.call @free(
//
// RUN: mlir-opt %inputs/fidelity/small-mlp.mlir --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac{strategy=mincut},auto-ac-lower-cpu{buffer-alignment=0 use-generic-functions=1})' \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// GENERIC-LABEL: llvm.func @mlp_bwd(
// GENERIC:         llvm.call @_mlir_memref_to_llvm_alloc(
// GENERIC:         llvm.call @_mlir_memref_to_llvm_free(
//
// RUN: not mlir-opt %inputs/fidelity/small-mlp.mlir --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac-lower-cpu{bogus=1})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not ac-opt %inputs/fidelity/small-mlp.mlir \
// RUN:   --pass-pipeline='builtin.module(auto-ac-lower-gpu{bogus=1})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: no such option bogus
// BAD: failed to add `auto-ac-lower-{{cpu|gpu}}` with options `bogus=1`
