// REQUIRES: plugin
// RUN: mlir-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect \
// RUN:   --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac)'

// expected-error@+1 {{joint function '@f' has several blocks}}
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32> {ac.output}) attributes {ac.joint} {
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

// -----

// A data-dependent size (nonzero's row count) is tied to no argument
// dimension: without max-dim it has no bound.
func.func @g(%x: !torch.vtensor<[2,4],f32>) -> (!torch.vtensor<[?,2],si64> {ac.output}) attributes {ac.joint} {
  // expected-error@+1 {{dimension 0 of result #0 of 'torch.aten.nonzero' is dynamic, tied to no argument dimension, and has no bound: give --ac-max-dim=N}}
  %0 = "torch.aten.nonzero"(%x) : (!torch.vtensor<[2,4],f32>) -> !torch.vtensor<[?,2],si64>
  return %0 : !torch.vtensor<[?,2],si64>
}

// -----

// expected-warning@+1 {{autoac: no function is marked ac.joint; the module is left unchanged}}
module {
  func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

func.func @h(%x: !torch.vtensor<[2,4],f32>, %dy: !torch.vtensor<[2,4],f32> {ac.tangent}) -> (!torch.vtensor<[2,4],f32> {ac.output}, !torch.vtensor<[2,4],f32> {ac.grad}) attributes {ac.joint} {
  %p = "torch.constant.float"() {value = 0.9 : f64} : () -> !torch.float
  %n = "torch.constant.none"() : () -> !torch.none
  // The in-place RNG op's warning (planner/mutation.mlir) comes first.
  // expected-error@+1 {{op 'torch.aten.bernoulli_.float' is marked ac.recompute but cannot be recomputed}}
  %m = "torch.aten.bernoulli_.float"(%x, %p, %n) {ac.recompute} : (!torch.vtensor<[2,4],f32>, !torch.float, !torch.none) -> !torch.vtensor<[2,4],f32>
  %y = "torch.aten.mul.Tensor"(%x, %m) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  %g = "torch.aten.mul.Tensor"(%dy, %m) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  return %y, %g : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>
}
