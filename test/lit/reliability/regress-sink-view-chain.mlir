// Regression (found by fuzz_plan_mlir): a chain of backward views whose
// first user is itself a view that moves.  Import sinks backward views to
// their first user; placing %t1 by its first user's original position put it
// after %g1, another of its users, and the second import failed with
// "operand of 'torch.aten.mul.Tensor' is not defined in the function body"
// (an internal error).  The chain now sinks together, before %g1.
//
// RUN: ac-opt %s --ac-mode=annotate | FileCheck %s
// RUN: ac-opt %s --ac-strategy=greedy --ac-budget=1KB -o %t.discard.mlir 2>&1 | FileCheck %s --check-prefix=SPLIT --allow-empty
// CHECK:      %[[T1:.*]] = "torch.aten.t"(%{{.*}})
// CHECK-NEXT: "torch.aten.mul.Tensor"(%[[T1]], %{{.*}})
// CHECK-NEXT: %[[T2:.*]] = "torch.aten.t"(%[[T1]])
// CHECK-NEXT: %[[T3:.*]] = "torch.aten.t"(%[[T2]])
// CHECK-NEXT: "torch.aten.mul.Tensor"(%[[T3]], %{{.*}})
// SPLIT-NOT: error
func.func @f(%x: !torch.vtensor<[4,4],f32>, %dy: !torch.vtensor<[],f32> {ac.tangent}) -> (!torch.vtensor<[],f32> {ac.output}, !torch.vtensor<[4,4],f32> {ac.grad}) attributes {ac.joint} {
  %a = "torch.aten.relu"(%x) : (!torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32>
  %none = "torch.constant.none"() : () -> !torch.none
  %loss = "torch.aten.sum"(%a, %none) : (!torch.vtensor<[4,4],f32>, !torch.none) -> !torch.vtensor<[],f32>
  %g0 = "torch.aten.mul.Tensor"(%dy, %a) : (!torch.vtensor<[],f32>, !torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32>
  %t1 = "torch.aten.t"(%a) : (!torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32>
  %t2 = "torch.aten.t"(%t1) : (!torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32>
  %g1 = "torch.aten.mul.Tensor"(%t1, %g0) : (!torch.vtensor<[4,4],f32>, !torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32>
  %t3 = "torch.aten.t"(%t2) : (!torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32>
  %g2 = "torch.aten.mul.Tensor"(%t3, %g1) : (!torch.vtensor<[4,4],f32>, !torch.vtensor<[4,4],f32>) -> !torch.vtensor<[4,4],f32>
  return %loss, %g2 : !torch.vtensor<[],f32>, !torch.vtensor<[4,4],f32>
}
