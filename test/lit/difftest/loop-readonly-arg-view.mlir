// Differential tester, seed 202194 (shrunk; peak-above-sim +5.5 % and
// over a feasible budget under every strategy, found by the eleventh
// session's 5000-program run): the backward recomputes an scf.for whose
// iter_arg starts as a view of an argument @f_bwd must not write
// (bufferization.writable = false: the caller still reads it), and the view
// comes out of an earlier recompute region.  Nothing reads the argument
// after the loop, so auto-ac-copy-before-write left the write alone, and
// one-shot bufferization copied the view at that region's yield, 1024 B
// live from there to the loop (8200 B measured, 7176 simulated).  The pass
// now copies at the write whenever the storage is such an argument, where
// the planner counts the copy.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok greedy {{.*}} peak 7176 measured 7176
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 202194: peak-above-sim (measured 8200, simulated 7176 (+14.27%; harness slack 0 B))
// config: {"strategy": "greedy", "budget_spec": null, "budget": null, "rng": "replay"}
module {
  func.func @f0(%f0_x: tensor<16x16xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<16x16xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_v1 = tensor.collapse_shape %f0_x [[0, 1]] : tensor<16x16xf32> into tensor<256xf32>
    %f0_v2 = tensor.expand_shape %f0_v1 [[0, 1]] output_shape [8, 32] : tensor<256xf32> into tensor<8x32xf32>
    %f0_lb3 = arith.constant 0 : index
    %f0_ub4 = arith.constant 2 : index
    %f0_s15 = arith.constant 1 : index
    %f0_v6 = scf.for %f0_iv7 = %f0_lb3 to %f0_ub4 step %f0_s15 iter_args(%f0_it8 = %f0_v2) -> (tensor<8x32xf32>) {
    %f0_v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%f0_it8 : tensor<8x32xf32>) {
    ^bb0(%f0_o10: f32):
      %f0_t11 = math.tanh %f0_o10 : f32
      linalg.yield %f0_t11 : f32
    } -> tensor<8x32xf32>
    scf.yield %f0_v9 : tensor<8x32xf32>
    }
    %f0_e14 = tensor.empty() : tensor<8x32xf32>
    %f0_v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v2 : tensor<8x32xf32>) outs(%f0_e14 : tensor<8x32xf32>) {
    ^bb0(%f0_a16: f32, %f0_o17: f32):
      %f0_t19 = arith.constant 0.0 : f32
      %f0_t18 = arith.maximumf %f0_a16, %f0_t19 : f32
      linalg.yield %f0_t18 : f32
    } -> tensor<8x32xf32>
    %f0_lb20 = arith.constant 0 : index
    %f0_ub21 = arith.constant 2 : index
    %f0_s122 = arith.constant 1 : index
    %f0_v23 = scf.for %f0_iv24 = %f0_lb20 to %f0_ub21 step %f0_s122 iter_args(%f0_it25 = %f0_v6) -> (tensor<8x32xf32>) {
    %f0_v26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%f0_it25 : tensor<8x32xf32>) {
    ^bb0(%f0_o27: f32):
      %f0_t28 = math.tanh %f0_o27 : f32
      linalg.yield %f0_t28 : f32
    } -> tensor<8x32xf32>
    scf.yield %f0_v26 : tensor<8x32xf32>
    }
    %f0_e31 = tensor.empty() : tensor<f32>
    %f0_zero33 = arith.constant 0.0 : f32
    %f0_z32 = linalg.fill ins(%f0_zero33 : f32) outs(%f0_e31 : tensor<f32>) -> tensor<f32>
    %f0_v34 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v15 : tensor<8x32xf32>) outs(%f0_z32 : tensor<f32>) {
    ^bb0(%f0_a35: f32, %f0_o36: f32):
      %f0_t37 = arith.mulf %f0_a35, %f0_a35 : f32
      %f0_t38 = arith.addf %f0_o36, %f0_t37 : f32
      linalg.yield %f0_t38 : f32
    } -> tensor<f32>
    %f0_v39 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v23 : tensor<8x32xf32>) outs(%f0_v34 : tensor<f32>) {
    ^bb0(%f0_a40: f32, %f0_o41: f32):
      %f0_t42 = arith.mulf %f0_a40, %f0_a40 : f32
      %f0_t43 = arith.addf %f0_o41, %f0_t42 : f32
      linalg.yield %f0_t43 : f32
    } -> tensor<f32>
    %f0_e44 = tensor.empty() : tensor<8x32xf32>
    %f0_v45 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v15, %f0_dl : tensor<8x32xf32>, tensor<f32>) outs(%f0_e44 : tensor<8x32xf32>) {
    ^bb0(%f0_a46: f32, %f0_a47: f32, %f0_o48: f32):
      %f0_t51 = arith.constant 2.0 : f32
      %f0_t49 = arith.mulf %f0_a46, %f0_t51 : f32
      %f0_t50 = arith.mulf %f0_t49, %f0_a47 : f32
      linalg.yield %f0_t50 : f32
    } -> tensor<8x32xf32>
    %f0_e52 = tensor.empty() : tensor<8x32xf32>
    %f0_v53 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v23, %f0_dl : tensor<8x32xf32>, tensor<f32>) outs(%f0_e52 : tensor<8x32xf32>) {
    ^bb0(%f0_a54: f32, %f0_a55: f32, %f0_o56: f32):
      %f0_t59 = arith.constant 2.0 : f32
      %f0_t57 = arith.mulf %f0_a54, %f0_t59 : f32
      %f0_t58 = arith.mulf %f0_t57, %f0_a55 : f32
      linalg.yield %f0_t58 : f32
    } -> tensor<8x32xf32>
    %f0_e60 = tensor.empty() : tensor<8x32xf32>
    %f0_v61 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v53, %f0_v23 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%f0_e60 : tensor<8x32xf32>) {
    ^bb0(%f0_a62: f32, %f0_a63: f32, %f0_o64: f32):
      %f0_t65 = arith.mulf %f0_a62, %f0_a63 : f32
      linalg.yield %f0_t65 : f32
    } -> tensor<8x32xf32>
    %f0_e66 = tensor.empty() : tensor<8x32xf32>
    %f0_v67 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v45, %f0_v15 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%f0_e66 : tensor<8x32xf32>) {
    ^bb0(%f0_a68: f32, %f0_a69: f32, %f0_o70: f32):
      %f0_t71 = arith.mulf %f0_a68, %f0_a69 : f32
      linalg.yield %f0_t71 : f32
    } -> tensor<8x32xf32>
    %f0_e72 = tensor.empty() : tensor<8x32xf32>
    %f0_v73 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v61, %f0_v6 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%f0_e72 : tensor<8x32xf32>) {
    ^bb0(%f0_a74: f32, %f0_a75: f32, %f0_o76: f32):
      %f0_t77 = arith.mulf %f0_a74, %f0_a75 : f32
      linalg.yield %f0_t77 : f32
    } -> tensor<8x32xf32>
    %f0_e78 = tensor.empty() : tensor<8x32xf32>
    %f0_v79 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v67, %f0_v73 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%f0_e78 : tensor<8x32xf32>) {
    ^bb0(%f0_a80: f32, %f0_a81: f32, %f0_o82: f32):
      %f0_t83 = arith.addf %f0_a80, %f0_a81 : f32
      linalg.yield %f0_t83 : f32
    } -> tensor<8x32xf32>
    %f0_v84 = tensor.collapse_shape %f0_v79 [[0, 1]] : tensor<8x32xf32> into tensor<256xf32>
    %f0_v85 = tensor.expand_shape %f0_v84 [[0, 1]] output_shape [16, 16] : tensor<256xf32> into tensor<16x16xf32>
    %f0_e86 = tensor.empty() : tensor<16x16xf32>
    %f0_v87 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v85 : tensor<16x16xf32>) outs(%f0_e86 : tensor<16x16xf32>) {
    ^bb0(%f0_a88: f32, %f0_o89: f32):
      %f0_t91 = arith.constant 0.5 : f32
      %f0_t90 = arith.mulf %f0_a88, %f0_t91 : f32
      linalg.yield %f0_t90 : f32
    } -> tensor<16x16xf32>
    return %f0_v39, %f0_v87 : tensor<f32>, tensor<16x16xf32>
  }
}
