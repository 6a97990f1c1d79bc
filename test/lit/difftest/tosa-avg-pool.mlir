// TOSA avg_pool2d through auto-ac-lower-cpu: the lowering pads the input
// (18x18x8 f32 = 10368 B), sums each window into a tensor of the result's
// shape (8192 B) with the window (3x3 f32 = 36 B) allocated as an input,
// then divides the sums into the result, made after the padded input and
// the window are freed.  Counted as the op's workspace beside its result:
// max(10368 + 36 + 8192 - 8192, 8192) = 10404 B (lib/import/tosa.c); a
// count of all three (18596 B) made the plan 8192 B above the program.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": null, "rng": "keep"}
module {
  func.func @f(%x: tensor<1x16x16x8xf32>, %dl: tensor<1x1x1x8xf32> {ac.tangent}) -> (tensor<1x1x1x8xf32> {ac.output}, tensor<1x1x1x8xf32> {ac.grad}) attributes {ac.joint} {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %c = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
    %r1 = tosa.reduce_sum %c {axis = 1 : i32} : (tensor<1x16x16x8xf32>) -> tensor<1x1x16x8xf32>
    %r2 = tosa.reduce_max %r1 {axis = 2 : i32} : (tensor<1x1x16x8xf32>) -> tensor<1x1x1x8xf32>
    %t = tosa.tanh %r2 : (tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %g = tosa.mul %dl, %t, %sh : (tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x1x1x8xf32>
    return %t, %g : tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>
  }
}
