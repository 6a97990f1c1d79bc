// Differential tester, seed 200778 (shrunk; peak-below-sim, -9.6 % under
// every strategy, found by the eleventh session's 5000-program run, on the
// build before the fix of loop-readonly-arg-view.mlir): a full-size
// tensor.insert_slice of the argument %x into the result of an inlined
// helper call.  The planner counted the write's copy at the write; the
// lowering (copying where bufferization chose) measured 512 B less.  The
// same change to auto-ac-copy-before-write (a write into a storage that is
// a read-only argument copies at the write) makes the two agree.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok greedy {{.*}} peak 4232 measured 4232
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 200778: peak-below-sim (measured 3720, simulated 4232 (-12.10%; harness slack 0 B))
// config: {"strategy": "greedy", "budget_spec": null, "budget": null, "rng": "keep"}
module {
  func.func @f0(%f0_x: tensor<16x8xf32>, %f0_p0: tensor<1x8xf32> {ac.param}, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<16x8xf32> {ac.grad}, tensor<1x8xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_v7 = func.call @helper1(%f0_x) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %f0_e8 = tensor.empty() : tensor<8x16xf32>
    %f0_v9 = linalg.transpose ins(%f0_v7 : tensor<16x8xf32>) outs(%f0_e8 : tensor<8x16xf32>) permutation = [1, 0]
    %f0_e10 = tensor.empty() : tensor<16x1xf32>
    %f0_zero12 = arith.constant 0.0 : f32
    %f0_z11 = linalg.fill ins(%f0_zero12 : f32) outs(%f0_e10 : tensor<16x1xf32>) -> tensor<16x1xf32>
    %f0_v13 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]} ins(%f0_x : tensor<16x8xf32>) outs(%f0_z11 : tensor<16x1xf32>) {
    ^bb0(%f0_a14: f32, %f0_o15: f32):
      %f0_t16 = arith.addf %f0_a14, %f0_o15 : f32
      linalg.yield %f0_t16 : f32
    } -> tensor<16x1xf32>
    %f0_v17 = tensor.insert_slice %f0_x into %f0_v7[0, 0] [16, 8] [1, 1] : tensor<16x8xf32> into tensor<16x8xf32>
    %f0_e18 = tensor.empty() : tensor<16x1xf32>
    %f0_zero20 = arith.constant 0.0 : f32
    %f0_z19 = linalg.fill ins(%f0_zero20 : f32) outs(%f0_e18 : tensor<16x1xf32>) -> tensor<16x1xf32>
    %f0_v21 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]} ins(%f0_v17 : tensor<16x8xf32>) outs(%f0_z19 : tensor<16x1xf32>) {
    ^bb0(%f0_a22: f32, %f0_o23: f32):
      %f0_t24 = arith.addf %f0_a22, %f0_o23 : f32
      linalg.yield %f0_t24 : f32
    } -> tensor<16x1xf32>
    %f0_e25 = tensor.empty() : tensor<16x8xf32>
    %f0_zero27 = arith.constant 0.0 : f32
    %f0_z26 = linalg.fill ins(%f0_zero27 : f32) outs(%f0_e25 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %f0_v28 = linalg.matmul ins(%f0_v21, %f0_p0 : tensor<16x1xf32>, tensor<1x8xf32>) outs(%f0_z26 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %f0_e29 = tensor.empty() : tensor<16x8xf32>
    %f0_v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v28 : tensor<16x8xf32>) outs(%f0_e29 : tensor<16x8xf32>) {
    ^bb0(%f0_a31: f32, %f0_o32: f32):
      %f0_t33 = math.tanh %f0_a31 : f32
      linalg.yield %f0_t33 : f32
    } -> tensor<16x8xf32>
    %f0_lo36 = arith.constant 0.0 : f64
    %f0_hi37 = arith.constant 1.0 : f64
    %f0_sd38 = arith.constant 304 : i32
    %f0_e39 = tensor.empty() : tensor<16x8xf32>
    %f0_u35 = linalg.fill_rng_2d ins(%f0_lo36, %f0_hi37, %f0_sd38 : f64, f64, i32) outs(%f0_e39 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %f0_e40 = tensor.empty() : tensor<16x8xf32>
    %f0_v41 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v30, %f0_u35 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%f0_e40 : tensor<16x8xf32>) {
    ^bb0(%f0_a42: f32, %f0_a43: f32, %f0_o44: f32):
      %f0_t46 = arith.constant 0.25 : f32
      %f0_t47 = arith.constant 1.3333333333333333 : f32
      %f0_t48 = arith.constant 0.0 : f32
      %f0_t45 = arith.cmpf oge, %f0_a43, %f0_t46 : f32
      %f0_t49 = arith.select %f0_t45, %f0_t47, %f0_t48 : f32
      %f0_t49y = arith.mulf %f0_a42, %f0_t49 : f32
      linalg.yield %f0_t49y : f32
    } -> tensor<16x8xf32>
    %f0_e50 = tensor.empty() : tensor<f32>
    %f0_zero52 = arith.constant 0.0 : f32
    %f0_z51 = linalg.fill ins(%f0_zero52 : f32) outs(%f0_e50 : tensor<f32>) -> tensor<f32>
    %f0_v53 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v9 : tensor<8x16xf32>) outs(%f0_z51 : tensor<f32>) {
    ^bb0(%f0_a54: f32, %f0_o55: f32):
      %f0_t56 = arith.mulf %f0_a54, %f0_a54 : f32
      %f0_t57 = arith.addf %f0_o55, %f0_t56 : f32
      linalg.yield %f0_t57 : f32
    } -> tensor<f32>
    %f0_v58 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v13 : tensor<16x1xf32>) outs(%f0_v53 : tensor<f32>) {
    ^bb0(%f0_a59: f32, %f0_o60: f32):
      %f0_t61 = arith.mulf %f0_a59, %f0_a59 : f32
      %f0_t62 = arith.addf %f0_o60, %f0_t61 : f32
      linalg.yield %f0_t62 : f32
    } -> tensor<f32>
    %f0_v63 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v41 : tensor<16x8xf32>) outs(%f0_v58 : tensor<f32>) {
    ^bb0(%f0_a64: f32, %f0_o65: f32):
      %f0_t66 = arith.mulf %f0_a64, %f0_a64 : f32
      %f0_t67 = arith.addf %f0_o65, %f0_t66 : f32
      linalg.yield %f0_t67 : f32
    } -> tensor<f32>
    %f0_e68 = tensor.empty() : tensor<8x16xf32>
    %f0_v69 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v9, %f0_dl : tensor<8x16xf32>, tensor<f32>) outs(%f0_e68 : tensor<8x16xf32>) {
    ^bb0(%f0_a70: f32, %f0_a71: f32, %f0_o72: f32):
      %f0_t75 = arith.constant 2.0 : f32
      %f0_t73 = arith.mulf %f0_a70, %f0_t75 : f32
      %f0_t74 = arith.mulf %f0_t73, %f0_a71 : f32
      linalg.yield %f0_t74 : f32
    } -> tensor<8x16xf32>
    %f0_e76 = tensor.empty() : tensor<16x1xf32>
    %f0_v77 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v13, %f0_dl : tensor<16x1xf32>, tensor<f32>) outs(%f0_e76 : tensor<16x1xf32>) {
    ^bb0(%f0_a78: f32, %f0_a79: f32, %f0_o80: f32):
      %f0_t83 = arith.constant 2.0 : f32
      %f0_t81 = arith.mulf %f0_a78, %f0_t83 : f32
      %f0_t82 = arith.mulf %f0_t81, %f0_a79 : f32
      linalg.yield %f0_t82 : f32
    } -> tensor<16x1xf32>
    %f0_e84 = tensor.empty() : tensor<16x8xf32>
    %f0_v85 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v41, %f0_dl : tensor<16x8xf32>, tensor<f32>) outs(%f0_e84 : tensor<16x8xf32>) {
    ^bb0(%f0_a86: f32, %f0_a87: f32, %f0_o88: f32):
      %f0_t91 = arith.constant 2.0 : f32
      %f0_t89 = arith.mulf %f0_a86, %f0_t91 : f32
      %f0_t90 = arith.mulf %f0_t89, %f0_a87 : f32
      linalg.yield %f0_t90 : f32
    } -> tensor<16x8xf32>
    %f0_e92 = tensor.empty() : tensor<16x8xf32>
    %f0_v93 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v85, %f0_u35 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%f0_e92 : tensor<16x8xf32>) {
    ^bb0(%f0_a94: f32, %f0_a95: f32, %f0_o96: f32):
      %f0_t97 = arith.mulf %f0_a94, %f0_a95 : f32
      linalg.yield %f0_t97 : f32
    } -> tensor<16x8xf32>
    %f0_e98 = tensor.empty() : tensor<16x8xf32>
    %f0_v99 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v93, %f0_v30 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%f0_e98 : tensor<16x8xf32>) {
    ^bb0(%f0_a100: f32, %f0_a101: f32, %f0_o102: f32):
      %f0_t103 = arith.mulf %f0_a100, %f0_a101 : f32
      linalg.yield %f0_t103 : f32
    } -> tensor<16x8xf32>
    %f0_e104 = tensor.empty() : tensor<16x1xf32>
    %f0_zero106 = arith.constant 0.0 : f32
    %f0_z105 = linalg.fill ins(%f0_zero106 : f32) outs(%f0_e104 : tensor<16x1xf32>) -> tensor<16x1xf32>
    %f0_v107 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f0_v99, %f0_p0 : tensor<16x8xf32>, tensor<1x8xf32>) outs(%f0_z105 : tensor<16x1xf32>) {
    ^bb0(%f0_a108: f32, %f0_a109: f32, %f0_o110: f32):
      %f0_t111 = arith.mulf %f0_a108, %f0_a109 : f32
      %f0_t112 = arith.addf %f0_o110, %f0_t111 : f32
      linalg.yield %f0_t112 : f32
    } -> tensor<16x1xf32>
    %f0_e113 = tensor.empty() : tensor<1x8xf32>
    %f0_zero115 = arith.constant 0.0 : f32
    %f0_z114 = linalg.fill ins(%f0_zero115 : f32) outs(%f0_e113 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %f0_v116 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%f0_v21, %f0_v99 : tensor<16x1xf32>, tensor<16x8xf32>) outs(%f0_z114 : tensor<1x8xf32>) {
    ^bb0(%f0_a117: f32, %f0_a118: f32, %f0_o119: f32):
      %f0_t120 = arith.mulf %f0_a117, %f0_a118 : f32
      %f0_t121 = arith.addf %f0_o119, %f0_t120 : f32
      linalg.yield %f0_t121 : f32
    } -> tensor<1x8xf32>
    %f0_e122 = tensor.empty() : tensor<16x8xf32>
    %f0_v123 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v107, %f0_v17 : tensor<16x1xf32>, tensor<16x8xf32>) outs(%f0_e122 : tensor<16x8xf32>) {
    ^bb0(%f0_a124: f32, %f0_a125: f32, %f0_o126: f32):
      %f0_t127 = arith.mulf %f0_a124, %f0_a125 : f32
      linalg.yield %f0_t127 : f32
    } -> tensor<16x8xf32>
    %f0_v128 = tensor.extract_slice %f0_v123[0, 0] [16, 8] [1, 1] : tensor<16x8xf32> to tensor<16x8xf32>
    %f0_e129 = tensor.empty() : tensor<16x8xf32>
    %f0_zero131 = arith.constant 0.0 : f32
    %f0_z130 = linalg.fill ins(%f0_zero131 : f32) outs(%f0_e129 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %f0_v132 = tensor.insert_slice %f0_z130 into %f0_v123[0, 0] [16, 8] [1, 1] : tensor<16x8xf32> into tensor<16x8xf32>
    %f0_e133 = tensor.empty() : tensor<16x8xf32>
    %f0_v134 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v77, %f0_x : tensor<16x1xf32>, tensor<16x8xf32>) outs(%f0_e133 : tensor<16x8xf32>) {
    ^bb0(%f0_a135: f32, %f0_a136: f32, %f0_o137: f32):
      %f0_t138 = arith.mulf %f0_a135, %f0_a136 : f32
      linalg.yield %f0_t138 : f32
    } -> tensor<16x8xf32>
    %f0_e139 = tensor.empty() : tensor<16x8xf32>
    %f0_v140 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v128, %f0_v134 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%f0_e139 : tensor<16x8xf32>) {
    ^bb0(%f0_a141: f32, %f0_a142: f32, %f0_o143: f32):
      %f0_t144 = arith.addf %f0_a141, %f0_a142 : f32
      linalg.yield %f0_t144 : f32
    } -> tensor<16x8xf32>
    %f0_e145 = tensor.empty() : tensor<16x8xf32>
    %f0_v146 = linalg.transpose ins(%f0_v69 : tensor<8x16xf32>) outs(%f0_e145 : tensor<16x8xf32>) permutation = [1, 0]
    %f0_e147 = tensor.empty() : tensor<16x8xf32>
    %f0_v148 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v132, %f0_v146 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%f0_e147 : tensor<16x8xf32>) {
    ^bb0(%f0_a149: f32, %f0_a150: f32, %f0_o151: f32):
      %f0_t152 = arith.addf %f0_a149, %f0_a150 : f32
      linalg.yield %f0_t152 : f32
    } -> tensor<16x8xf32>
    %f0_e153 = tensor.empty() : tensor<16x8xf32>
    %f0_v154 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v148, %f0_x : tensor<16x8xf32>, tensor<16x8xf32>) outs(%f0_e153 : tensor<16x8xf32>) {
    ^bb0(%f0_a155: f32, %f0_a156: f32, %f0_o157: f32):
      %f0_t158 = arith.mulf %f0_a155, %f0_a156 : f32
      linalg.yield %f0_t158 : f32
    } -> tensor<16x8xf32>
    %f0_e159 = tensor.empty() : tensor<16x8xf32>
    %f0_v160 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v140, %f0_v154 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%f0_e159 : tensor<16x8xf32>) {
    ^bb0(%f0_a161: f32, %f0_a162: f32, %f0_o163: f32):
      %f0_t164 = arith.addf %f0_a161, %f0_a162 : f32
      linalg.yield %f0_t164 : f32
    } -> tensor<16x8xf32>
    return %f0_v63, %f0_v160, %f0_v116 : tensor<f32>, tensor<16x8xf32>, tensor<1x8xf32>
  }
  func.func private @helper1(%h1_in0: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %h1_e1 = tensor.empty() : tensor<16x8xf32>
    %h1_v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1_in0 : tensor<16x8xf32>) outs(%h1_e1 : tensor<16x8xf32>) {
    ^bb0(%h1_a3: f32, %h1_o4: f32):
      %h1_t5 = math.sin %h1_a3 : f32
      linalg.yield %h1_t5 : f32
    } -> tensor<16x8xf32>
    return %h1_v2 : tensor<16x8xf32>
  }
}
