// Differential tester, seed 7075 (found on 2026-12-07, shrunk; present
// before that day's changes, checked on 6fa310f): the whole program, with
// every strategy (greedy, beam, ilp) at every budget, measured 160-168 B
// (+2.6-3.2 %) above the simulated peak in the compiled CPU program; this
// shrunk case (greedy, no budget) 6408 B against 6248.  It reads views
// (collapse -> expand -> extract_slice) of an argument, calls a helper on
// it and draws random numbers.  Cause not yet traced: kept as an expected
// failure so that the fix flips it (XPASS fails the suite).
//
// XFAIL: *
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 7075: peak-above-sim (measured 6408, simulated 6248 (+2.56%; harness slack 0 B))
// config: {"strategy": "greedy", "budget_spec": null, "budget": null, "rng": "keep"}
module {
  func.func @f0(%f0_x: tensor<24x8xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<24x8xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_v1 = tensor.collapse_shape %f0_x [[0, 1]] : tensor<24x8xf32> into tensor<192xf32>
    %f0_v2 = tensor.expand_shape %f0_v1 [[0, 1]] output_shape [32, 6] : tensor<192xf32> into tensor<32x6xf32>
    %f0_v9 = func.call @helper1(%f0_x) : (tensor<24x8xf32>) -> tensor<24x8xf32>
    %f0_v10 = tensor.extract_slice %f0_v2[2, 1] [30, 5] [1, 1] : tensor<32x6xf32> to tensor<30x5xf32>
    %f0_lo12 = arith.constant dense<0.0> : tensor<f32>
    %f0_hi13 = arith.constant dense<1.0> : tensor<f32>
    %f0_sh14 = arith.constant dense<[24, 8]> : tensor<2xi64>
    %f0_u11 = "stablehlo.rng"(%f0_lo12, %f0_hi13, %f0_sh14) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<24x8xf32>
    %f0_e15 = tensor.empty() : tensor<24x8xf32>
    %f0_v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v9, %f0_u11 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e15 : tensor<24x8xf32>) {
    ^bb0(%f0_a17: f32, %f0_a18: f32, %f0_o19: f32):
      %f0_t21 = arith.constant 0.25 : f32
      %f0_t22 = arith.constant 1.3333333333333333 : f32
      %f0_t23 = arith.constant 0.0 : f32
      %f0_t20 = arith.cmpf oge, %f0_a18, %f0_t21 : f32
      %f0_t24 = arith.select %f0_t20, %f0_t22, %f0_t23 : f32
      %f0_t24y = arith.mulf %f0_a17, %f0_t24 : f32
      linalg.yield %f0_t24y : f32
    } -> tensor<24x8xf32>
    %f0_e25 = tensor.empty() : tensor<30x5xf32>
    %f0_v26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v10, %f0_v10 : tensor<30x5xf32>, tensor<30x5xf32>) outs(%f0_e25 : tensor<30x5xf32>) {
    ^bb0(%f0_a27: f32, %f0_a28: f32, %f0_o29: f32):
      %f0_t30 = arith.addf %f0_a27, %f0_a28 : f32
      linalg.yield %f0_t30 : f32
    } -> tensor<30x5xf32>
    %f0_v31 = tensor.collapse_shape %f0_v10 [[0, 1]] : tensor<30x5xf32> into tensor<150xf32>
    %f0_v32 = tensor.expand_shape %f0_v31 [[0, 1]] output_shape [50, 3] : tensor<150xf32> into tensor<50x3xf32>
    %f0_v33 = tosa.sub %f0_v26, %f0_v10 : (tensor<30x5xf32>, tensor<30x5xf32>) -> tensor<30x5xf32>
    %f0_lb34 = arith.constant 0 : index
    %f0_ub35 = arith.constant 2 : index
    %f0_s136 = arith.constant 1 : index
    %f0_v37 = scf.for %f0_iv38 = %f0_lb34 to %f0_ub35 step %f0_s136 iter_args(%f0_it39 = %f0_v32) -> (tensor<50x3xf32>) {
    %f0_v40 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%f0_it39 : tensor<50x3xf32>) {
    ^bb0(%f0_o41: f32):
      %f0_t42 = math.tanh %f0_o41 : f32
      linalg.yield %f0_t42 : f32
    } -> tensor<50x3xf32>
    scf.yield %f0_v40 : tensor<50x3xf32>
    }
    %f0_e45 = tensor.empty() : tensor<f32>
    %f0_zero47 = arith.constant 0.0 : f32
    %f0_z46 = linalg.fill ins(%f0_zero47 : f32) outs(%f0_e45 : tensor<f32>) -> tensor<f32>
    %f0_v48 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v16 : tensor<24x8xf32>) outs(%f0_z46 : tensor<f32>) {
    ^bb0(%f0_a49: f32, %f0_o50: f32):
      %f0_t51 = arith.mulf %f0_a49, %f0_a49 : f32
      %f0_t52 = arith.addf %f0_o50, %f0_t51 : f32
      linalg.yield %f0_t52 : f32
    } -> tensor<f32>
    %f0_v53 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v33 : tensor<30x5xf32>) outs(%f0_v48 : tensor<f32>) {
    ^bb0(%f0_a54: f32, %f0_o55: f32):
      %f0_t56 = arith.mulf %f0_a54, %f0_a54 : f32
      %f0_t57 = arith.addf %f0_o55, %f0_t56 : f32
      linalg.yield %f0_t57 : f32
    } -> tensor<f32>
    %f0_v58 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v37 : tensor<50x3xf32>) outs(%f0_v53 : tensor<f32>) {
    ^bb0(%f0_a59: f32, %f0_o60: f32):
      %f0_t61 = arith.mulf %f0_a59, %f0_a59 : f32
      %f0_t62 = arith.addf %f0_o60, %f0_t61 : f32
      linalg.yield %f0_t62 : f32
    } -> tensor<f32>
    %f0_e63 = tensor.empty() : tensor<24x8xf32>
    %f0_v64 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v16, %f0_dl : tensor<24x8xf32>, tensor<f32>) outs(%f0_e63 : tensor<24x8xf32>) {
    ^bb0(%f0_a65: f32, %f0_a66: f32, %f0_o67: f32):
      %f0_t70 = arith.constant 2.0 : f32
      %f0_t68 = arith.mulf %f0_a65, %f0_t70 : f32
      %f0_t69 = arith.mulf %f0_t68, %f0_a66 : f32
      linalg.yield %f0_t69 : f32
    } -> tensor<24x8xf32>
    %f0_e71 = tensor.empty() : tensor<30x5xf32>
    %f0_v72 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v33, %f0_dl : tensor<30x5xf32>, tensor<f32>) outs(%f0_e71 : tensor<30x5xf32>) {
    ^bb0(%f0_a73: f32, %f0_a74: f32, %f0_o75: f32):
      %f0_t78 = arith.constant 2.0 : f32
      %f0_t76 = arith.mulf %f0_a73, %f0_t78 : f32
      %f0_t77 = arith.mulf %f0_t76, %f0_a74 : f32
      linalg.yield %f0_t77 : f32
    } -> tensor<30x5xf32>
    %f0_e79 = tensor.empty() : tensor<50x3xf32>
    %f0_v80 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v37, %f0_dl : tensor<50x3xf32>, tensor<f32>) outs(%f0_e79 : tensor<50x3xf32>) {
    ^bb0(%f0_a81: f32, %f0_a82: f32, %f0_o83: f32):
      %f0_t86 = arith.constant 2.0 : f32
      %f0_t84 = arith.mulf %f0_a81, %f0_t86 : f32
      %f0_t85 = arith.mulf %f0_t84, %f0_a82 : f32
      linalg.yield %f0_t85 : f32
    } -> tensor<50x3xf32>
    %f0_e87 = tensor.empty() : tensor<50x3xf32>
    %f0_v88 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v80, %f0_v37 : tensor<50x3xf32>, tensor<50x3xf32>) outs(%f0_e87 : tensor<50x3xf32>) {
    ^bb0(%f0_a89: f32, %f0_a90: f32, %f0_o91: f32):
      %f0_t92 = arith.mulf %f0_a89, %f0_a90 : f32
      linalg.yield %f0_t92 : f32
    } -> tensor<50x3xf32>
    %f0_e93 = tensor.empty() : tensor<30x5xf32>
    %f0_v94 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v72 : tensor<30x5xf32>) outs(%f0_e93 : tensor<30x5xf32>) {
    ^bb0(%f0_a95: f32, %f0_o96: f32):
      %f0_t98 = arith.constant 0.5 : f32
      %f0_t97 = arith.mulf %f0_a95, %f0_t98 : f32
      linalg.yield %f0_t97 : f32
    } -> tensor<30x5xf32>
    %f0_v99 = tensor.collapse_shape %f0_v88 [[0, 1]] : tensor<50x3xf32> into tensor<150xf32>
    %f0_v100 = tensor.expand_shape %f0_v99 [[0, 1]] output_shape [30, 5] : tensor<150xf32> into tensor<30x5xf32>
    %f0_e101 = tensor.empty() : tensor<30x5xf32>
    %f0_v102 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v94, %f0_v100 : tensor<30x5xf32>, tensor<30x5xf32>) outs(%f0_e101 : tensor<30x5xf32>) {
    ^bb0(%f0_a103: f32, %f0_a104: f32, %f0_o105: f32):
      %f0_t106 = arith.addf %f0_a103, %f0_a104 : f32
      linalg.yield %f0_t106 : f32
    } -> tensor<30x5xf32>
    %f0_e107 = tensor.empty() : tensor<30x5xf32>
    %f0_v108 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v102, %f0_v72 : tensor<30x5xf32>, tensor<30x5xf32>) outs(%f0_e107 : tensor<30x5xf32>) {
    ^bb0(%f0_a109: f32, %f0_a110: f32, %f0_o111: f32):
      %f0_t112 = arith.addf %f0_a109, %f0_a110 : f32
      linalg.yield %f0_t112 : f32
    } -> tensor<30x5xf32>
    %f0_e113 = tensor.empty() : tensor<30x5xf32>
    %f0_v114 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v108, %f0_v72 : tensor<30x5xf32>, tensor<30x5xf32>) outs(%f0_e113 : tensor<30x5xf32>) {
    ^bb0(%f0_a115: f32, %f0_a116: f32, %f0_o117: f32):
      %f0_t118 = arith.addf %f0_a115, %f0_a116 : f32
      linalg.yield %f0_t118 : f32
    } -> tensor<30x5xf32>
    %f0_e119 = tensor.empty() : tensor<24x8xf32>
    %f0_v120 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v64, %f0_u11 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e119 : tensor<24x8xf32>) {
    ^bb0(%f0_a121: f32, %f0_a122: f32, %f0_o123: f32):
      %f0_t124 = arith.mulf %f0_a121, %f0_a122 : f32
      linalg.yield %f0_t124 : f32
    } -> tensor<24x8xf32>
    %f0_zero126 = arith.constant 0.0 : f32
    %f0_v125 = tensor.pad %f0_v114 low[2, 1] high[0, 0] {
    ^bb0(%f0_i127: index, %f0_j128: index):
      tensor.yield %f0_zero126 : f32
    } : tensor<30x5xf32> to tensor<32x6xf32>
    %f0_e129 = tensor.empty() : tensor<24x8xf32>
    %f0_v130 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v120, %f0_v9 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e129 : tensor<24x8xf32>) {
    ^bb0(%f0_a131: f32, %f0_a132: f32, %f0_o133: f32):
      %f0_t134 = arith.mulf %f0_a131, %f0_a132 : f32
      linalg.yield %f0_t134 : f32
    } -> tensor<24x8xf32>
    %f0_v135 = tensor.collapse_shape %f0_v125 [[0, 1]] : tensor<32x6xf32> into tensor<192xf32>
    %f0_v136 = tensor.expand_shape %f0_v135 [[0, 1]] output_shape [24, 8] : tensor<192xf32> into tensor<24x8xf32>
    %f0_e137 = tensor.empty() : tensor<24x8xf32>
    %f0_v138 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v130, %f0_v136 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e137 : tensor<24x8xf32>) {
    ^bb0(%f0_a139: f32, %f0_a140: f32, %f0_o141: f32):
      %f0_t142 = arith.addf %f0_a139, %f0_a140 : f32
      linalg.yield %f0_t142 : f32
    } -> tensor<24x8xf32>
    return %f0_v58, %f0_v138 : tensor<f32>, tensor<24x8xf32>
  }
  func.func private @helper1(%h1_in0: tensor<24x8xf32>) -> tensor<24x8xf32> {
    %h1_e3 = tensor.empty() : tensor<24x8xf32>
    %h1_v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1_in0 : tensor<24x8xf32>) outs(%h1_e3 : tensor<24x8xf32>) {
    ^bb0(%h1_a5: f32, %h1_o6: f32):
      %h1_t8 = arith.constant 0.0 : f32
      %h1_t7 = arith.maximumf %h1_a5, %h1_t8 : f32
      linalg.yield %h1_t7 : f32
    } -> tensor<24x8xf32>
    return %h1_v4 : tensor<24x8xf32>
  }
}
