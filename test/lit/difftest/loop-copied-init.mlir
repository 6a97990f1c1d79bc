// Differential tester, seed 6002917 (found by the fifteenth session's
// 5000-program run on 0a4718f; peak-below-sim, -6.2 % shrunk): the
// backward reruns a loop with body temporaries on a saved init that it
// reads no more.  Bufferization copies the init (the saved argument is
// not writable) and auto-ac-free-at-last-use frees it right after the
// copy, before the body's temporaries; the simulator keeps it through
// the loop.  Now compiled_peak says "at most" for such loops (an upper
// bound, never over the budget), and the tester accepts a program below
// it; exact counting would need the simulator, greedy's incremental
// profile and the ILP to free a copied init inside the op's step.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 6002917: peak-below-sim (measured 14596, simulated 15560 (-6.20%; harness slack 0 B))
// config: {"strategy": "greedy", "budget_spec": "lowest", "budget": 1, "rng": "keep"}
module {
  func.func @f0(%f0_x: tensor<16x24xf32>, %f0_p0: tensor<24xf32> {ac.param}, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<16x24xf32> {ac.grad}, tensor<24xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_v7 = func.call @helper1(%f0_x) : (tensor<16x24xf32>) -> tensor<16x24xf32>
    %f0_cond8 = arith.constant true
    %f0_v9 = scf.if %f0_cond8 -> (tensor<16x24xf32>) {
    %f0_e10 = tensor.empty() : tensor<16x24xf32>
    %f0_v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_x : tensor<16x24xf32>) outs(%f0_e10 : tensor<16x24xf32>) {
    ^bb0(%f0_a12: f32, %f0_o13: f32):
      %f0_t15 = math.absf %f0_a12 : f32
      %f0_t16 = arith.constant 1.0 : f32
      %f0_t14 = arith.addf %f0_t15, %f0_t16 : f32
      %f0_t15d = arith.divf %f0_a12, %f0_t14 : f32
      linalg.yield %f0_t15d : f32
    } -> tensor<16x24xf32>
    scf.yield %f0_v11 : tensor<16x24xf32>
    } else {
    %f0_e17 = tensor.empty() : tensor<16x24xf32>
    %f0_v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_x : tensor<16x24xf32>) outs(%f0_e17 : tensor<16x24xf32>) {
    ^bb0(%f0_a19: f32, %f0_o20: f32):
      %f0_t22 = math.absf %f0_a19 : f32
      %f0_t23 = arith.constant 1.0 : f32
      %f0_t21 = arith.addf %f0_t22, %f0_t23 : f32
      %f0_t22d = arith.divf %f0_a19, %f0_t21 : f32
      linalg.yield %f0_t22d : f32
    } -> tensor<16x24xf32>
    %f0_e24 = tensor.empty() : tensor<16x24xf32>
    %f0_v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v18 : tensor<16x24xf32>) outs(%f0_e24 : tensor<16x24xf32>) {
    ^bb0(%f0_a26: f32, %f0_o27: f32):
      %f0_t28 = math.sin %f0_a26 : f32
      linalg.yield %f0_t28 : f32
    } -> tensor<16x24xf32>
    scf.yield %f0_v25 : tensor<16x24xf32>
    }
    %f0_lb30 = arith.constant 0 : index
    %f0_ub31 = arith.constant 3 : index
    %f0_s132 = arith.constant 1 : index
    %f0_v33 = scf.for %f0_iv34 = %f0_lb30 to %f0_ub31 step %f0_s132 iter_args(%f0_it35 = %f0_v7) -> (tensor<16x24xf32>) {
    %f0_e36 = tensor.empty() : tensor<16x24xf32>
    %f0_v37 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v9 : tensor<16x24xf32>) outs(%f0_e36 : tensor<16x24xf32>) {
    ^bb0(%f0_a38: f32, %f0_o39: f32):
      %f0_t40 = math.tanh %f0_a38 : f32
      linalg.yield %f0_t40 : f32
    } -> tensor<16x24xf32>
    %f0_e42 = tensor.empty() : tensor<16x24xf32>
    %f0_v43 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v37 : tensor<16x24xf32>) outs(%f0_e42 : tensor<16x24xf32>) {
    ^bb0(%f0_a44: f32, %f0_o45: f32):
      %f0_t47 = arith.constant 0.0 : f32
      %f0_t46 = arith.maximumf %f0_a44, %f0_t47 : f32
      linalg.yield %f0_t46 : f32
    } -> tensor<16x24xf32>
    %f0_v48 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v37, %f0_v43 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_it35 : tensor<16x24xf32>) {
    ^bb0(%f0_a49: f32, %f0_a50: f32, %f0_o51: f32):
      %f0_t52 = arith.addf %f0_o51, %f0_a49 : f32
      %f0_t53 = arith.addf %f0_t52, %f0_a50 : f32
      %f0_t54 = arith.constant 0.5 : f32
      %f0_t55 = arith.mulf %f0_t53, %f0_t54 : f32
      linalg.yield %f0_t55 : f32
    } -> tensor<16x24xf32>
    scf.yield %f0_v48 : tensor<16x24xf32>
    }
    %f0_e56 = tensor.empty() : tensor<16x24xf32>
    %f0_v57 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v33, %f0_p0 : tensor<16x24xf32>, tensor<24xf32>) outs(%f0_e56 : tensor<16x24xf32>) {
    ^bb0(%f0_a58: f32, %f0_a59: f32, %f0_o60: f32):
      %f0_t61 = arith.addf %f0_a58, %f0_a59 : f32
      linalg.yield %f0_t61 : f32
    } -> tensor<16x24xf32>
    %f0_lo63 = arith.constant dense<0.0> : tensor<f32>
    %f0_hi64 = arith.constant dense<1.0> : tensor<f32>
    %f0_sh65 = arith.constant dense<[16, 24]> : tensor<2xi64>
    %f0_u62 = "stablehlo.rng"(%f0_lo63, %f0_hi64, %f0_sh65) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<16x24xf32>
    %f0_e66 = tensor.empty() : tensor<16x24xf32>
    %f0_v67 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v57, %f0_u62 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e66 : tensor<16x24xf32>) {
    ^bb0(%f0_a68: f32, %f0_a69: f32, %f0_o70: f32):
      %f0_t72 = arith.constant 0.5 : f32
      %f0_t73 = arith.constant 2.0 : f32
      %f0_t74 = arith.constant 0.0 : f32
      %f0_t71 = arith.cmpf oge, %f0_a69, %f0_t72 : f32
      %f0_t75 = arith.select %f0_t71, %f0_t73, %f0_t74 : f32
      %f0_t75y = arith.mulf %f0_a68, %f0_t75 : f32
      linalg.yield %f0_t75y : f32
    } -> tensor<16x24xf32>
    %f0_e76 = tensor.empty() : tensor<16x24xf32>
    %f0_v77 = linalg.mul ins(%f0_v57, %f0_v67 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e76 : tensor<16x24xf32>) -> tensor<16x24xf32>
    %f0_v78 = tensor.extract_slice %f0_v67[4, 0] [11, 13] [1, 1] : tensor<16x24xf32> to tensor<11x13xf32>
    %f0_lo80 = arith.constant dense<0.0> : tensor<f32>
    %f0_hi81 = arith.constant dense<1.0> : tensor<f32>
    %f0_sh82 = arith.constant dense<[16, 24]> : tensor<2xi64>
    %f0_u79 = "stablehlo.rng"(%f0_lo80, %f0_hi81, %f0_sh82) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<16x24xf32>
    %f0_e83 = tensor.empty() : tensor<16x24xf32>
    %f0_v84 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v77, %f0_u79 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e83 : tensor<16x24xf32>) {
    ^bb0(%f0_a85: f32, %f0_a86: f32, %f0_o87: f32):
      %f0_t89 = arith.constant 0.25 : f32
      %f0_t90 = arith.constant 1.3333333333333333 : f32
      %f0_t91 = arith.constant 0.0 : f32
      %f0_t88 = arith.cmpf oge, %f0_a86, %f0_t89 : f32
      %f0_t92 = arith.select %f0_t88, %f0_t90, %f0_t91 : f32
      %f0_t92y = arith.mulf %f0_a85, %f0_t92 : f32
      linalg.yield %f0_t92y : f32
    } -> tensor<16x24xf32>
    %f0_e93 = tensor.empty() : tensor<f32>
    %f0_zero95 = arith.constant 0.0 : f32
    %f0_z94 = linalg.fill ins(%f0_zero95 : f32) outs(%f0_e93 : tensor<f32>) -> tensor<f32>
    %f0_v96 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v78 : tensor<11x13xf32>) outs(%f0_z94 : tensor<f32>) {
    ^bb0(%f0_a97: f32, %f0_o98: f32):
      %f0_t99 = arith.mulf %f0_a97, %f0_a97 : f32
      %f0_t100 = arith.addf %f0_o98, %f0_t99 : f32
      linalg.yield %f0_t100 : f32
    } -> tensor<f32>
    %f0_v101 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v84 : tensor<16x24xf32>) outs(%f0_v96 : tensor<f32>) {
    ^bb0(%f0_a102: f32, %f0_o103: f32):
      %f0_t104 = arith.mulf %f0_a102, %f0_a102 : f32
      %f0_t105 = arith.addf %f0_o103, %f0_t104 : f32
      linalg.yield %f0_t105 : f32
    } -> tensor<f32>
    %f0_e106 = tensor.empty() : tensor<11x13xf32>
    %f0_v107 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v78, %f0_dl : tensor<11x13xf32>, tensor<f32>) outs(%f0_e106 : tensor<11x13xf32>) {
    ^bb0(%f0_a108: f32, %f0_a109: f32, %f0_o110: f32):
      %f0_t113 = arith.constant 2.0 : f32
      %f0_t111 = arith.mulf %f0_a108, %f0_t113 : f32
      %f0_t112 = arith.mulf %f0_t111, %f0_a109 : f32
      linalg.yield %f0_t112 : f32
    } -> tensor<11x13xf32>
    %f0_e114 = tensor.empty() : tensor<16x24xf32>
    %f0_v115 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v84, %f0_dl : tensor<16x24xf32>, tensor<f32>) outs(%f0_e114 : tensor<16x24xf32>) {
    ^bb0(%f0_a116: f32, %f0_a117: f32, %f0_o118: f32):
      %f0_t121 = arith.constant 2.0 : f32
      %f0_t119 = arith.mulf %f0_a116, %f0_t121 : f32
      %f0_t120 = arith.mulf %f0_t119, %f0_a117 : f32
      linalg.yield %f0_t120 : f32
    } -> tensor<16x24xf32>
    %f0_e122 = tensor.empty() : tensor<16x24xf32>
    %f0_v123 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v115, %f0_u79 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e122 : tensor<16x24xf32>) {
    ^bb0(%f0_a124: f32, %f0_a125: f32, %f0_o126: f32):
      %f0_t127 = arith.mulf %f0_a124, %f0_a125 : f32
      linalg.yield %f0_t127 : f32
    } -> tensor<16x24xf32>
    %f0_zero129 = arith.constant 0.0 : f32
    %f0_v128 = tensor.pad %f0_v107 low[4, 0] high[1, 11] {
    ^bb0(%f0_i130: index, %f0_j131: index):
      tensor.yield %f0_zero129 : f32
    } : tensor<11x13xf32> to tensor<16x24xf32>
    %f0_e132 = tensor.empty() : tensor<16x24xf32>
    %f0_v133 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v123, %f0_v67 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e132 : tensor<16x24xf32>) {
    ^bb0(%f0_a134: f32, %f0_a135: f32, %f0_o136: f32):
      %f0_t137 = arith.mulf %f0_a134, %f0_a135 : f32
      linalg.yield %f0_t137 : f32
    } -> tensor<16x24xf32>
    %f0_e138 = tensor.empty() : tensor<16x24xf32>
    %f0_v139 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v123, %f0_v57 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e138 : tensor<16x24xf32>) {
    ^bb0(%f0_a140: f32, %f0_a141: f32, %f0_o142: f32):
      %f0_t143 = arith.mulf %f0_a140, %f0_a141 : f32
      linalg.yield %f0_t143 : f32
    } -> tensor<16x24xf32>
    %f0_e144 = tensor.empty() : tensor<16x24xf32>
    %f0_v145 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v128, %f0_v139 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e144 : tensor<16x24xf32>) {
    ^bb0(%f0_a146: f32, %f0_a147: f32, %f0_o148: f32):
      %f0_t149 = arith.addf %f0_a146, %f0_a147 : f32
      linalg.yield %f0_t149 : f32
    } -> tensor<16x24xf32>
    %f0_e150 = tensor.empty() : tensor<16x24xf32>
    %f0_v151 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v145, %f0_u62 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e150 : tensor<16x24xf32>) {
    ^bb0(%f0_a152: f32, %f0_a153: f32, %f0_o154: f32):
      %f0_t155 = arith.mulf %f0_a152, %f0_a153 : f32
      linalg.yield %f0_t155 : f32
    } -> tensor<16x24xf32>
    %f0_e156 = tensor.empty() : tensor<16x24xf32>
    %f0_v157 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v133, %f0_v151 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e156 : tensor<16x24xf32>) {
    ^bb0(%f0_a158: f32, %f0_a159: f32, %f0_o160: f32):
      %f0_t161 = arith.addf %f0_a158, %f0_a159 : f32
      linalg.yield %f0_t161 : f32
    } -> tensor<16x24xf32>
    %f0_e162 = tensor.empty() : tensor<24xf32>
    %f0_zero164 = arith.constant 0.0 : f32
    %f0_z163 = linalg.fill ins(%f0_zero164 : f32) outs(%f0_e162 : tensor<24xf32>) -> tensor<24xf32>
    %f0_v165 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%f0_v157 : tensor<16x24xf32>) outs(%f0_z163 : tensor<24xf32>) {
    ^bb0(%f0_a166: f32, %f0_o167: f32):
      %f0_t168 = arith.addf %f0_a166, %f0_o167 : f32
      linalg.yield %f0_t168 : f32
    } -> tensor<24xf32>
    %f0_e169 = tensor.empty() : tensor<16x24xf32>
    %f0_v170 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v157, %f0_v7 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e169 : tensor<16x24xf32>) {
    ^bb0(%f0_a171: f32, %f0_a172: f32, %f0_o173: f32):
      %f0_t174 = arith.mulf %f0_a171, %f0_a172 : f32
      linalg.yield %f0_t174 : f32
    } -> tensor<16x24xf32>
    %f0_e175 = tensor.empty() : tensor<16x24xf32>
    %f0_v176 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v157, %f0_v33 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e175 : tensor<16x24xf32>) {
    ^bb0(%f0_a177: f32, %f0_a178: f32, %f0_o179: f32):
      %f0_t180 = arith.mulf %f0_a177, %f0_a178 : f32
      linalg.yield %f0_t180 : f32
    } -> tensor<16x24xf32>
    %f0_e181 = tensor.empty() : tensor<16x24xf32>
    %f0_v182 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v176, %f0_v9 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e181 : tensor<16x24xf32>) {
    ^bb0(%f0_a183: f32, %f0_a184: f32, %f0_o185: f32):
      %f0_t186 = arith.mulf %f0_a183, %f0_a184 : f32
      linalg.yield %f0_t186 : f32
    } -> tensor<16x24xf32>
    %f0_e187 = tensor.empty() : tensor<16x24xf32>
    %f0_v188 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v170, %f0_x : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e187 : tensor<16x24xf32>) {
    ^bb0(%f0_a189: f32, %f0_a190: f32, %f0_o191: f32):
      %f0_t192 = arith.mulf %f0_a189, %f0_a190 : f32
      linalg.yield %f0_t192 : f32
    } -> tensor<16x24xf32>
    %f0_e193 = tensor.empty() : tensor<16x24xf32>
    %f0_v194 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v182, %f0_v188 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%f0_e193 : tensor<16x24xf32>) {
    ^bb0(%f0_a195: f32, %f0_a196: f32, %f0_o197: f32):
      %f0_t198 = arith.addf %f0_a195, %f0_a196 : f32
      linalg.yield %f0_t198 : f32
    } -> tensor<16x24xf32>
    return %f0_v101, %f0_v194, %f0_v165 : tensor<f32>, tensor<16x24xf32>, tensor<24xf32>
  }
  func.func private @helper1(%h1_in0: tensor<16x24xf32>) -> tensor<16x24xf32> {
    %h1_e1 = tensor.empty() : tensor<16x24xf32>
    %h1_v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1_in0 : tensor<16x24xf32>) outs(%h1_e1 : tensor<16x24xf32>) {
    ^bb0(%h1_a3: f32, %h1_o4: f32):
      %h1_t5 = math.sin %h1_a3 : f32
      linalg.yield %h1_t5 : f32
    } -> tensor<16x24xf32>
    return %h1_v2 : tensor<16x24xf32>
  }
}
