// Differential tester, seed 50362 (shrunk; peak-below-sim under save-all,
// -1.0 %, found on the tenth session's build once the generator decides a
// quarter of its scf.ifs at run time): an scf.if whose branches both yield
// %1, a value made before it.  Bufferization gives the result %1's buffer
// (canonicalization then replaces it by %1); the import took the if for a
// write in place into %1's storage, which later ops still read, and counted
// a copy the program never makes (3112 B simulated, 3080 measured).  The
// import now replaces such a result by the value both branches yield
// (import/branches.c), so plan, output IR and program agree.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok save-all {{.*}} peak 2600 measured 2600
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 50362: peak-below-sim (measured 3080, simulated 3112 (-1.03%; harness slack 0 B))
// config: {"strategy": "save-all", "budget_spec": null, "budget": null, "rng": "keep"}
// (after mlir-opt --cse)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> ()>
module {
  func.func @f0(%arg0: tensor<8x16xf32>, %arg1: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<8x16xf32> {ac.grad}) attributes {ac.joint} {
    %0 = tensor.empty() : tensor<8x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = math.sin %in : f32
      linalg.yield %17 : f32
    } -> tensor<8x16xf32>
    %2 = tensor.empty() : tensor<8x1xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<8x16xf32>) outs(%3 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.addf %in, %out : f32
      linalg.yield %17 : f32
    } -> tensor<8x1xf32>
    %c0 = arith.constant 0 : index
    %extracted = tensor.extract %arg0[%c0, %c0] : tensor<8x16xf32>
    %5 = arith.cmpf ogt, %extracted, %cst : f32
    %6 = scf.if %5 -> (tensor<8x16xf32>) {
      scf.yield %1 : tensor<8x16xf32>
    } else {
      scf.yield %1 : tensor<8x16xf32>
    }
    %7 = tensor.empty() : tensor<f32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<f32>) -> tensor<f32>
    %9 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%4 : tensor<8x1xf32>) outs(%8 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.mulf %in, %in : f32
      %18 = arith.addf %out, %17 : f32
      linalg.yield %18 : f32
    } -> tensor<f32>
    %10 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%6 : tensor<8x16xf32>) outs(%9 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %17 = arith.mulf %in, %in : f32
      %18 = arith.addf %out, %17 : f32
      linalg.yield %18 : f32
    } -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %arg1 : tensor<8x1xf32>, tensor<f32>) outs(%2 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %cst_1 = arith.constant 2.000000e+00 : f32
      %17 = arith.mulf %in, %cst_1 : f32
      %18 = arith.mulf %17, %in_0 : f32
      linalg.yield %18 : f32
    } -> tensor<8x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %arg1 : tensor<8x16xf32>, tensor<f32>) outs(%0 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %cst_1 = arith.constant 2.000000e+00 : f32
      %17 = arith.mulf %in, %cst_1 : f32
      %18 = arith.mulf %17, %in_0 : f32
      linalg.yield %18 : f32
    } -> tensor<8x16xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %6 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %17 = arith.mulf %in, %in_0 : f32
      linalg.yield %17 : f32
    } -> tensor<8x16xf32>
    %14 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %1 : tensor<8x1xf32>, tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %17 = arith.mulf %in, %in_0 : f32
      linalg.yield %17 : f32
    } -> tensor<8x16xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%14, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %17 = arith.mulf %in, %in_0 : f32
      linalg.yield %17 : f32
    } -> tensor<8x16xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %15 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %17 = arith.addf %in, %in_0 : f32
      linalg.yield %17 : f32
    } -> tensor<8x16xf32>
    return %10, %16 : tensor<f32>, tensor<8x16xf32>
  }
}

