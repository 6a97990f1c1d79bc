// Differential tester, seed 400722 (shrunk; not-monotone, found by the
// twelfth session's run on 5613479): two joint functions, greedy with
// offload over a 1e12 B/s link (the case's text picks it).  Below the lowest
// peak recomputing reaches, the offload moves from the recompute floor's
// plan met the budget (13476 B) at 12720 B and stopped there; a higher
// budget (14932 B), met by recomputing, took a plan of the offload moves
// from the min-cut set (acOffloadCompete) at 12340 B: a lower budget gave
// a higher peak.  acOffloadSearch now runs the moves from the min-cut set
// at every budget the recompute searches miss and keeps the lower peak.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok greedy {{ *}}budget 13476 {{ *}}rng keep {{ *}}peak 12340
// CHECK: ok greedy {{ *}}budget 14932 {{ *}}rng keep {{ *}}peak 12340
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 400722: not-monotone (greedy: budget 13476 -> peak 12720, budget 14932 -> peak 12340)
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": 18722, "rng": "keep", "specs": [0.146, 0.333]}
module attributes {ac.schedule = ["f0.fwd", "f1.fwd", "f0.bwd", "f1.bwd"]} {
  func.func @f0(%f0_x: tensor<24x8xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<24x8xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_e1 = tensor.empty() : tensor<8x24xf32>
    %f0_v2 = linalg.transpose ins(%f0_x : tensor<24x8xf32>) outs(%f0_e1 : tensor<8x24xf32>) permutation = [1, 0]
    %f0_e3 = tensor.empty() : tensor<24x8xf32>
    %f0_v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_x : tensor<24x8xf32>) outs(%f0_e3 : tensor<24x8xf32>) {
    ^bb0(%f0_a5: f32, %f0_o6: f32):
      %f0_t8 = arith.constant 0.5 : f32
      %f0_t7 = arith.mulf %f0_a5, %f0_t8 : f32
      linalg.yield %f0_t7 : f32
    } -> tensor<24x8xf32>
    %f0_e9 = tensor.empty() : tensor<24x24xf32>
    %f0_zero11 = arith.constant 0.0 : f32
    %f0_z10 = linalg.fill ins(%f0_zero11 : f32) outs(%f0_e9 : tensor<24x24xf32>) -> tensor<24x24xf32>
    %f0_v12 = linalg.matmul ins(%f0_v4, %f0_v2 : tensor<24x8xf32>, tensor<8x24xf32>) outs(%f0_z10 : tensor<24x24xf32>) -> tensor<24x24xf32>
    %f0_e13 = tensor.empty() : tensor<24x24xf32>
    %f0_v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], ac.save} ins(%f0_v12 : tensor<24x24xf32>) outs(%f0_e13 : tensor<24x24xf32>) {
    ^bb0(%f0_a15: f32, %f0_o16: f32):
      %f0_t17 = math.tanh %f0_a15 : f32
      linalg.yield %f0_t17 : f32
    } -> tensor<24x24xf32>
    %f0_e19 = tensor.empty() : tensor<24x8xf32>
    %f0_v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v4 : tensor<24x8xf32>) outs(%f0_e19 : tensor<24x8xf32>) {
    ^bb0(%f0_a21: f32, %f0_o22: f32):
      %f0_t24 = math.absf %f0_a21 : f32
      %f0_t25 = arith.constant 1.0 : f32
      %f0_t23 = arith.addf %f0_t24, %f0_t25 : f32
      %f0_t24d = arith.divf %f0_a21, %f0_t23 : f32
      linalg.yield %f0_t24d : f32
    } -> tensor<24x8xf32>
    %f0_lo27 = arith.constant dense<0.0> : tensor<f32>
    %f0_hi28 = arith.constant dense<1.0> : tensor<f32>
    %f0_sh29 = arith.constant dense<[24, 8]> : tensor<2xi64>
    %f0_u26 = "stablehlo.rng"(%f0_lo27, %f0_hi28, %f0_sh29) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<24x8xf32>
    %f0_e30 = tensor.empty() : tensor<24x8xf32>
    %f0_v31 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v20, %f0_u26 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e30 : tensor<24x8xf32>) {
    ^bb0(%f0_a32: f32, %f0_a33: f32, %f0_o34: f32):
      %f0_t36 = arith.constant 0.5 : f32
      %f0_t37 = arith.constant 2.0 : f32
      %f0_t38 = arith.constant 0.0 : f32
      %f0_t35 = arith.cmpf oge, %f0_a33, %f0_t36 : f32
      %f0_t39 = arith.select %f0_t35, %f0_t37, %f0_t38 : f32
      %f0_t39y = arith.mulf %f0_a32, %f0_t39 : f32
      linalg.yield %f0_t39y : f32
    } -> tensor<24x8xf32>
    %f0_zero41 = arith.constant 0.0 : f32
    %f0_v40 = tensor.pad %f0_v14 low[2, 0] high[1, 0] {
    ^bb0(%f0_i42: index, %f0_j43: index):
      tensor.yield %f0_zero41 : f32
    } : tensor<24x24xf32> to tensor<27x24xf32>
    %f0_v50 = func.call @helper1(%f0_v31) : (tensor<24x8xf32>) -> tensor<24x8xf32>
    %f0_lo52 = arith.constant dense<0.0> : tensor<f32>
    %f0_hi53 = arith.constant dense<1.0> : tensor<f32>
    %f0_sh54 = arith.constant dense<[24, 8]> : tensor<2xi64>
    %f0_u51 = "stablehlo.rng"(%f0_lo52, %f0_hi53, %f0_sh54) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<24x8xf32>
    %f0_e55 = tensor.empty() : tensor<24x8xf32>
    %f0_v56 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v50, %f0_u51 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e55 : tensor<24x8xf32>) {
    ^bb0(%f0_a57: f32, %f0_a58: f32, %f0_o59: f32):
      %f0_t61 = arith.constant 0.25 : f32
      %f0_t62 = arith.constant 1.3333333333333333 : f32
      %f0_t63 = arith.constant 0.0 : f32
      %f0_t60 = arith.cmpf oge, %f0_a58, %f0_t61 : f32
      %f0_t64 = arith.select %f0_t60, %f0_t62, %f0_t63 : f32
      %f0_t64y = arith.mulf %f0_a57, %f0_t64 : f32
      linalg.yield %f0_t64y : f32
    } -> tensor<24x8xf32>
    %f0_e65 = tensor.empty() : tensor<24x8xf32>
    %f0_v66 = linalg.sub ins(%f0_v56, %f0_v31 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e65 : tensor<24x8xf32>) -> tensor<24x8xf32>
    %f0_e67 = tensor.empty() : tensor<24x8xf32>
    %f0_v68 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v66 : tensor<24x8xf32>) outs(%f0_e67 : tensor<24x8xf32>) {
    ^bb0(%f0_a69: f32, %f0_o70: f32):
      %f0_t72 = math.absf %f0_a69 : f32
      %f0_t73 = arith.constant 1.0 : f32
      %f0_t71 = arith.addf %f0_t72, %f0_t73 : f32
      %f0_t72d = arith.divf %f0_a69, %f0_t71 : f32
      linalg.yield %f0_t72d : f32
    } -> tensor<24x8xf32>
    %f0_v74 = tensor.collapse_shape %f0_v68 [[0, 1]] : tensor<24x8xf32> into tensor<192xf32>
    %f0_v75 = tensor.expand_shape %f0_v74 [[0, 1]] output_shape [48, 4] : tensor<192xf32> into tensor<48x4xf32>
    %f0_e76 = tensor.empty() : tensor<f32>
    %f0_zero78 = arith.constant 0.0 : f32
    %f0_z77 = linalg.fill ins(%f0_zero78 : f32) outs(%f0_e76 : tensor<f32>) -> tensor<f32>
    %f0_v79 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v40 : tensor<27x24xf32>) outs(%f0_z77 : tensor<f32>) {
    ^bb0(%f0_a80: f32, %f0_o81: f32):
      %f0_t82 = arith.mulf %f0_a80, %f0_a80 : f32
      %f0_t83 = arith.addf %f0_o81, %f0_t82 : f32
      linalg.yield %f0_t83 : f32
    } -> tensor<f32>
    %f0_v84 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v75 : tensor<48x4xf32>) outs(%f0_v79 : tensor<f32>) {
    ^bb0(%f0_a85: f32, %f0_o86: f32):
      %f0_t87 = arith.mulf %f0_a85, %f0_a85 : f32
      %f0_t88 = arith.addf %f0_o86, %f0_t87 : f32
      linalg.yield %f0_t88 : f32
    } -> tensor<f32>
    %f0_e89 = tensor.empty() : tensor<27x24xf32>
    %f0_v90 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v40, %f0_dl : tensor<27x24xf32>, tensor<f32>) outs(%f0_e89 : tensor<27x24xf32>) {
    ^bb0(%f0_a91: f32, %f0_a92: f32, %f0_o93: f32):
      %f0_t96 = arith.constant 2.0 : f32
      %f0_t94 = arith.mulf %f0_a91, %f0_t96 : f32
      %f0_t95 = arith.mulf %f0_t94, %f0_a92 : f32
      linalg.yield %f0_t95 : f32
    } -> tensor<27x24xf32>
    %f0_e97 = tensor.empty() : tensor<48x4xf32>
    %f0_v98 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v75, %f0_dl : tensor<48x4xf32>, tensor<f32>) outs(%f0_e97 : tensor<48x4xf32>) {
    ^bb0(%f0_a99: f32, %f0_a100: f32, %f0_o101: f32):
      %f0_t104 = arith.constant 2.0 : f32
      %f0_t102 = arith.mulf %f0_a99, %f0_t104 : f32
      %f0_t103 = arith.mulf %f0_t102, %f0_a100 : f32
      linalg.yield %f0_t103 : f32
    } -> tensor<48x4xf32>
    %f0_v105 = tensor.collapse_shape %f0_v98 [[0, 1]] : tensor<48x4xf32> into tensor<192xf32>
    %f0_v106 = tensor.expand_shape %f0_v105 [[0, 1]] output_shape [24, 8] : tensor<192xf32> into tensor<24x8xf32>
    %f0_e107 = tensor.empty() : tensor<24x8xf32>
    %f0_v108 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v106, %f0_v68 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e107 : tensor<24x8xf32>) {
    ^bb0(%f0_a109: f32, %f0_a110: f32, %f0_o111: f32):
      %f0_t112 = arith.mulf %f0_a109, %f0_a110 : f32
      linalg.yield %f0_t112 : f32
    } -> tensor<24x8xf32>
    %f0_e113 = tensor.empty() : tensor<24x8xf32>
    %f0_v114 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v108 : tensor<24x8xf32>) outs(%f0_e113 : tensor<24x8xf32>) {
    ^bb0(%f0_a115: f32, %f0_o116: f32):
      %f0_t118 = arith.constant 0.5 : f32
      %f0_t117 = arith.mulf %f0_a115, %f0_t118 : f32
      linalg.yield %f0_t117 : f32
    } -> tensor<24x8xf32>
    %f0_e119 = tensor.empty() : tensor<24x8xf32>
    %f0_v120 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v108, %f0_u51 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e119 : tensor<24x8xf32>) {
    ^bb0(%f0_a121: f32, %f0_a122: f32, %f0_o123: f32):
      %f0_t124 = arith.mulf %f0_a121, %f0_a122 : f32
      linalg.yield %f0_t124 : f32
    } -> tensor<24x8xf32>
    %f0_e125 = tensor.empty() : tensor<24x8xf32>
    %f0_v126 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v120, %f0_v50 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e125 : tensor<24x8xf32>) {
    ^bb0(%f0_a127: f32, %f0_a128: f32, %f0_o129: f32):
      %f0_t130 = arith.mulf %f0_a127, %f0_a128 : f32
      linalg.yield %f0_t130 : f32
    } -> tensor<24x8xf32>
    %f0_e131 = tensor.empty() : tensor<24x8xf32>
    %f0_v132 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v114, %f0_v126 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e131 : tensor<24x8xf32>) {
    ^bb0(%f0_a133: f32, %f0_a134: f32, %f0_o135: f32):
      %f0_t136 = arith.addf %f0_a133, %f0_a134 : f32
      linalg.yield %f0_t136 : f32
    } -> tensor<24x8xf32>
    %f0_v137 = tensor.extract_slice %f0_v90[2, 0] [24, 24] [1, 1] : tensor<27x24xf32> to tensor<24x24xf32>
    %f0_e138 = tensor.empty() : tensor<24x8xf32>
    %f0_v139 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v132, %f0_u26 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e138 : tensor<24x8xf32>) {
    ^bb0(%f0_a140: f32, %f0_a141: f32, %f0_o142: f32):
      %f0_t143 = arith.mulf %f0_a140, %f0_a141 : f32
      linalg.yield %f0_t143 : f32
    } -> tensor<24x8xf32>
    %f0_e144 = tensor.empty() : tensor<24x8xf32>
    %f0_v145 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v139, %f0_v20 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e144 : tensor<24x8xf32>) {
    ^bb0(%f0_a146: f32, %f0_a147: f32, %f0_o148: f32):
      %f0_t149 = arith.mulf %f0_a146, %f0_a147 : f32
      linalg.yield %f0_t149 : f32
    } -> tensor<24x8xf32>
    %f0_e150 = tensor.empty() : tensor<24x24xf32>
    %f0_v151 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v137, %f0_v14 : tensor<24x24xf32>, tensor<24x24xf32>) outs(%f0_e150 : tensor<24x24xf32>) {
    ^bb0(%f0_a152: f32, %f0_a153: f32, %f0_o154: f32):
      %f0_t155 = arith.mulf %f0_a152, %f0_a153 : f32
      linalg.yield %f0_t155 : f32
    } -> tensor<24x24xf32>
    %f0_e156 = tensor.empty() : tensor<24x8xf32>
    %f0_zero158 = arith.constant 0.0 : f32
    %f0_z157 = linalg.fill ins(%f0_zero158 : f32) outs(%f0_e156 : tensor<24x8xf32>) -> tensor<24x8xf32>
    %f0_v159 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f0_v151, %f0_v2 : tensor<24x24xf32>, tensor<8x24xf32>) outs(%f0_z157 : tensor<24x8xf32>) {
    ^bb0(%f0_a160: f32, %f0_a161: f32, %f0_o162: f32):
      %f0_t163 = arith.mulf %f0_a160, %f0_a161 : f32
      %f0_t164 = arith.addf %f0_o162, %f0_t163 : f32
      linalg.yield %f0_t164 : f32
    } -> tensor<24x8xf32>
    %f0_e165 = tensor.empty() : tensor<24x8xf32>
    %f0_v166 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v145, %f0_v159 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e165 : tensor<24x8xf32>) {
    ^bb0(%f0_a167: f32, %f0_a168: f32, %f0_o169: f32):
      %f0_t170 = arith.addf %f0_a167, %f0_a168 : f32
      linalg.yield %f0_t170 : f32
    } -> tensor<24x8xf32>
    %f0_e171 = tensor.empty() : tensor<8x24xf32>
    %f0_zero173 = arith.constant 0.0 : f32
    %f0_z172 = linalg.fill ins(%f0_zero173 : f32) outs(%f0_e171 : tensor<8x24xf32>) -> tensor<8x24xf32>
    %f0_v174 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f0_v4, %f0_v151 : tensor<24x8xf32>, tensor<24x24xf32>) outs(%f0_z172 : tensor<8x24xf32>) {
    ^bb0(%f0_a175: f32, %f0_a176: f32, %f0_o177: f32):
      %f0_t178 = arith.mulf %f0_a175, %f0_a176 : f32
      %f0_t179 = arith.addf %f0_o177, %f0_t178 : f32
      linalg.yield %f0_t179 : f32
    } -> tensor<8x24xf32>
    %f0_e180 = tensor.empty() : tensor<24x8xf32>
    %f0_v181 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v166, %f0_x : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e180 : tensor<24x8xf32>) {
    ^bb0(%f0_a182: f32, %f0_a183: f32, %f0_o184: f32):
      %f0_t185 = arith.mulf %f0_a182, %f0_a183 : f32
      linalg.yield %f0_t185 : f32
    } -> tensor<24x8xf32>
    %f0_e186 = tensor.empty() : tensor<24x8xf32>
    %f0_v187 = linalg.transpose ins(%f0_v174 : tensor<8x24xf32>) outs(%f0_e186 : tensor<24x8xf32>) permutation = [1, 0]
    %f0_e188 = tensor.empty() : tensor<24x8xf32>
    %f0_v189 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v181, %f0_v187 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%f0_e188 : tensor<24x8xf32>) {
    ^bb0(%f0_a190: f32, %f0_a191: f32, %f0_o192: f32):
      %f0_t193 = arith.addf %f0_a190, %f0_a191 : f32
      linalg.yield %f0_t193 : f32
    } -> tensor<24x8xf32>
    return %f0_v84, %f0_v189 : tensor<f32>, tensor<24x8xf32>
  }
  func.func @f1(%f1_x: tensor<24x8xf32>, %f1_p0: tensor<4x4xf32> {ac.param}, %f1_p1: tensor<1xf32> {ac.param}, %f1_p2: tensor<2x24xf32> {ac.param}, %f1_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<24x8xf32> {ac.grad}, tensor<4x4xf32> {ac.grad}, tensor<1xf32> {ac.grad}, tensor<2x24xf32> {ac.grad})
      attributes {ac.joint} {
    %f1_v194 = tensor.collapse_shape %f1_x [[0, 1]] : tensor<24x8xf32> into tensor<192xf32>
    %f1_v195 = tensor.expand_shape %f1_v194 [[0, 1]] output_shape [48, 4] : tensor<192xf32> into tensor<48x4xf32>
    %f1_e196 = tensor.empty() : tensor<48x4xf32>
    %f1_zero198 = arith.constant 0.0 : f32
    %f1_z197 = linalg.fill ins(%f1_zero198 : f32) outs(%f1_e196 : tensor<48x4xf32>) -> tensor<48x4xf32>
    %f1_v199 = linalg.matmul ins(%f1_v195, %f1_p0 : tensor<48x4xf32>, tensor<4x4xf32>) outs(%f1_z197 : tensor<48x4xf32>) -> tensor<48x4xf32>
    %f1_e200 = tensor.empty() : tensor<48x4xf32>
    %f1_v201 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v199 : tensor<48x4xf32>) outs(%f1_e200 : tensor<48x4xf32>) {
    ^bb0(%f1_a202: f32, %f1_o203: f32):
      %f1_t204 = math.tanh %f1_a202 : f32
      linalg.yield %f1_t204 : f32
    } -> tensor<48x4xf32>
    %f1_v206 = tensor.extract_slice %f1_v201[21, 3] [23, 1] [1, 1] : tensor<48x4xf32> to tensor<23x1xf32>
    %f1_e207 = tensor.empty() : tensor<23x1xf32>
    %f1_v208 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v206 : tensor<23x1xf32>) outs(%f1_e207 : tensor<23x1xf32>) {
    ^bb0(%f1_a209: f32, %f1_o210: f32):
      %f1_t211 = math.sin %f1_a209 : f32
      linalg.yield %f1_t211 : f32
    } -> tensor<23x1xf32>
    %f1_e213 = tensor.empty() : tensor<23x1xf32>
    %f1_v214 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], ac.recompute} ins(%f1_v208 : tensor<23x1xf32>) outs(%f1_e213 : tensor<23x1xf32>) {
    ^bb0(%f1_a215: f32, %f1_o216: f32):
      %f1_t218 = math.absf %f1_a215 : f32
      %f1_t219 = arith.constant 1.0 : f32
      %f1_t217 = arith.addf %f1_t218, %f1_t219 : f32
      %f1_t218d = arith.divf %f1_a215, %f1_t217 : f32
      linalg.yield %f1_t218d : f32
    } -> tensor<23x1xf32>
    %f1_e220 = tensor.empty() : tensor<23x1xf32>
    %f1_zero222 = arith.constant 0.0 : f32
    %f1_z221 = linalg.fill ins(%f1_zero222 : f32) outs(%f1_e220 : tensor<23x1xf32>) -> tensor<23x1xf32>
    %f1_v223 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]} ins(%f1_v208 : tensor<23x1xf32>) outs(%f1_z221 : tensor<23x1xf32>) {
    ^bb0(%f1_a224: f32, %f1_o225: f32):
      %f1_t226 = arith.addf %f1_a224, %f1_o225 : f32
      linalg.yield %f1_t226 : f32
    } -> tensor<23x1xf32>
    %f1_e227 = tensor.empty() : tensor<23x1xf32>
    %f1_v228 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"], ac.save} ins(%f1_v223, %f1_p1 : tensor<23x1xf32>, tensor<1xf32>) outs(%f1_e227 : tensor<23x1xf32>) {
    ^bb0(%f1_a229: f32, %f1_a230: f32, %f1_o231: f32):
      %f1_t232 = arith.addf %f1_a229, %f1_a230 : f32
      linalg.yield %f1_t232 : f32
    } -> tensor<23x1xf32>
    %f1_zero234 = arith.constant 0.0 : f32
    %f1_v233 = tensor.pad %f1_v228 low[2, 1] high[1, 0] {
    ^bb0(%f1_i235: index, %f1_j236: index):
      tensor.yield %f1_zero234 : f32
    } : tensor<23x1xf32> to tensor<26x2xf32>
    %f1_lb237 = arith.constant 0 : index
    %f1_ub238 = arith.constant 1 : index
    %f1_s1239 = arith.constant 1 : index
    %f1_v240 = scf.for %f1_iv241 = %f1_lb237 to %f1_ub238 step %f1_s1239 iter_args(%f1_it242 = %f1_v228) -> (tensor<23x1xf32>) {
    %f1_v243 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v206 : tensor<23x1xf32>) outs(%f1_it242 : tensor<23x1xf32>) {
    ^bb0(%f1_a244: f32, %f1_o245: f32):
      %f1_t246 = arith.addf %f1_a244, %f1_o245 : f32
      %f1_t248 = arith.constant 0.5 : f32
      %f1_t247 = arith.mulf %f1_t246, %f1_t248 : f32
      linalg.yield %f1_t247 : f32
    } -> tensor<23x1xf32>
    scf.yield %f1_v243 : tensor<23x1xf32>
    }
    %f1_e249 = tensor.empty() : tensor<26x24xf32>
    %f1_zero251 = arith.constant 0.0 : f32
    %f1_z250 = linalg.fill ins(%f1_zero251 : f32) outs(%f1_e249 : tensor<26x24xf32>) -> tensor<26x24xf32>
    %f1_v252 = linalg.matmul ins(%f1_v233, %f1_p2 : tensor<26x2xf32>, tensor<2x24xf32>) outs(%f1_z250 : tensor<26x24xf32>) -> tensor<26x24xf32>
    %f1_e253 = tensor.empty() : tensor<26x24xf32>
    %f1_v254 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v252 : tensor<26x24xf32>) outs(%f1_e253 : tensor<26x24xf32>) {
    ^bb0(%f1_a255: f32, %f1_o256: f32):
      %f1_t257 = math.tanh %f1_a255 : f32
      linalg.yield %f1_t257 : f32
    } -> tensor<26x24xf32>
    %f1_e259 = tensor.empty() : tensor<f32>
    %f1_zero261 = arith.constant 0.0 : f32
    %f1_z260 = linalg.fill ins(%f1_zero261 : f32) outs(%f1_e259 : tensor<f32>) -> tensor<f32>
    %f1_v262 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f1_v214 : tensor<23x1xf32>) outs(%f1_z260 : tensor<f32>) {
    ^bb0(%f1_a263: f32, %f1_o264: f32):
      %f1_t265 = arith.mulf %f1_a263, %f1_a263 : f32
      %f1_t266 = arith.addf %f1_o264, %f1_t265 : f32
      linalg.yield %f1_t266 : f32
    } -> tensor<f32>
    %f1_v267 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f1_v240 : tensor<23x1xf32>) outs(%f1_v262 : tensor<f32>) {
    ^bb0(%f1_a268: f32, %f1_o269: f32):
      %f1_t270 = arith.mulf %f1_a268, %f1_a268 : f32
      %f1_t271 = arith.addf %f1_o269, %f1_t270 : f32
      linalg.yield %f1_t271 : f32
    } -> tensor<f32>
    %f1_v272 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f1_v254 : tensor<26x24xf32>) outs(%f1_v267 : tensor<f32>) {
    ^bb0(%f1_a273: f32, %f1_o274: f32):
      %f1_t275 = arith.mulf %f1_a273, %f1_a273 : f32
      %f1_t276 = arith.addf %f1_o274, %f1_t275 : f32
      linalg.yield %f1_t276 : f32
    } -> tensor<f32>
    %f1_e277 = tensor.empty() : tensor<23x1xf32>
    %f1_v278 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v214, %f1_dl : tensor<23x1xf32>, tensor<f32>) outs(%f1_e277 : tensor<23x1xf32>) {
    ^bb0(%f1_a279: f32, %f1_a280: f32, %f1_o281: f32):
      %f1_t284 = arith.constant 2.0 : f32
      %f1_t282 = arith.mulf %f1_a279, %f1_t284 : f32
      %f1_t283 = arith.mulf %f1_t282, %f1_a280 : f32
      linalg.yield %f1_t283 : f32
    } -> tensor<23x1xf32>
    %f1_e285 = tensor.empty() : tensor<23x1xf32>
    %f1_v286 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v240, %f1_dl : tensor<23x1xf32>, tensor<f32>) outs(%f1_e285 : tensor<23x1xf32>) {
    ^bb0(%f1_a287: f32, %f1_a288: f32, %f1_o289: f32):
      %f1_t292 = arith.constant 2.0 : f32
      %f1_t290 = arith.mulf %f1_a287, %f1_t292 : f32
      %f1_t291 = arith.mulf %f1_t290, %f1_a288 : f32
      linalg.yield %f1_t291 : f32
    } -> tensor<23x1xf32>
    %f1_e293 = tensor.empty() : tensor<26x24xf32>
    %f1_v294 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v254, %f1_dl : tensor<26x24xf32>, tensor<f32>) outs(%f1_e293 : tensor<26x24xf32>) {
    ^bb0(%f1_a295: f32, %f1_a296: f32, %f1_o297: f32):
      %f1_t300 = arith.constant 2.0 : f32
      %f1_t298 = arith.mulf %f1_a295, %f1_t300 : f32
      %f1_t299 = arith.mulf %f1_t298, %f1_a296 : f32
      linalg.yield %f1_t299 : f32
    } -> tensor<26x24xf32>
    %f1_e301 = tensor.empty() : tensor<26x24xf32>
    %f1_v302 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v294, %f1_v254 : tensor<26x24xf32>, tensor<26x24xf32>) outs(%f1_e301 : tensor<26x24xf32>) {
    ^bb0(%f1_a303: f32, %f1_a304: f32, %f1_o305: f32):
      %f1_t306 = arith.mulf %f1_a303, %f1_a304 : f32
      linalg.yield %f1_t306 : f32
    } -> tensor<26x24xf32>
    %f1_e307 = tensor.empty() : tensor<26x2xf32>
    %f1_zero309 = arith.constant 0.0 : f32
    %f1_z308 = linalg.fill ins(%f1_zero309 : f32) outs(%f1_e307 : tensor<26x2xf32>) -> tensor<26x2xf32>
    %f1_v310 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f1_v302, %f1_p2 : tensor<26x24xf32>, tensor<2x24xf32>) outs(%f1_z308 : tensor<26x2xf32>) {
    ^bb0(%f1_a311: f32, %f1_a312: f32, %f1_o313: f32):
      %f1_t314 = arith.mulf %f1_a311, %f1_a312 : f32
      %f1_t315 = arith.addf %f1_o313, %f1_t314 : f32
      linalg.yield %f1_t315 : f32
    } -> tensor<26x2xf32>
    %f1_e316 = tensor.empty() : tensor<2x24xf32>
    %f1_zero318 = arith.constant 0.0 : f32
    %f1_z317 = linalg.fill ins(%f1_zero318 : f32) outs(%f1_e316 : tensor<2x24xf32>) -> tensor<2x24xf32>
    %f1_v319 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f1_v233, %f1_v302 : tensor<26x2xf32>, tensor<26x24xf32>) outs(%f1_z317 : tensor<2x24xf32>) {
    ^bb0(%f1_a320: f32, %f1_a321: f32, %f1_o322: f32):
      %f1_t323 = arith.mulf %f1_a320, %f1_a321 : f32
      %f1_t324 = arith.addf %f1_o322, %f1_t323 : f32
      linalg.yield %f1_t324 : f32
    } -> tensor<2x24xf32>
    %f1_lb325 = arith.constant 0 : index
    %f1_ub326 = arith.constant 2 : index
    %f1_s1327 = arith.constant 1 : index
    %f1_v328 = scf.for %f1_iv329 = %f1_lb325 to %f1_ub326 step %f1_s1327 iter_args(%f1_it330 = %f1_v286) -> (tensor<23x1xf32>) {
    %f1_v331 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v240 : tensor<23x1xf32>) outs(%f1_it330 : tensor<23x1xf32>) {
    ^bb0(%f1_a332: f32, %f1_o333: f32):
      %f1_t334 = arith.mulf %f1_a332, %f1_o333 : f32
      linalg.yield %f1_t334 : f32
    } -> tensor<23x1xf32>
    scf.yield %f1_v331 : tensor<23x1xf32>
    }
    %f1_e335 = tensor.empty() : tensor<23x1xf32>
    %f1_v336 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v286, %f1_v240 : tensor<23x1xf32>, tensor<23x1xf32>) outs(%f1_e335 : tensor<23x1xf32>) {
    ^bb0(%f1_a337: f32, %f1_a338: f32, %f1_o339: f32):
      %f1_t340 = arith.mulf %f1_a337, %f1_a338 : f32
      linalg.yield %f1_t340 : f32
    } -> tensor<23x1xf32>
    %f1_v341 = tensor.extract_slice %f1_v310[2, 1] [23, 1] [1, 1] : tensor<26x2xf32> to tensor<23x1xf32>
    %f1_e342 = tensor.empty() : tensor<23x1xf32>
    %f1_v343 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v328, %f1_v341 : tensor<23x1xf32>, tensor<23x1xf32>) outs(%f1_e342 : tensor<23x1xf32>) {
    ^bb0(%f1_a344: f32, %f1_a345: f32, %f1_o346: f32):
      %f1_t347 = arith.addf %f1_a344, %f1_a345 : f32
      linalg.yield %f1_t347 : f32
    } -> tensor<23x1xf32>
    %f1_e348 = tensor.empty() : tensor<1xf32>
    %f1_zero350 = arith.constant 0.0 : f32
    %f1_z349 = linalg.fill ins(%f1_zero350 : f32) outs(%f1_e348 : tensor<1xf32>) -> tensor<1xf32>
    %f1_v351 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%f1_v343 : tensor<23x1xf32>) outs(%f1_z349 : tensor<1xf32>) {
    ^bb0(%f1_a352: f32, %f1_o353: f32):
      %f1_t354 = arith.addf %f1_a352, %f1_o353 : f32
      linalg.yield %f1_t354 : f32
    } -> tensor<1xf32>
    %f1_e355 = tensor.empty() : tensor<23x1xf32>
    %f1_v356 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v343, %f1_v208 : tensor<23x1xf32>, tensor<23x1xf32>) outs(%f1_e355 : tensor<23x1xf32>) {
    ^bb0(%f1_a357: f32, %f1_a358: f32, %f1_o359: f32):
      %f1_t360 = arith.mulf %f1_a357, %f1_a358 : f32
      linalg.yield %f1_t360 : f32
    } -> tensor<23x1xf32>
    %f1_e361 = tensor.empty() : tensor<23x1xf32>
    %f1_v362 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v278, %f1_v214 : tensor<23x1xf32>, tensor<23x1xf32>) outs(%f1_e361 : tensor<23x1xf32>) {
    ^bb0(%f1_a363: f32, %f1_a364: f32, %f1_o365: f32):
      %f1_t366 = arith.mulf %f1_a363, %f1_a364 : f32
      linalg.yield %f1_t366 : f32
    } -> tensor<23x1xf32>
    %f1_e367 = tensor.empty() : tensor<23x1xf32>
    %f1_v368 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v356, %f1_v362 : tensor<23x1xf32>, tensor<23x1xf32>) outs(%f1_e367 : tensor<23x1xf32>) {
    ^bb0(%f1_a369: f32, %f1_a370: f32, %f1_o371: f32):
      %f1_t372 = arith.addf %f1_a369, %f1_a370 : f32
      linalg.yield %f1_t372 : f32
    } -> tensor<23x1xf32>
    %f1_e373 = tensor.empty() : tensor<23x1xf32>
    %f1_v374 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v368, %f1_v206 : tensor<23x1xf32>, tensor<23x1xf32>) outs(%f1_e373 : tensor<23x1xf32>) {
    ^bb0(%f1_a375: f32, %f1_a376: f32, %f1_o377: f32):
      %f1_t378 = arith.mulf %f1_a375, %f1_a376 : f32
      linalg.yield %f1_t378 : f32
    } -> tensor<23x1xf32>
    %f1_e379 = tensor.empty() : tensor<23x1xf32>
    %f1_v380 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v336, %f1_v374 : tensor<23x1xf32>, tensor<23x1xf32>) outs(%f1_e379 : tensor<23x1xf32>) {
    ^bb0(%f1_a381: f32, %f1_a382: f32, %f1_o383: f32):
      %f1_t384 = arith.addf %f1_a381, %f1_a382 : f32
      linalg.yield %f1_t384 : f32
    } -> tensor<23x1xf32>
    %f1_zero386 = arith.constant 0.0 : f32
    %f1_v385 = tensor.pad %f1_v380 low[21, 3] high[4, 0] {
    ^bb0(%f1_i387: index, %f1_j388: index):
      tensor.yield %f1_zero386 : f32
    } : tensor<23x1xf32> to tensor<48x4xf32>
    %f1_e389 = tensor.empty() : tensor<48x4xf32>
    %f1_v390 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v385, %f1_v201 : tensor<48x4xf32>, tensor<48x4xf32>) outs(%f1_e389 : tensor<48x4xf32>) {
    ^bb0(%f1_a391: f32, %f1_a392: f32, %f1_o393: f32):
      %f1_t394 = arith.mulf %f1_a391, %f1_a392 : f32
      linalg.yield %f1_t394 : f32
    } -> tensor<48x4xf32>
    %f1_e395 = tensor.empty() : tensor<48x4xf32>
    %f1_zero397 = arith.constant 0.0 : f32
    %f1_z396 = linalg.fill ins(%f1_zero397 : f32) outs(%f1_e395 : tensor<48x4xf32>) -> tensor<48x4xf32>
    %f1_v398 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f1_v390, %f1_p0 : tensor<48x4xf32>, tensor<4x4xf32>) outs(%f1_z396 : tensor<48x4xf32>) {
    ^bb0(%f1_a399: f32, %f1_a400: f32, %f1_o401: f32):
      %f1_t402 = arith.mulf %f1_a399, %f1_a400 : f32
      %f1_t403 = arith.addf %f1_o401, %f1_t402 : f32
      linalg.yield %f1_t403 : f32
    } -> tensor<48x4xf32>
    %f1_e404 = tensor.empty() : tensor<4x4xf32>
    %f1_zero406 = arith.constant 0.0 : f32
    %f1_z405 = linalg.fill ins(%f1_zero406 : f32) outs(%f1_e404 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %f1_v407 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f1_v195, %f1_v390 : tensor<48x4xf32>, tensor<48x4xf32>) outs(%f1_z405 : tensor<4x4xf32>) {
    ^bb0(%f1_a408: f32, %f1_a409: f32, %f1_o410: f32):
      %f1_t411 = arith.mulf %f1_a408, %f1_a409 : f32
      %f1_t412 = arith.addf %f1_o410, %f1_t411 : f32
      linalg.yield %f1_t412 : f32
    } -> tensor<4x4xf32>
    %f1_v413 = tensor.collapse_shape %f1_v398 [[0, 1]] : tensor<48x4xf32> into tensor<192xf32>
    %f1_v414 = tensor.expand_shape %f1_v413 [[0, 1]] output_shape [24, 8] : tensor<192xf32> into tensor<24x8xf32>
    %f1_e415 = tensor.empty() : tensor<24x8xf32>
    %f1_v416 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f1_v414 : tensor<24x8xf32>) outs(%f1_e415 : tensor<24x8xf32>) {
    ^bb0(%f1_a417: f32, %f1_o418: f32):
      %f1_t420 = arith.constant 0.5 : f32
      %f1_t419 = arith.mulf %f1_a417, %f1_t420 : f32
      linalg.yield %f1_t419 : f32
    } -> tensor<24x8xf32>
    return %f1_v272, %f1_v416, %f1_v407, %f1_v351, %f1_v319 : tensor<f32>, tensor<24x8xf32>, tensor<4x4xf32>, tensor<1xf32>, tensor<2x24xf32>
  }
  func.func private @helper1(%h1_in0: tensor<24x8xf32>) -> tensor<24x8xf32> {
    %h1_e44 = tensor.empty() : tensor<24x8xf32>
    %h1_v45 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1_in0 : tensor<24x8xf32>) outs(%h1_e44 : tensor<24x8xf32>) {
    ^bb0(%h1_a46: f32, %h1_o47: f32):
      %h1_t48 = math.tanh %h1_a46 : f32
      linalg.yield %h1_t48 : f32
    } -> tensor<24x8xf32>
    return %h1_v45 : tensor<24x8xf32>
  }
}
