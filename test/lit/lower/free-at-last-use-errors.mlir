// Every error of auto-ac-free-at-last-use: a clear message at the op, no
// crash, the module unchanged.  The wrong pipeline orders come first (the
// pass before bufferization, and after the LLVM lowering), through ac-opt.
//
// RUN: not ac-opt %s --pass-pipeline='builtin.module(auto-ac-free-at-last-use,one-shot-bufferize{bufferize-function-boundaries},buffer-deallocation-pipeline)' 2>&1 | FileCheck %s --check-prefix=ACOPT
// ACOPT: free-at-last-use-errors.mlir:[[@LINE+9]]:1: error: auto-ac-free-at-last-use: 'func.func' in @on_tensors works on tensors; it runs on bufferized IR, after one-shot-bufferize and buffer-deallocation-pipeline
// ACOPT-NOT: error
//
// RUN: not ac-opt %inputs/fidelity/small-mlp.mlir --pass-pipeline='builtin.module(auto-ac-lower-cpu,auto-ac-free-at-last-use)' 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: small-mlp.mlir:{{[0-9]+}}:1: error: auto-ac-free-at-last-use: @mlp is already lowered to the LLVM dialect
//
// RUN: %if plugin %{ mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(auto-ac-free-at-last-use)' %}

// expected-error @+1 {{'func.func' in @on_tensors works on tensors; it runs on bufferized IR, after one-shot-bufferize and buffer-deallocation-pipeline}}
func.func @on_tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

func.func @half_deallocated(%c: i1) {
  %a = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{'bufferization.dealloc' in @half_deallocated holds 'bufferization.dealloc'; it runs after the whole buffer-deallocation-pipeline (lower-deallocations included)}}
  bufferization.dealloc (%a : memref<4xf32>) if (%c)
  return
}

// -----

func.func @returns_owned(%s: memref<16xf32> {ac.owned}) -> memref<4x4xf32> {
  %e = memref.expand_shape %s [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  // expected-error @+1 {{@returns_owned returns 'ac.owned' argument #0 (or an alias of it): it cannot free it}}
  return %e : memref<4x4xf32>
}

// -----

// expected-error @+1 {{'ac.owned' argument #1 of @owned_scalar is not a buffer}}
func.func @owned_scalar(%x: memref<4xf32>, %n: i32 {ac.owned}) {
  return
}

// -----

func.func @use_after_give(%y: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  call @take(%a) : (memref<4xf32>) -> ()
  // expected-error @+1 {{@use_after_give uses a buffer after the call that gives it to 'ac.owned' argument #0 of @take}}
  memref.copy %a, %y : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
func.func @take(%s: memref<4xf32> {ac.owned}) {
  "test.read"(%s) : (memref<4xf32>) -> ()
  return
}

// -----

func.func @not_owner(%x: memref<4xf32>) {
  // expected-error @+1 {{@not_owner gives a buffer to 'ac.owned' argument #0 of @take_b but frees nothing of it after the call: it does not own it}}
  call @take_b(%x) : (memref<4xf32>) -> ()
  return
}
func.func @take_b(%s: memref<4xf32> {ac.owned}) {
  return
}

// -----

func.func @twice() {
  %a = memref.alloc() : memref<4xf32>
  %c = memref.cast %a : memref<4xf32> to memref<?xf32>
  // expected-error @+1 {{@twice passes one buffer to two 'ac.owned' arguments of @take2 (#0 and another): it would be freed twice}}
  call @take2(%a, %c) : (memref<4xf32>, memref<?xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  return
}
func.func @take2(%s: memref<4xf32> {ac.owned}, %t: memref<?xf32> {ac.owned}) {
  return
}

// -----

// expected-error @+1 {{@blocks has 'ac.owned' arguments and several blocks; only single-block functions are supported}}
func.func @blocks(%s: memref<4xf32> {ac.owned}) {
  cf.br ^bb1
^bb1:
  return
}

// -----

// The pass after the LLVM lowering: too late.
// expected-error @+1 {{@lowered is already lowered to the LLVM dialect; the pass runs on bufferized func.func, after buffer-deallocation-pipeline and before the lowering}}
llvm.func @lowered() {
  llvm.return
}
