// Differential tester, seed 70450 (found on 2026-12-03 by the long run on
// the ninth session's build; not shrunk).  greedy, mincut and knapsack
// measured +40 B above the simulated peak, over budgets called feasible.
// Cause: a recomputed scf.for writes into its init, a 9x1 slice of a 19x1
// tensor that nothing reads later, so bufferization wrote in place: the
// 76 B base stayed live as long as the loop's result.  The planner never
// writes in place into a storage of another size (acGraphInPlaceRoot) and
// counts a new 36 B buffer, the base freed at the loop: 76 - 36 = 40 B.
// Fixed in auto-ac-copy-before-write: a write into a view of a bigger
// storage gets its own buffer too (docs/rewrite.md step 7).
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok greedy {{.*}} peak [[P:[0-9]+]] measured [[P]]
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 70450: over-budget (report feasible at budget 16668 (simulated 16668), measured 16708)
// config: {"strategy": "greedy", "budget_spec": 0.733, "budget": null, "rng": "keep"}
module {
  func.func @f0(%f0_x: tensor<32x16xf32>, %f0_x2: tensor<16x32xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<32x16xf32> {ac.grad}, tensor<16x32xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_e1 = tensor.empty() : tensor<32x16xf32>
    %f0_v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_x, %f0_x : tensor<32x16xf32>, tensor<32x16xf32>) outs(%f0_e1 : tensor<32x16xf32>) {
    ^bb0(%f0_a3: f32, %f0_a4: f32, %f0_o5: f32):
      %f0_t6 = arith.subf %f0_a3, %f0_a4 : f32
      linalg.yield %f0_t6 : f32
    } -> tensor<32x16xf32>
    %f0_zero8 = arith.constant 0.0 : f32
    %f0_v7 = tensor.pad %f0_x2 low[2, 0] high[1, 0] {
    ^bb0(%f0_i9: index, %f0_j10: index):
      tensor.yield %f0_zero8 : f32
    } : tensor<16x32xf32> to tensor<19x32xf32>
    %f0_e11 = tensor.empty() : tensor<19x1xf32>
    %f0_zero13 = arith.constant 0.0 : f32
    %f0_z12 = linalg.fill ins(%f0_zero13 : f32) outs(%f0_e11 : tensor<19x1xf32>) -> tensor<19x1xf32>
    %f0_v14 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]} ins(%f0_v7 : tensor<19x32xf32>) outs(%f0_z12 : tensor<19x1xf32>) {
    ^bb0(%f0_a15: f32, %f0_o16: f32):
      %f0_t17 = arith.addf %f0_a15, %f0_o16 : f32
      linalg.yield %f0_t17 : f32
    } -> tensor<19x1xf32>
    %f0_lo19 = arith.constant 0.0 : f64
    %f0_hi20 = arith.constant 1.0 : f64
    %f0_sd21 = arith.constant 830 : i32
    %f0_e22 = tensor.empty() : tensor<19x1xf32>
    %f0_u18 = linalg.fill_rng_2d ins(%f0_lo19, %f0_hi20, %f0_sd21 : f64, f64, i32) outs(%f0_e22 : tensor<19x1xf32>) -> tensor<19x1xf32>
    %f0_e23 = tensor.empty() : tensor<19x1xf32>
    %f0_v24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v14, %f0_u18 : tensor<19x1xf32>, tensor<19x1xf32>) outs(%f0_e23 : tensor<19x1xf32>) {
    ^bb0(%f0_a25: f32, %f0_a26: f32, %f0_o27: f32):
      %f0_t29 = arith.constant 0.75 : f32
      %f0_t30 = arith.constant 4.0 : f32
      %f0_t31 = arith.constant 0.0 : f32
      %f0_t28 = arith.cmpf oge, %f0_a26, %f0_t29 : f32
      %f0_t32 = arith.select %f0_t28, %f0_t30, %f0_t31 : f32
      %f0_t32y = arith.mulf %f0_a25, %f0_t32 : f32
      linalg.yield %f0_t32y : f32
    } -> tensor<19x1xf32>
    %f0_v33 = tensor.extract_slice %f0_v24[3, 0] [9, 1] [1, 1] : tensor<19x1xf32> to tensor<9x1xf32>
    %f0_e34 = tensor.empty() : tensor<11x1xf32>
    %f0_zero36 = arith.constant 0.0 : f32
    %f0_z35 = linalg.fill ins(%f0_zero36 : f32) outs(%f0_e34 : tensor<11x1xf32>) -> tensor<11x1xf32>
    %f0_v37 = tensor.insert_slice %f0_v33 into %f0_z35[2, 0] [9, 1] [1, 1] : tensor<9x1xf32> into tensor<11x1xf32>
    %f0_e38 = tensor.empty() : tensor<1x9xf32>
    %f0_v39 = linalg.transpose ins(%f0_v33 : tensor<9x1xf32>) outs(%f0_e38 : tensor<1x9xf32>) permutation = [1, 0]
    %f0_lb40 = arith.constant 0 : index
    %f0_ub41 = arith.constant 1 : index
    %f0_s142 = arith.constant 1 : index
    %f0_v43 = scf.for %f0_iv44 = %f0_lb40 to %f0_ub41 step %f0_s142 iter_args(%f0_it45 = %f0_v33) -> (tensor<9x1xf32>) {
    %f0_v46 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%f0_it45 : tensor<9x1xf32>) {
    ^bb0(%f0_o47: f32):
      %f0_t48 = math.tanh %f0_o47 : f32
      linalg.yield %f0_t48 : f32
    } -> tensor<9x1xf32>
    scf.yield %f0_v46 : tensor<9x1xf32>
    }
    %f0_v51 = tensor.collapse_shape %f0_v2 [[0, 1]] : tensor<32x16xf32> into tensor<512xf32>
    %f0_v52 = tensor.expand_shape %f0_v51 [[0, 1]] output_shape [64, 8] : tensor<512xf32> into tensor<64x8xf32>
    %f0_zero54 = arith.constant 0.0 : f32
    %f0_v53 = tensor.pad %f0_v52 low[2, 1] high[0, 2] {
    ^bb0(%f0_i55: index, %f0_j56: index):
      tensor.yield %f0_zero54 : f32
    } : tensor<64x8xf32> to tensor<66x11xf32>
    %f0_e57 = tensor.empty() : tensor<f32>
    %f0_zero59 = arith.constant 0.0 : f32
    %f0_z58 = linalg.fill ins(%f0_zero59 : f32) outs(%f0_e57 : tensor<f32>) -> tensor<f32>
    %f0_v60 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v37 : tensor<11x1xf32>) outs(%f0_z58 : tensor<f32>) {
    ^bb0(%f0_a61: f32, %f0_o62: f32):
      %f0_t63 = arith.mulf %f0_a61, %f0_a61 : f32
      %f0_t64 = arith.addf %f0_o62, %f0_t63 : f32
      linalg.yield %f0_t64 : f32
    } -> tensor<f32>
    %f0_v65 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v39 : tensor<1x9xf32>) outs(%f0_v60 : tensor<f32>) {
    ^bb0(%f0_a66: f32, %f0_o67: f32):
      %f0_t68 = arith.mulf %f0_a66, %f0_a66 : f32
      %f0_t69 = arith.addf %f0_o67, %f0_t68 : f32
      linalg.yield %f0_t69 : f32
    } -> tensor<f32>
    %f0_v70 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v43 : tensor<9x1xf32>) outs(%f0_v65 : tensor<f32>) {
    ^bb0(%f0_a71: f32, %f0_o72: f32):
      %f0_t73 = arith.mulf %f0_a71, %f0_a71 : f32
      %f0_t74 = arith.addf %f0_o72, %f0_t73 : f32
      linalg.yield %f0_t74 : f32
    } -> tensor<f32>
    %f0_v75 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v53 : tensor<66x11xf32>) outs(%f0_v70 : tensor<f32>) {
    ^bb0(%f0_a76: f32, %f0_o77: f32):
      %f0_t78 = arith.mulf %f0_a76, %f0_a76 : f32
      %f0_t79 = arith.addf %f0_o77, %f0_t78 : f32
      linalg.yield %f0_t79 : f32
    } -> tensor<f32>
    %f0_e80 = tensor.empty() : tensor<11x1xf32>
    %f0_v81 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v37, %f0_dl : tensor<11x1xf32>, tensor<f32>) outs(%f0_e80 : tensor<11x1xf32>) {
    ^bb0(%f0_a82: f32, %f0_a83: f32, %f0_o84: f32):
      %f0_t87 = arith.constant 2.0 : f32
      %f0_t85 = arith.mulf %f0_a82, %f0_t87 : f32
      %f0_t86 = arith.mulf %f0_t85, %f0_a83 : f32
      linalg.yield %f0_t86 : f32
    } -> tensor<11x1xf32>
    %f0_e88 = tensor.empty() : tensor<1x9xf32>
    %f0_v89 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v39, %f0_dl : tensor<1x9xf32>, tensor<f32>) outs(%f0_e88 : tensor<1x9xf32>) {
    ^bb0(%f0_a90: f32, %f0_a91: f32, %f0_o92: f32):
      %f0_t95 = arith.constant 2.0 : f32
      %f0_t93 = arith.mulf %f0_a90, %f0_t95 : f32
      %f0_t94 = arith.mulf %f0_t93, %f0_a91 : f32
      linalg.yield %f0_t94 : f32
    } -> tensor<1x9xf32>
    %f0_e96 = tensor.empty() : tensor<9x1xf32>
    %f0_v97 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v43, %f0_dl : tensor<9x1xf32>, tensor<f32>) outs(%f0_e96 : tensor<9x1xf32>) {
    ^bb0(%f0_a98: f32, %f0_a99: f32, %f0_o100: f32):
      %f0_t103 = arith.constant 2.0 : f32
      %f0_t101 = arith.mulf %f0_a98, %f0_t103 : f32
      %f0_t102 = arith.mulf %f0_t101, %f0_a99 : f32
      linalg.yield %f0_t102 : f32
    } -> tensor<9x1xf32>
    %f0_e104 = tensor.empty() : tensor<66x11xf32>
    %f0_v105 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v53, %f0_dl : tensor<66x11xf32>, tensor<f32>) outs(%f0_e104 : tensor<66x11xf32>) {
    ^bb0(%f0_a106: f32, %f0_a107: f32, %f0_o108: f32):
      %f0_t111 = arith.constant 2.0 : f32
      %f0_t109 = arith.mulf %f0_a106, %f0_t111 : f32
      %f0_t110 = arith.mulf %f0_t109, %f0_a107 : f32
      linalg.yield %f0_t110 : f32
    } -> tensor<66x11xf32>
    %f0_v112 = tensor.extract_slice %f0_v105[2, 1] [64, 8] [1, 1] : tensor<66x11xf32> to tensor<64x8xf32>
    %f0_v113 = tensor.collapse_shape %f0_v112 [[0, 1]] : tensor<64x8xf32> into tensor<512xf32>
    %f0_v114 = tensor.expand_shape %f0_v113 [[0, 1]] output_shape [32, 16] : tensor<512xf32> into tensor<32x16xf32>
    %f0_lb115 = arith.constant 0 : index
    %f0_ub116 = arith.constant 2 : index
    %f0_s1117 = arith.constant 1 : index
    %f0_v118 = scf.for %f0_iv119 = %f0_lb115 to %f0_ub116 step %f0_s1117 iter_args(%f0_it120 = %f0_v97) -> (tensor<9x1xf32>) {
    %f0_v121 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v43 : tensor<9x1xf32>) outs(%f0_it120 : tensor<9x1xf32>) {
    ^bb0(%f0_a122: f32, %f0_o123: f32):
      %f0_t124 = arith.mulf %f0_a122, %f0_o123 : f32
      linalg.yield %f0_t124 : f32
    } -> tensor<9x1xf32>
    scf.yield %f0_v121 : tensor<9x1xf32>
    }
    %f0_e125 = tensor.empty() : tensor<9x1xf32>
    %f0_v126 = linalg.transpose ins(%f0_v89 : tensor<1x9xf32>) outs(%f0_e125 : tensor<9x1xf32>) permutation = [1, 0]
    %f0_e127 = tensor.empty() : tensor<9x1xf32>
    %f0_v128 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v118, %f0_v126 : tensor<9x1xf32>, tensor<9x1xf32>) outs(%f0_e127 : tensor<9x1xf32>) {
    ^bb0(%f0_a129: f32, %f0_a130: f32, %f0_o131: f32):
      %f0_t132 = arith.addf %f0_a129, %f0_a130 : f32
      linalg.yield %f0_t132 : f32
    } -> tensor<9x1xf32>
    %f0_v133 = tensor.extract_slice %f0_v81[2, 0] [9, 1] [1, 1] : tensor<11x1xf32> to tensor<9x1xf32>
    %f0_e134 = tensor.empty() : tensor<9x1xf32>
    %f0_v135 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v128, %f0_v133 : tensor<9x1xf32>, tensor<9x1xf32>) outs(%f0_e134 : tensor<9x1xf32>) {
    ^bb0(%f0_a136: f32, %f0_a137: f32, %f0_o138: f32):
      %f0_t139 = arith.addf %f0_a136, %f0_a137 : f32
      linalg.yield %f0_t139 : f32
    } -> tensor<9x1xf32>
    %f0_zero141 = arith.constant 0.0 : f32
    %f0_v140 = tensor.pad %f0_v135 low[3, 0] high[7, 0] {
    ^bb0(%f0_i142: index, %f0_j143: index):
      tensor.yield %f0_zero141 : f32
    } : tensor<9x1xf32> to tensor<19x1xf32>
    %f0_e144 = tensor.empty() : tensor<19x1xf32>
    %f0_v145 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v140, %f0_u18 : tensor<19x1xf32>, tensor<19x1xf32>) outs(%f0_e144 : tensor<19x1xf32>) {
    ^bb0(%f0_a146: f32, %f0_a147: f32, %f0_o148: f32):
      %f0_t149 = arith.mulf %f0_a146, %f0_a147 : f32
      linalg.yield %f0_t149 : f32
    } -> tensor<19x1xf32>
    %f0_e150 = tensor.empty() : tensor<19x32xf32>
    %f0_v151 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v145, %f0_v7 : tensor<19x1xf32>, tensor<19x32xf32>) outs(%f0_e150 : tensor<19x32xf32>) {
    ^bb0(%f0_a152: f32, %f0_a153: f32, %f0_o154: f32):
      %f0_t155 = arith.mulf %f0_a152, %f0_a153 : f32
      linalg.yield %f0_t155 : f32
    } -> tensor<19x32xf32>
    %f0_v156 = tensor.extract_slice %f0_v151[2, 0] [16, 32] [1, 1] : tensor<19x32xf32> to tensor<16x32xf32>
    %f0_e157 = tensor.empty() : tensor<32x16xf32>
    %f0_v158 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v114 : tensor<32x16xf32>) outs(%f0_e157 : tensor<32x16xf32>) {
    ^bb0(%f0_a159: f32, %f0_o160: f32):
      %f0_t162 = arith.constant 0.5 : f32
      %f0_t161 = arith.mulf %f0_a159, %f0_t162 : f32
      linalg.yield %f0_t161 : f32
    } -> tensor<32x16xf32>
    %f0_e163 = tensor.empty() : tensor<32x16xf32>
    %f0_v164 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v114, %f0_v158 : tensor<32x16xf32>, tensor<32x16xf32>) outs(%f0_e163 : tensor<32x16xf32>) {
    ^bb0(%f0_a165: f32, %f0_a166: f32, %f0_o167: f32):
      %f0_t168 = arith.addf %f0_a165, %f0_a166 : f32
      linalg.yield %f0_t168 : f32
    } -> tensor<32x16xf32>
    %f0_e169 = tensor.empty() : tensor<16x32xf32>
    %f0_v170 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v156 : tensor<16x32xf32>) outs(%f0_e169 : tensor<16x32xf32>) {
    ^bb0(%f0_a171: f32, %f0_o172: f32):
      %f0_t174 = arith.constant 0.5 : f32
      %f0_t173 = arith.mulf %f0_a171, %f0_t174 : f32
      linalg.yield %f0_t173 : f32
    } -> tensor<16x32xf32>
    return %f0_v75, %f0_v164, %f0_v170 : tensor<f32>, tensor<32x16xf32>, tensor<16x32xf32>
  }
}
