// Differential tester, seed 6124 (shrunk, --avoid-known): the same class as
// noncontiguous-collapse.mlir, in the backward: the gradient of a pad is an
// extract_slice [1, 1] [16, 2] of a 17x4 tensor (rows not contiguous), then
// collapse_shape + expand_shape (the gradient of a view).  Bufferization
// copies (16x2xf32 = 128 B); the simulator counts views.  Here it breaks the
// budget promise: greedy calls the plan feasible at exactly its simulated
// peak (20760 B) and the program measures 20888 B.  Fixed with
// noncontiguous-collapse.mlir's class: the collapse is a copy op of the
// graph (lib/import/layout.c), and greedy's plan at this budget measures
// what it simulates.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 6124: over-budget (report feasible at budget 20760 (simulated 20760), measured 20888)
// config: {"strategy": "greedy", "budget_spec": 0.898, "budget": 66344, "rng": "replay"}
module {
  func.func @f0(%f0_x: tensor<32x32xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<32x32xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_lo2 = arith.constant 0.0 : f64
    %f0_hi3 = arith.constant 1.0 : f64
    %f0_sd4 = arith.constant 600 : i32
    %f0_e5 = tensor.empty() : tensor<32x32xf32>
    %f0_u1 = linalg.fill_rng_2d ins(%f0_lo2, %f0_hi3, %f0_sd4 : f64, f64, i32) outs(%f0_e5 : tensor<32x32xf32>) -> tensor<32x32xf32>
    %f0_e6 = tensor.empty() : tensor<32x32xf32>
    %f0_v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_x, %f0_u1 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f0_e6 : tensor<32x32xf32>) {
    ^bb0(%f0_a8: f32, %f0_a9: f32, %f0_o10: f32):
      %f0_t12 = arith.constant 0.75 : f32
      %f0_t13 = arith.constant 4.0 : f32
      %f0_t14 = arith.constant 0.0 : f32
      %f0_t11 = arith.cmpf oge, %f0_a9, %f0_t12 : f32
      %f0_t15 = arith.select %f0_t11, %f0_t13, %f0_t14 : f32
      %f0_t15y = arith.mulf %f0_a8, %f0_t15 : f32
      linalg.yield %f0_t15y : f32
    } -> tensor<32x32xf32>
    %f0_e16 = tensor.empty() : tensor<32x1xf32>
    %f0_zero18 = arith.constant 0.0 : f32
    %f0_z17 = linalg.fill ins(%f0_zero18 : f32) outs(%f0_e16 : tensor<32x1xf32>) -> tensor<32x1xf32>
    %f0_v19 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]} ins(%f0_v7 : tensor<32x32xf32>) outs(%f0_z17 : tensor<32x1xf32>) {
    ^bb0(%f0_a20: f32, %f0_o21: f32):
      %f0_t22 = arith.addf %f0_a20, %f0_o21 : f32
      linalg.yield %f0_t22 : f32
    } -> tensor<32x1xf32>
    %f0_v23 = tensor.collapse_shape %f0_v19 [[0, 1]] : tensor<32x1xf32> into tensor<32xf32>
    %f0_v24 = tensor.expand_shape %f0_v23 [[0, 1]] output_shape [16, 2] : tensor<32xf32> into tensor<16x2xf32>
    %f0_zero26 = arith.constant 0.0 : f32
    %f0_v25 = tensor.pad %f0_v24 low[1, 1] high[0, 1] {
    ^bb0(%f0_i27: index, %f0_j28: index):
      tensor.yield %f0_zero26 : f32
    } : tensor<16x2xf32> to tensor<17x4xf32>
    %f0_e29 = tensor.empty() : tensor<f32>
    %f0_zero31 = arith.constant 0.0 : f32
    %f0_z30 = linalg.fill ins(%f0_zero31 : f32) outs(%f0_e29 : tensor<f32>) -> tensor<f32>
    %f0_v32 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v25 : tensor<17x4xf32>) outs(%f0_z30 : tensor<f32>) {
    ^bb0(%f0_a33: f32, %f0_o34: f32):
      %f0_t35 = arith.mulf %f0_a33, %f0_a33 : f32
      %f0_t36 = arith.addf %f0_o34, %f0_t35 : f32
      linalg.yield %f0_t36 : f32
    } -> tensor<f32>
    %f0_e37 = tensor.empty() : tensor<17x4xf32>
    %f0_v38 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v25, %f0_dl : tensor<17x4xf32>, tensor<f32>) outs(%f0_e37 : tensor<17x4xf32>) {
    ^bb0(%f0_a39: f32, %f0_a40: f32, %f0_o41: f32):
      %f0_t44 = arith.constant 2.0 : f32
      %f0_t42 = arith.mulf %f0_a39, %f0_t44 : f32
      %f0_t43 = arith.mulf %f0_t42, %f0_a40 : f32
      linalg.yield %f0_t43 : f32
    } -> tensor<17x4xf32>
    %f0_v45 = tensor.extract_slice %f0_v38[1, 1] [16, 2] [1, 1] : tensor<17x4xf32> to tensor<16x2xf32>
    %f0_v46 = tensor.collapse_shape %f0_v45 [[0, 1]] : tensor<16x2xf32> into tensor<32xf32>
    %f0_v47 = tensor.expand_shape %f0_v46 [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
    %f0_e48 = tensor.empty() : tensor<32x32xf32>
    %f0_v49 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v47, %f0_v7 : tensor<32x1xf32>, tensor<32x32xf32>) outs(%f0_e48 : tensor<32x32xf32>) {
    ^bb0(%f0_a50: f32, %f0_a51: f32, %f0_o52: f32):
      %f0_t53 = arith.mulf %f0_a50, %f0_a51 : f32
      linalg.yield %f0_t53 : f32
    } -> tensor<32x32xf32>
    %f0_e54 = tensor.empty() : tensor<32x32xf32>
    %f0_v55 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v49, %f0_u1 : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f0_e54 : tensor<32x32xf32>) {
    ^bb0(%f0_a56: f32, %f0_a57: f32, %f0_o58: f32):
      %f0_t59 = arith.mulf %f0_a56, %f0_a57 : f32
      linalg.yield %f0_t59 : f32
    } -> tensor<32x32xf32>
    return %f0_v32, %f0_v55 : tensor<f32>, tensor<32x32xf32>
  }
}
