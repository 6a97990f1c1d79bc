// Differential tester, seed 7022 of the CI slice (shrunk): the backward op
// %f0_v38 writes into %f0_e37, a tensor.empty that phase inference places
// in the forward (it depends on no tangent), so save-all saved it and
// @f0_bwd received it as an owned argument.  The op's body does not read
// its init, so bufferization allocated its result anew; the saved buffer
// was never used in @f0_bwd and was freed at its start, while the simulator
// counted it live up to its writer: 6792 B measured against 7336 simulated
// (-7.4 %, the 544 B of the 4x34xf32 empty).  Fixed: a tensor.empty holds
// no data and is always recomputed (the import marks it so), right before
// its writer, which writes into it in place, as counted.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 7022: peak-below-sim (measured 6792, simulated 7336 (-7.42%; harness slack 0 B))
// config: {"strategy": "save-all", "budget_spec": null, "budget": null, "rng": "keep"}
module {
  func.func @f0(%f0_x: tensor<16x24xf32>, %f0_x2: tensor<24x16xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<24x16xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_v1 = tensor.extract_slice %f0_x2[4, 2] [17, 8] [1, 1] : tensor<24x16xf32> to tensor<17x8xf32>
    %f0_e2 = tensor.empty() : tensor<17x8xf32>
    %f0_v3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v1 : tensor<17x8xf32>) outs(%f0_e2 : tensor<17x8xf32>) {
    ^bb0(%f0_a4: f32, %f0_o5: f32):
      %f0_t6 = math.tanh %f0_a4 : f32
      linalg.yield %f0_t6 : f32
    } -> tensor<17x8xf32>
    %f0_e8 = tensor.empty() : tensor<17x8xf32>
    %f0_v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v1 : tensor<17x8xf32>) outs(%f0_e8 : tensor<17x8xf32>) {
    ^bb0(%f0_a10: f32, %f0_o11: f32):
      %f0_t13 = arith.constant 0.5 : f32
      %f0_t12 = arith.mulf %f0_a10, %f0_t13 : f32
      linalg.yield %f0_t12 : f32
    } -> tensor<17x8xf32>
    %f0_v14 = tensor.collapse_shape %f0_v9 [[0, 1]] : tensor<17x8xf32> into tensor<136xf32>
    %f0_v15 = tensor.expand_shape %f0_v14 [[0, 1]] output_shape [4, 34] : tensor<136xf32> into tensor<4x34xf32>
    %f0_e16 = tensor.empty() : tensor<f32>
    %f0_zero18 = arith.constant 0.0 : f32
    %f0_z17 = linalg.fill ins(%f0_zero18 : f32) outs(%f0_e16 : tensor<f32>) -> tensor<f32>
    %f0_v19 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v3 : tensor<17x8xf32>) outs(%f0_z17 : tensor<f32>) {
    ^bb0(%f0_a20: f32, %f0_o21: f32):
      %f0_t22 = arith.mulf %f0_a20, %f0_a20 : f32
      %f0_t23 = arith.addf %f0_o21, %f0_t22 : f32
      linalg.yield %f0_t23 : f32
    } -> tensor<f32>
    %f0_v24 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v15 : tensor<4x34xf32>) outs(%f0_v19 : tensor<f32>) {
    ^bb0(%f0_a25: f32, %f0_o26: f32):
      %f0_t27 = arith.mulf %f0_a25, %f0_a25 : f32
      %f0_t28 = arith.addf %f0_o26, %f0_t27 : f32
      linalg.yield %f0_t28 : f32
    } -> tensor<f32>
    %f0_e29 = tensor.empty() : tensor<17x8xf32>
    %f0_v30 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v3, %f0_dl : tensor<17x8xf32>, tensor<f32>) outs(%f0_e29 : tensor<17x8xf32>) {
    ^bb0(%f0_a31: f32, %f0_a32: f32, %f0_o33: f32):
      %f0_t36 = arith.constant 2.0 : f32
      %f0_t34 = arith.mulf %f0_a31, %f0_t36 : f32
      %f0_t35 = arith.mulf %f0_t34, %f0_a32 : f32
      linalg.yield %f0_t35 : f32
    } -> tensor<17x8xf32>
    %f0_e37 = tensor.empty() : tensor<4x34xf32>
    %f0_v38 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v15, %f0_dl : tensor<4x34xf32>, tensor<f32>) outs(%f0_e37 : tensor<4x34xf32>) {
    ^bb0(%f0_a39: f32, %f0_a40: f32, %f0_o41: f32):
      %f0_t44 = arith.constant 2.0 : f32
      %f0_t42 = arith.mulf %f0_a39, %f0_t44 : f32
      %f0_t43 = arith.mulf %f0_t42, %f0_a40 : f32
      linalg.yield %f0_t43 : f32
    } -> tensor<4x34xf32>
    %f0_v45 = tensor.collapse_shape %f0_v38 [[0, 1]] : tensor<4x34xf32> into tensor<136xf32>
    %f0_v46 = tensor.expand_shape %f0_v45 [[0, 1]] output_shape [17, 8] : tensor<136xf32> into tensor<17x8xf32>
    %f0_e47 = tensor.empty() : tensor<17x8xf32>
    %f0_v48 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v30, %f0_v3 : tensor<17x8xf32>, tensor<17x8xf32>) outs(%f0_e47 : tensor<17x8xf32>) {
    ^bb0(%f0_a49: f32, %f0_a50: f32, %f0_o51: f32):
      %f0_t52 = arith.mulf %f0_a49, %f0_a50 : f32
      linalg.yield %f0_t52 : f32
    } -> tensor<17x8xf32>
    %f0_zero54 = arith.constant 0.0 : f32
    %f0_v53 = tensor.pad %f0_v48 low[4, 2] high[3, 6] {
    ^bb0(%f0_i55: index, %f0_j56: index):
      tensor.yield %f0_zero54 : f32
    } : tensor<17x8xf32> to tensor<24x16xf32>
    return %f0_v24, %f0_v53 : tensor<f32>, tensor<24x16xf32>
  }
}
