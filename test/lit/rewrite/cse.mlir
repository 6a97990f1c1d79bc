// Recomputation survives CSE because the split puts the forward and each
// recompute region in different functions: @f_fwd computes exp(x) once for
// the forward, @f_bwd rebuilds it inside scf.execute_region {ac.recompute},
// and CSE works within one function.  The calls in @f carry no_inline, so
// the inliner does not put both halves back into one function either.  The
// last part shows what the split prevents: the same recomputation inside
// one function is merged away by CSE.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: ac-opt %t/joint.mlir --ac-mode=split --ac-strategy=mincut \
// RUN:   | mlir-opt --pass-pipeline='builtin.module(func.func(cse))' \
// RUN:   | FileCheck %t/joint.mlir
// RUN: ac-opt %t/joint.mlir --ac-mode=split --ac-strategy=mincut \
// RUN:   | mlir-opt --cse | FileCheck %t/joint.mlir
// RUN: ac-opt %t/joint.mlir --ac-mode=split --ac-strategy=mincut \
// RUN:   | mlir-opt --inline --cse | FileCheck %t/joint.mlir --check-prefix=INLINE
// RUN: mlir-opt %t/one-function.mlir --cse | FileCheck %t/one-function.mlir

//--- joint.mlir
// CHECK-LABEL: func.func @f(
// CHECK:         call @f_fwd(
// CHECK:         call @f_bwd(
// CHECK-LABEL: func.func @f_fwd(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<4xf32>
// CHECK:         math.exp %[[X]]
// CHECK-LABEL: func.func @f_bwd(
// CHECK-SAME:      %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent}, %[[X:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[R:.*]] = scf.execute_region -> tensor<4xf32> {
// CHECK-NEXT:      %[[A:.*]] = math.exp %[[X]]
// CHECK-NEXT:      scf.yield %[[A]]
// CHECK-NEXT:    } {ac.recompute}
// CHECK-NEXT:    arith.mulf %[[DY]], %[[R]]

// The inliner's own simplification folds the single-block region into
// @f_bwd (dropping the ac.recompute marker), but the recomputed exp stays in
// @f_bwd, apart from the forward's, and @f still calls both halves.
// INLINE-LABEL: func.func @f(
// INLINE-NOT:     math.exp
// INLINE:         call @f_fwd(
// INLINE:         call @f_bwd(
// INLINE-LABEL: func.func @f_fwd(
// INLINE:         math.exp
// INLINE-LABEL: func.func @f_bwd(
// INLINE-SAME:      %[[DY:[^:]*]]: tensor<4xf32> {ac.tangent}, %[[X:[^:]*]]: tensor<4xf32>)
// INLINE-NEXT:    %[[A:.*]] = math.exp %[[X]]
// INLINE-NEXT:    arith.mulf %[[DY]], %[[A]]
module {
  func.func @f(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad})
      attributes {ac.joint} {
    %a = math.exp %x : tensor<4xf32>
    %y = math.sin %a : tensor<4xf32>
    %g = arith.mulf %dy, %a : tensor<4xf32>
    return %y, %g : tensor<4xf32>, tensor<4xf32>
  }
}

//--- one-function.mlir
// A recomputation placed in the same function as the value it rebuilds:
// CSE replaces it by the forward value, which dominates the region, and the
// region is left yielding that value: nothing is recomputed any more.
// CHECK-LABEL: func.func @same(
// CHECK:         %[[A:.*]] = math.exp
// CHECK-NOT:     math.exp
// CHECK:         scf.execute_region -> tensor<4xf32> {
// CHECK-NEXT:      scf.yield %[[A]]
// CHECK-NEXT:    } {ac.recompute}
module {
  func.func @same(%x: tensor<4xf32>, %dy: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %a = math.exp %x : tensor<4xf32>
    %y = math.sin %a : tensor<4xf32>
    %r = scf.execute_region -> tensor<4xf32> {
      %a2 = math.exp %x : tensor<4xf32>
      scf.yield %a2 : tensor<4xf32>
    } {ac.recompute}
    %g = arith.mulf %dy, %r : tensor<4xf32>
    return %y, %g : tensor<4xf32>, tensor<4xf32>
  }
}
