// arith and math ops on whole tensors (arith.mulf %a, %b : tensor<...>):
// one-shot bufferization refused them ("op was not bufferized"), so
// neither the original nor the planned program lowered.  Fixed:
// auto-ac-lower-cpu runs auto-ac-to-linalg, a linalg.generic
// into a fresh tensor.empty per op: a new buffer, as the planner counts
// it (upstream's convert-elementwise-to-linalg would write into an
// operand's buffer, below the plan).
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": null, "rng": "keep"}
module {
  func.func @f(%x: tensor<32x32xf32>, %w: tensor<32x32xf32> {ac.param}, %dl: tensor<32x32xf32> {ac.tangent}) -> (tensor<32x32xf32> {ac.output}, tensor<32x32xf32> {ac.grad}, tensor<32x32xf32> {ac.grad}) attributes {ac.joint} {
    %a = arith.mulf %x, %w : tensor<32x32xf32>
    %b = math.tanh %a : tensor<32x32xf32>
    %c = arith.addf %b, %x : tensor<32x32xf32>
    %d = math.exp %c : tensor<32x32xf32>
    %g1 = arith.mulf %dl, %d : tensor<32x32xf32>
    %g2 = arith.mulf %g1, %b : tensor<32x32xf32>
    %g3 = arith.mulf %g2, %a : tensor<32x32xf32>
    %gw = arith.mulf %g3, %x : tensor<32x32xf32>
    return %d, %g3, %gw : tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
  }
}
