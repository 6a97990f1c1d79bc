// TOSA depthwise_conv2d through auto-ac-lower-cpu: a padded input
// (10368 B) and a 5-d accumulator of the result's size (8192 B), the bias
// then added into the result: 18560 B of workspace (lib/import/tosa.c).
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": null, "rng": "keep"}
module {
  func.func @f(%x: tensor<1x16x16x8xf32>, %w: tensor<3x3x8x1xf32> {ac.param}, %bias: tensor<8xf32> {ac.param}, %dl: tensor<1x1x1x8xf32> {ac.tangent}) -> (tensor<1x1x1x8xf32> {ac.output}, tensor<1x1x1x8xf32> {ac.grad}) attributes {ac.joint} {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %c = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
    %r1 = tosa.reduce_sum %c {axis = 1 : i32} : (tensor<1x16x16x8xf32>) -> tensor<1x1x16x8xf32>
    %r2 = tosa.reduce_max %r1 {axis = 2 : i32} : (tensor<1x1x16x8xf32>) -> tensor<1x1x1x8xf32>
    %t = tosa.tanh %r2 : (tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %g = tosa.mul %dl, %t, %sh : (tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>, tensor<1xi8>) -> tensor<1x1x1x8xf32>
    return %t, %g : tensor<1x1x1x8xf32>, tensor<1x1x1x8xf32>
  }
}
