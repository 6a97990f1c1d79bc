// auto-ac-to-linalg (lib/lower/tolinalg.c), run by
// auto-ac-lower-cpu/gpu before one-shot-bufferize: every arith/math op on
// ranked tensors becomes a linalg.generic writing into a fresh tensor.empty
// (a new buffer, as the planner counts the op's result), the op itself the
// payload; scalar operands are read from above; dynamic sizes come from
// tensor.dim of the first tensor operand.  Ops on scalars and
// arith.constant stay; TOSA constants left by tosa-to-linalg become
// arith.constant (last case).
// RUN: ac-opt %s --pass-pipeline='builtin.module(auto-ac-to-linalg)' | FileCheck %s
// RUN: %if plugin %{ mlir-opt %s --load-pass-plugin=%plugin -split-input-file --pass-pipeline='builtin.module(auto-ac-to-linalg)' | FileCheck %s %}

// CHECK-LABEL: func.func @binary(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x8xf32>)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[G:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[X]], %[[Y]] fastmath<fast> : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<4x8xf32>)
// CHECK:           math.tanh
// CHECK:         return %[[T]]
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = arith.mulf %a, %b fastmath<fast> : tensor<4x8xf32>
  %t = math.tanh %m : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_and_scalar(
// CHECK-SAME:    %[[C:.*]]: i1, %[[A:.*]]: tensor<?x8xf32>, %[[B:.*]]: tensor<?x8xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[D:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x8xf32>
// CHECK:         %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x8xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<?x8xf32>, tensor<?x8xf32>) outs(%[[E]] : tensor<?x8xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @dynamic_and_scalar(%c: i1, %a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = arith.select %c, %a, %b : tensor<?x8xf32>
  return %s : tensor<?x8xf32>
}

// -----

// Two results: two fresh inits.  A compare makes i1 elements.
// CHECK-LABEL: func.func @two_results(
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<4xi32>
// CHECK:         %[[E1:.*]] = tensor.empty() : tensor<4xi1>
// CHECK:         %{{.*}}:2 = linalg.generic {{.*}} outs(%[[E0]], %[[E1]] : tensor<4xi32>, tensor<4xi1>)
// CHECK:           %[[S:.*]], %[[O:.*]] = arith.addui_extended %{{.*}}, %{{.*}} : i32, i1
// CHECK-NEXT:      linalg.yield %[[S]], %[[O]] : i32, i1
// CHECK:         linalg.generic
// CHECK:           arith.cmpi slt, %{{.*}}, %{{.*}} : i32
func.func @two_results(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xi1>) {
  %s, %o = arith.addui_extended %a, %b : tensor<4xi32>, tensor<4xi1>
  %l = arith.cmpi slt, %a, %b : tensor<4xi32>
  return %s, %o, %l : tensor<4xi32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Scalars, tensor constants and linalg ops are left alone.
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT:    %[[K:.*]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    return %[[K]], %[[S]]
func.func @untouched(%x: f32) -> (tensor<4xf32>, f32) {
  %k = arith.constant dense<1.0> : tensor<4xf32>
  %s = arith.addf %x, %x : f32
  return %k, %s : tensor<4xf32>, f32
}

// -----

// TOSA's constants after tosa-to-linalg: a used tosa.const becomes an
// arith.constant of its values, unused ones go; nothing else is folded (a
// full-size insert_slice stays, where tosa-to-arith's greedy rewriter
// would fold it away).
// CHECK-LABEL: func.func @tosa_consts(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK-NOT:     tosa.const
// CHECK:         %[[K:.*]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NOT:     tosa.const
// CHECK:         %[[I:.*]] = tensor.insert_slice %[[X]] into %[[Y]][0] [4] [1]
// CHECK:         return %[[K]], %[[I]]
func.func @tosa_consts(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %k = "tosa.const"() <{values = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %i = tensor.insert_slice %x into %y[0] [4] [1] : tensor<4xf32> into tensor<4xf32>
  return %k, %i : tensor<4xf32>, tensor<4xf32>
}
