// Differential tester, seed 6 (shrunk): two scf.for loops whose iter_args
// start as the primal input %f0_x, which the backward reads again.  Before
// the split marked such arguments of @f_fwd `bufferization.writable =
// false`, the caller copied %f0_x before calling @f0_fwd (2696 B measured
// against 2312 simulated, +16.6 %).  Fixed (lib/rewrite/split.c); see also
// test/lit/fidelity/fwd-arg-write.mlir.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 6: peak-above-sim before the fix (measured 2696, simulated 2312)
// config: {"strategy": "save-all", "budget_spec": null, "budget": null, "rng": "keep"}
module {
  func.func @f0(%f0_x: tensor<4x24xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<4x24xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_lb1 = arith.constant 0 : index
    %f0_ub2 = arith.constant 3 : index
    %f0_s13 = arith.constant 1 : index
    %f0_v4 = scf.for %f0_iv5 = %f0_lb1 to %f0_ub2 step %f0_s13 iter_args(%f0_it6 = %f0_x) -> (tensor<4x24xf32>) {
    %f0_v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%f0_it6 : tensor<4x24xf32>) {
    ^bb0(%f0_o8: f32):
      %f0_t9 = math.tanh %f0_o8 : f32
      linalg.yield %f0_t9 : f32
    } -> tensor<4x24xf32>
    scf.yield %f0_v7 : tensor<4x24xf32>
    }
    %f0_lb12 = arith.constant 0 : index
    %f0_ub13 = arith.constant 1 : index
    %f0_s114 = arith.constant 1 : index
    %f0_v15 = scf.for %f0_iv16 = %f0_lb12 to %f0_ub13 step %f0_s114 iter_args(%f0_it17 = %f0_x) -> (tensor<4x24xf32>) {
    %f0_v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v4 : tensor<4x24xf32>) outs(%f0_it17 : tensor<4x24xf32>) {
    ^bb0(%f0_a19: f32, %f0_o20: f32):
      %f0_t21 = arith.addf %f0_a19, %f0_o20 : f32
      %f0_t23 = arith.constant 0.5 : f32
      %f0_t22 = arith.mulf %f0_t21, %f0_t23 : f32
      linalg.yield %f0_t22 : f32
    } -> tensor<4x24xf32>
    scf.yield %f0_v18 : tensor<4x24xf32>
    }
    %f0_e24 = tensor.empty() : tensor<f32>
    %f0_zero26 = arith.constant 0.0 : f32
    %f0_z25 = linalg.fill ins(%f0_zero26 : f32) outs(%f0_e24 : tensor<f32>) -> tensor<f32>
    %f0_v27 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v15 : tensor<4x24xf32>) outs(%f0_z25 : tensor<f32>) {
    ^bb0(%f0_a28: f32, %f0_o29: f32):
      %f0_t30 = arith.mulf %f0_a28, %f0_a28 : f32
      %f0_t31 = arith.addf %f0_o29, %f0_t30 : f32
      linalg.yield %f0_t31 : f32
    } -> tensor<f32>
    %f0_e32 = tensor.empty() : tensor<4x24xf32>
    %f0_v33 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v15, %f0_dl : tensor<4x24xf32>, tensor<f32>) outs(%f0_e32 : tensor<4x24xf32>) {
    ^bb0(%f0_a34: f32, %f0_a35: f32, %f0_o36: f32):
      %f0_t39 = arith.constant 2.0 : f32
      %f0_t37 = arith.mulf %f0_a34, %f0_t39 : f32
      %f0_t38 = arith.mulf %f0_t37, %f0_a35 : f32
      linalg.yield %f0_t38 : f32
    } -> tensor<4x24xf32>
    %f0_e40 = tensor.empty() : tensor<4x24xf32>
    %f0_v41 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v33, %f0_v15 : tensor<4x24xf32>, tensor<4x24xf32>) outs(%f0_e40 : tensor<4x24xf32>) {
    ^bb0(%f0_a42: f32, %f0_a43: f32, %f0_o44: f32):
      %f0_t45 = arith.mulf %f0_a42, %f0_a43 : f32
      linalg.yield %f0_t45 : f32
    } -> tensor<4x24xf32>
    %f0_e46 = tensor.empty() : tensor<4x24xf32>
    %f0_v47 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v33, %f0_v15 : tensor<4x24xf32>, tensor<4x24xf32>) outs(%f0_e46 : tensor<4x24xf32>) {
    ^bb0(%f0_a48: f32, %f0_a49: f32, %f0_o50: f32):
      %f0_t51 = arith.mulf %f0_a48, %f0_a49 : f32
      linalg.yield %f0_t51 : f32
    } -> tensor<4x24xf32>
    %f0_e52 = tensor.empty() : tensor<4x24xf32>
    %f0_v53 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v47, %f0_x : tensor<4x24xf32>, tensor<4x24xf32>) outs(%f0_e52 : tensor<4x24xf32>) {
    ^bb0(%f0_a54: f32, %f0_a55: f32, %f0_o56: f32):
      %f0_t57 = arith.mulf %f0_a54, %f0_a55 : f32
      linalg.yield %f0_t57 : f32
    } -> tensor<4x24xf32>
    %f0_e58 = tensor.empty() : tensor<4x24xf32>
    %f0_v59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v41, %f0_v53 : tensor<4x24xf32>, tensor<4x24xf32>) outs(%f0_e58 : tensor<4x24xf32>) {
    ^bb0(%f0_a60: f32, %f0_a61: f32, %f0_o62: f32):
      %f0_t63 = arith.addf %f0_a60, %f0_a61 : f32
      linalg.yield %f0_t63 : f32
    } -> tensor<4x24xf32>
    return %f0_v27, %f0_v59 : tensor<f32>, tensor<4x24xf32>
  }
}
