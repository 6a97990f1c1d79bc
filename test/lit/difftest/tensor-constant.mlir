// Differential tester, seed 4024 (shrunk): a stablehlo.rng draw whose
// bounds are tensor constants (arith.constant dense<0.0> : tensor<f32>),
// under rng=replay with the ILP at a budget: the backward reruns the
// generator and, with it, the two 0-d bounds.  Measured 1168 B against 1176
// simulated (-0.7 %), two causes of 8 B, either enough:
//  - a tensor constant bufferizes to a memref.get_global, no allocation;
//    the simulator counted its bytes.  Fixed: the import gives a tensor
//    constant (arith.constant, stablehlo.constant) 0 bytes and always
//    recomputes it (a saved one would be copied at @f_fwd's return);
//  - the tester's own lowering of autoac.rng.uniform read the seed
//    (tensor<1xi64>, 8 B) with a tensor.extract before allocating the
//    result, so the seed was freed first; the simulator counts an op's
//    operands live while it writes its result.  Fixed in the tester: the
//    generic reads the seed, as it reads the bounds.  (The generator's
//    --avoid-known form, bounds made by 0-d fills, showed only this one.)
// The planner changed since (the loop below now writes into its init in
// place, counted), so this config no longer reaches that step at the peak;
// test/lit/fidelity/tensor-constant.mlir checks the first cause directly;
// every rng=replay program of the tester exercises the second.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 4024: peak-below-sim (measured 1168, simulated 1176 (-0.68%; harness slack 0 B))
// config: {"strategy": "ilp", "budget_spec": 0.305, "budget": 1256, "rng": "replay"}
module {
  func.func @f0(%f0_x: tensor<24x4xf32>, %f0_dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<24x4xf32> {ac.grad})
      attributes {ac.joint} {
    %f0_e1 = tensor.empty() : tensor<24x1xf32>
    %f0_zero3 = arith.constant 0.0 : f32
    %f0_z2 = linalg.fill ins(%f0_zero3 : f32) outs(%f0_e1 : tensor<24x1xf32>) -> tensor<24x1xf32>
    %f0_v4 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "reduction"]} ins(%f0_x : tensor<24x4xf32>) outs(%f0_z2 : tensor<24x1xf32>) {
    ^bb0(%f0_a5: f32, %f0_o6: f32):
      %f0_t7 = arith.addf %f0_a5, %f0_o6 : f32
      linalg.yield %f0_t7 : f32
    } -> tensor<24x1xf32>
    %f0_lo9 = arith.constant dense<0.0> : tensor<f32>
    %f0_hi10 = arith.constant dense<1.0> : tensor<f32>
    %f0_sh11 = arith.constant dense<[24, 1]> : tensor<2xi64>
    %f0_u8 = "stablehlo.rng"(%f0_lo9, %f0_hi10, %f0_sh11) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<24x1xf32>
    %f0_e12 = tensor.empty() : tensor<24x1xf32>
    %f0_v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v4, %f0_u8 : tensor<24x1xf32>, tensor<24x1xf32>) outs(%f0_e12 : tensor<24x1xf32>) {
    ^bb0(%f0_a14: f32, %f0_a15: f32, %f0_o16: f32):
      %f0_t18 = arith.constant 0.5 : f32
      %f0_t19 = arith.constant 2.0 : f32
      %f0_t20 = arith.constant 0.0 : f32
      %f0_t17 = arith.cmpf oge, %f0_a15, %f0_t18 : f32
      %f0_t21 = arith.select %f0_t17, %f0_t19, %f0_t20 : f32
      %f0_t21y = arith.mulf %f0_a14, %f0_t21 : f32
      linalg.yield %f0_t21y : f32
    } -> tensor<24x1xf32>
    %f0_lb22 = arith.constant 0 : index
    %f0_ub23 = arith.constant 2 : index
    %f0_s124 = arith.constant 1 : index
    %f0_v25 = scf.for %f0_iv26 = %f0_lb22 to %f0_ub23 step %f0_s124 iter_args(%f0_it27 = %f0_v13) -> (tensor<24x1xf32>) {
    %f0_v28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v4 : tensor<24x1xf32>) outs(%f0_it27 : tensor<24x1xf32>) {
    ^bb0(%f0_a29: f32, %f0_o30: f32):
      %f0_t31 = arith.addf %f0_a29, %f0_o30 : f32
      %f0_t33 = arith.constant 0.5 : f32
      %f0_t32 = arith.mulf %f0_t31, %f0_t33 : f32
      linalg.yield %f0_t32 : f32
    } -> tensor<24x1xf32>
    scf.yield %f0_v28 : tensor<24x1xf32>
    }
    %f0_e34 = tensor.empty() : tensor<f32>
    %f0_zero36 = arith.constant 0.0 : f32
    %f0_z35 = linalg.fill ins(%f0_zero36 : f32) outs(%f0_e34 : tensor<f32>) -> tensor<f32>
    %f0_v37 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%f0_v25 : tensor<24x1xf32>) outs(%f0_z35 : tensor<f32>) {
    ^bb0(%f0_a38: f32, %f0_o39: f32):
      %f0_t40 = arith.mulf %f0_a38, %f0_a38 : f32
      %f0_t41 = arith.addf %f0_o39, %f0_t40 : f32
      linalg.yield %f0_t41 : f32
    } -> tensor<f32>
    %f0_e42 = tensor.empty() : tensor<24x1xf32>
    %f0_v43 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v25, %f0_dl : tensor<24x1xf32>, tensor<f32>) outs(%f0_e42 : tensor<24x1xf32>) {
    ^bb0(%f0_a44: f32, %f0_a45: f32, %f0_o46: f32):
      %f0_t49 = arith.constant 2.0 : f32
      %f0_t47 = arith.mulf %f0_a44, %f0_t49 : f32
      %f0_t48 = arith.mulf %f0_t47, %f0_a45 : f32
      linalg.yield %f0_t48 : f32
    } -> tensor<24x1xf32>
    %f0_e50 = tensor.empty() : tensor<24x1xf32>
    %f0_v51 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v43, %f0_v25 : tensor<24x1xf32>, tensor<24x1xf32>) outs(%f0_e50 : tensor<24x1xf32>) {
    ^bb0(%f0_a52: f32, %f0_a53: f32, %f0_o54: f32):
      %f0_t55 = arith.mulf %f0_a52, %f0_a53 : f32
      linalg.yield %f0_t55 : f32
    } -> tensor<24x1xf32>
    %f0_e56 = tensor.empty() : tensor<24x1xf32>
    %f0_v57 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v43, %f0_v25 : tensor<24x1xf32>, tensor<24x1xf32>) outs(%f0_e56 : tensor<24x1xf32>) {
    ^bb0(%f0_a58: f32, %f0_a59: f32, %f0_o60: f32):
      %f0_t61 = arith.mulf %f0_a58, %f0_a59 : f32
      linalg.yield %f0_t61 : f32
    } -> tensor<24x1xf32>
    %f0_e62 = tensor.empty() : tensor<24x1xf32>
    %f0_v63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v51, %f0_u8 : tensor<24x1xf32>, tensor<24x1xf32>) outs(%f0_e62 : tensor<24x1xf32>) {
    ^bb0(%f0_a64: f32, %f0_a65: f32, %f0_o66: f32):
      %f0_t67 = arith.mulf %f0_a64, %f0_a65 : f32
      linalg.yield %f0_t67 : f32
    } -> tensor<24x1xf32>
    %f0_e68 = tensor.empty() : tensor<24x1xf32>
    %f0_v69 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v57, %f0_v63 : tensor<24x1xf32>, tensor<24x1xf32>) outs(%f0_e68 : tensor<24x1xf32>) {
    ^bb0(%f0_a70: f32, %f0_a71: f32, %f0_o72: f32):
      %f0_t73 = arith.addf %f0_a70, %f0_a71 : f32
      linalg.yield %f0_t73 : f32
    } -> tensor<24x1xf32>
    %f0_e74 = tensor.empty() : tensor<24x4xf32>
    %f0_v75 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%f0_v69, %f0_x : tensor<24x1xf32>, tensor<24x4xf32>) outs(%f0_e74 : tensor<24x4xf32>) {
    ^bb0(%f0_a76: f32, %f0_a77: f32, %f0_o78: f32):
      %f0_t79 = arith.mulf %f0_a76, %f0_a77 : f32
      linalg.yield %f0_t79 : f32
    } -> tensor<24x4xf32>
    return %f0_v37, %f0_v75 : tensor<f32>, tensor<24x4xf32>
  }
}
