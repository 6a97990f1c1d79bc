// Differential tester, seed 8000736 (shrunk; found by the fifteenth
// session's run on its final code; peak-above-sim +19.6 % and over-budget):
// the backward's tosa.reshape of a strided slice (the gradient of a pad).
// The lowering copies a strided source (a collapse of a non-contiguous
// buffer); the import took tosa.reshape as a view always.  Fixed:
// lib/import/layout.c takes tosa.reshape as tensor.reshape, a view of an
// identity-layout source, a copy of any other.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 8000736: peak-above-sim (measured 4688, simulated 3920 (+19.59%; harness slack 0 B))
// config: {"strategy": "greedy", "budget_spec": null, "budget": null, "rng": "keep"}
module {
  func.func @f0(%f0_x: tensor<8x24xf32>, %f0_x2: tensor<24x8xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<8x24xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_v1 = tosa.const_shape {values = dense<[24, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %f0_shp3 = tosa.const_shape {values = dense<[8, 24]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %f0_v2 = tosa.reshape %f0_x, %f0_v1 : (tensor<8x24xf32>, !tosa.shape<2>) -> tensor<24x8xf32>
    %f0_zero5 = arith.constant 0.0 : f32
    %f0_v4 = tensor.pad %f0_v2 low[2, 2] high[1, 1] {
    ^bb0(%f0_i6: index, %f0_j7: index):
      tensor.yield %f0_zero5 : f32
    } : tensor<24x8xf32> to tensor<27x11xf32>
    %f0_e8 = tensor.empty() : tensor<f32>
    %f0_zero10 = arith.constant 0.0 : f32
    %f0_z9 = linalg.fill ins(%f0_zero10 : f32) outs(%f0_e8 : tensor<f32>) -> tensor<f32>
    %f0_v11 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v4 : tensor<27x11xf32>) outs(%f0_z9 : tensor<f32>) {
    ^bb0(%f0_a12: f32, %f0_o13: f32):
      %f0_t14 = arith.mulf %f0_a12, %f0_a12 : f32
      %f0_t15 = arith.addf %f0_o13, %f0_t14 : f32
      linalg.yield %f0_t15 : f32
    } -> tensor<f32>
    %f0_e16 = tensor.empty() : tensor<27x11xf32>
    %f0_v17 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v4, %f0_dl : tensor<27x11xf32>, tensor<f32>) outs(%f0_e16 : tensor<27x11xf32>) {
    ^bb0(%f0_a18: f32, %f0_a19: f32, %f0_o20: f32):
      %f0_t23 = arith.constant 2.0 : f32
      %f0_t21 = arith.mulf %f0_a18, %f0_t23 : f32
      %f0_t22 = arith.mulf %f0_t21, %f0_a19 : f32
      linalg.yield %f0_t22 : f32
    } -> tensor<27x11xf32>
    %f0_v24 = tensor.extract_slice %f0_v17[2, 2] [24, 8] [1, 1] : tensor<27x11xf32> to tensor<24x8xf32>
    %f0_v26 = tosa.reshape %f0_v24, %f0_shp3 : (tensor<24x8xf32>, !tosa.shape<2>) -> tensor<8x24xf32>
    return %f0_v11, %f0_v26 : tensor<f32>, tensor<8x24xf32>
  }
}
