// Several top-level ops without an explicit module are wrapped in an implicit
// module, as mlir-opt does; functions without ac.joint are left alone.
// RUN: ac-opt %s --ac-strategy=mincut | FileCheck %s

// CHECK-LABEL: func.func @helper()
// CHECK-NEXT: return
func.func @helper() {
  return
}

// CHECK-LABEL: func.func @f(
// CHECK: call @f_fwd
// CHECK: call @f_bwd
// CHECK-LABEL: func.func @f_fwd(
// CHECK-LABEL: func.func @f_bwd(
func.func @f(%x: tensor<4xf32>, %dy: tensor<4xf32> {ac.tangent}) -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad}) attributes {ac.joint} {
  %0 = math.exp %x : tensor<4xf32>
  %1 = arith.mulf %dy, %0 : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
