// TOSA's zero points and shifts must be constants in sight of
// tosa-to-linalg: recomputed in the backward, they were results of the
// rewrite's scf.execute_region and the planned program did not lower
// ("failed to legalize operation 'tosa.matmul'").  Fixed: auto-ac-lower-cpu
// runs auto-ac-flatten-regions first (one-block execute_regions in line,
// as the planner reads them), and tosa.const is a global constant (0 B)
// like arith.constant.  Also matmul, transposes, broadcast add, sigmoid,
// clamp, reduce_sum, checked bit for bit against the unplanned program.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": null, "rng": "keep"}
module {
  func.func @f(%x: tensor<1x16x32xf32>, %w: tensor<1x32x32xf32> {ac.param}, %b: tensor<1x1x32xf32> {ac.param}, %dl: tensor<1x16x32xf32> {ac.tangent}) -> (tensor<1x16x1xf32> {ac.output}, tensor<1x32x32xf32> {ac.grad}, tensor<1x16x32xf32> {ac.grad}) attributes {ac.joint} {
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %h = tosa.matmul %x, %w, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    %hb = tosa.add %h, %b : (tensor<1x16x32xf32>, tensor<1x1x32xf32>) -> tensor<1x16x32xf32>
    %s = tosa.sigmoid %hb : (tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
    %a = tosa.mul %hb, %s, %sh : (tensor<1x16x32xf32>, tensor<1x16x32xf32>, tensor<1xi8>) -> tensor<1x16x32xf32>
    %c = tosa.clamp %a {min_val = -4.0 : f32, max_val = 4.0 : f32} : (tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
    %t = tosa.transpose %c {perms = array<i32: 0, 2, 1>} : (tensor<1x16x32xf32>) -> tensor<1x32x16xf32>
    %t2 = tosa.transpose %t {perms = array<i32: 0, 2, 1>} : (tensor<1x32x16xf32>) -> tensor<1x16x32xf32>
    %e = tosa.exp %t2 : (tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
    %r = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x16x32xf32>) -> tensor<1x16x1xf32>
    %g1 = tosa.mul %dl, %e, %sh : (tensor<1x16x32xf32>, tensor<1x16x32xf32>, tensor<1xi8>) -> tensor<1x16x32xf32>
    %g2 = tosa.mul %g1, %s, %sh : (tensor<1x16x32xf32>, tensor<1x16x32xf32>, tensor<1xi8>) -> tensor<1x16x32xf32>
    %g3 = tosa.sub %g2, %c : (tensor<1x16x32xf32>, tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
    %xt = tosa.transpose %x {perms = array<i32: 0, 2, 1>} : (tensor<1x16x32xf32>) -> tensor<1x32x16xf32>
    %gw = tosa.matmul %xt, %g3, %zp, %zp : (tensor<1x32x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x32xf32>
    %wt = tosa.transpose %w {perms = array<i32: 0, 2, 1>} : (tensor<1x32x32xf32>) -> tensor<1x32x32xf32>
    %gx = tosa.matmul %g3, %wt, %zp, %zp : (tensor<1x16x32xf32>, tensor<1x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x32xf32>
    return %r, %gw, %gx : tensor<1x16x1xf32>, tensor<1x32x32xf32>, tensor<1x16x32xf32>
  }
}
