// Annotate mode marks ops in place: ac.saved lists the saved result numbers,
// ac.recomputed marks ops the backward reruns; nothing else changes.  A
// second run replaces the marks of the first.
//
// RUN: ac-opt %s --ac-mode=annotate --ac-strategy=save-all | FileCheck %s --check-prefix=SAVE
// RUN: ac-opt %s --ac-mode=annotate --ac-strategy=mincut | FileCheck %s --check-prefix=CUT
// RUN: ac-opt %s --ac-mode=annotate --ac-strategy=save-all | ac-opt --ac-mode=annotate --ac-strategy=mincut - | FileCheck %s --check-prefix=CUT

// SAVE-LABEL: func.func @f(
// SAVE-SAME:      attributes {ac.joint}
// SAVE-NEXT:    math.exp %{{.*}} {ac.saved = array<i64: 0>}
// SAVE-NEXT:    "test.two"(%{{.*}}) {ac.saved = array<i64: 0, 1>}
// SAVE-NEXT:    "test.three"(%{{.*}}) {ac.saved = array<i64: 2>}
// SAVE-NEXT:    arith.mulf
// SAVE-NOT:     ac.
// SAVE:         return
// SAVE-NOT:   func.func @f_fwd

// The unregistered ops are never recomputed: their results stay saved.
// CUT-LABEL: func.func @f(
// CUT-NEXT:    math.exp %{{.*}} {ac.recomputed}
// CUT-NEXT:    "test.two"(%{{.*}}) {ac.saved = array<i64: 0, 1>}
// CUT-NEXT:    "test.three"(%{{.*}}) {ac.saved = array<i64: 2>}
// CUT-NEXT:    arith.mulf
// CUT-NOT:     ac.
// CUT:         return
module {
  func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32> {ac.param},
               %dy: tensor<4xf32> {ac.tangent})
      -> (tensor<4xf32> {ac.output}, tensor<4xf32> {ac.grad})
      attributes {ac.joint} {
    %a = math.exp %x : tensor<4xf32>
    %m:2 = "test.two"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %n:3 = "test.three"(%m#0) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    %y = arith.mulf %n#0, %w : tensor<4xf32>
    %t = arith.mulf %dy, %m#1 : tensor<4xf32>
    %u = arith.mulf %t, %m#0 : tensor<4xf32>
    %v = arith.mulf %u, %n#2 : tensor<4xf32>
    %dw = arith.mulf %v, %a : tensor<4xf32>
    return %y, %dw : tensor<4xf32>, tensor<4xf32>
  }
}
