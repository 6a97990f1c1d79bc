// Differential tester, seed 700979 (peak-below-sim -8.1 % under mincut and
// knapsack, found by the twelfth session's run on 2707ed7): after cse, the
// branches of two scf.ifs write into one tensor.empty (%6) that ops outside
// the ifs write too.  The import gave every direct writer of a shared empty
// its own copy, but not an scf.if, whose init is captured by its branches:
// the simulator then counted the first if's result as a fresh buffer beside
// the shared empty, while the program writes it in place (1476 B simulated
// at the first if's recompute, 1356 B measured).  The import now gives such
// an scf.if its own copy of the empty, placed before it, and its branches
// write into that copy.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok mincut {{ *}}budget None {{ *}}rng replay peak [[P:[0-9]+]] measured [[P]]
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 700979: peak-below-sim (measured 1356, simulated 1476 (-8.13%; harness slack 0 B))
// config: {"strategy": "mincut", "budget_spec": null, "budget": null, "rng": "replay"}
// (after mlir-opt --cse)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> ()>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map7 = affine_map<(d0, d1, d2) -> (d2, d1)>
module {
  func.func @f0(%arg0: tensor<4x8xf32>, %arg1: tensor<1x16xf32> {ac.param}, %arg2: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<4x8xf32> {ac.grad}, tensor<1x16xf32> {ac.grad}) attributes {ac.joint} {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_8 = arith.constant 0.000000e+00 : f32
      %45 = arith.maximumf %in, %cst_8 : f32
      linalg.yield %45 : f32
    } -> tensor<4x8xf32>
    %2 = linalg.mul ins(%1, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %collapsed = tensor.collapse_shape %1 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
    %expanded = tensor.expand_shape %collapsed [[0, 1]] output_shape [16, 2] : tensor<32xf32> into tensor<16x2xf32>
    %extracted_slice = tensor.extract_slice %2[0, 1] [1, 7] [1, 1] : tensor<4x8xf32> to tensor<1x7xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %extracted_slice low[2, 1] high[2, 2] {
    ^bb0(%arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x7xf32> to tensor<5x10xf32>
    %extracted_slice_0 = tensor.extract_slice %expanded[0, 0] [11, 2] [1, 1] : tensor<16x2xf32> to tensor<11x2xf32>
    %3 = tensor.empty() : tensor<5x1xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<5x1xf32>) -> tensor<5x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%padded : tensor<5x10xf32>) outs(%4 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %45 = arith.addf %in, %out : f32
      linalg.yield %45 : f32
    } -> tensor<5x1xf32>
    %6 = tensor.empty() : tensor<2x16xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<16x2xf32>) outs(%6 : tensor<2x16xf32>) permutation = [1, 0] 
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_8 = arith.constant 5.000000e-01 : f32
      %45 = arith.mulf %in, %cst_8 : f32
      linalg.yield %45 : f32
    } -> tensor<2x16xf32>
    %c0 = arith.constant 0 : index
    %extracted = tensor.extract %7[%c0, %c0] : tensor<2x16xf32>
    %8 = arith.cmpf ogt, %extracted, %cst : f32
    %9 = scf.if %8 -> (tensor<2x16xf32>) {
      %45 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
      ^bb0(%in: f32, %out: f32):
        %cst_8 = arith.constant 5.000000e-01 : f32
        %46 = arith.mulf %in, %cst_8 : f32
        linalg.yield %46 : f32
      } -> tensor<2x16xf32>
      scf.yield %45 : tensor<2x16xf32>
    } else {
      %45 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
      ^bb0(%in: f32, %out: f32):
        %46 = math.sin %in : f32
        linalg.yield %46 : f32
      } -> tensor<2x16xf32>
      scf.yield %45 : tensor<2x16xf32>
    }
    %extracted_1 = tensor.extract %9[%c0, %c0] : tensor<2x16xf32>
    %10 = arith.cmpf ogt, %extracted_1, %cst : f32
    %11 = scf.if %10 -> (tensor<2x16xf32>) {
      %45 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
      ^bb0(%in: f32, %out: f32):
        %46 = arith.maximumf %in, %cst : f32
        linalg.yield %46 : f32
      } -> tensor<2x16xf32>
      scf.yield %45 : tensor<2x16xf32>
    } else {
      %45 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
      ^bb0(%in: f32, %out: f32):
        %46 = math.tanh %in : f32
        linalg.yield %46 : f32
      } -> tensor<2x16xf32>
      scf.yield %45 : tensor<2x16xf32>
    }
    %12 = tensor.empty() : tensor<2x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<2x1xf32>) -> tensor<2x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<2x16xf32>) outs(%13 : tensor<2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %45 = arith.addf %in, %out : f32
      linalg.yield %45 : f32
    } -> tensor<2x1xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%6 : tensor<2x16xf32>) -> tensor<2x16xf32>
    %16 = linalg.matmul ins(%14, %arg1 : tensor<2x1xf32>, tensor<1x16xf32>) outs(%15 : tensor<2x16xf32>) -> tensor<2x16xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %45 = math.tanh %in : f32
      linalg.yield %45 : f32
    } -> tensor<2x16xf32>
    %18 = tensor.empty() : tensor<f32>
    %19 = linalg.fill ins(%cst : f32) outs(%18 : tensor<f32>) -> tensor<f32>
    %20 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%extracted_slice_0 : tensor<11x2xf32>) outs(%19 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %45 = arith.mulf %in, %in : f32
      %46 = arith.addf %out, %45 : f32
      linalg.yield %46 : f32
    } -> tensor<f32>
    %21 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%5 : tensor<5x1xf32>) outs(%20 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %45 = arith.mulf %in, %in : f32
      %46 = arith.addf %out, %45 : f32
      linalg.yield %46 : f32
    } -> tensor<f32>
    %22 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%17 : tensor<2x16xf32>) outs(%21 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %45 = arith.mulf %in, %in : f32
      %46 = arith.addf %out, %45 : f32
      linalg.yield %46 : f32
    } -> tensor<f32>
    %23 = tensor.empty() : tensor<11x2xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_0, %arg2 : tensor<11x2xf32>, tensor<f32>) outs(%23 : tensor<11x2xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %cst_9 = arith.constant 2.000000e+00 : f32
      %45 = arith.mulf %in, %cst_9 : f32
      %46 = arith.mulf %45, %in_8 : f32
      linalg.yield %46 : f32
    } -> tensor<11x2xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %arg2 : tensor<5x1xf32>, tensor<f32>) outs(%3 : tensor<5x1xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %cst_9 = arith.constant 2.000000e+00 : f32
      %45 = arith.mulf %in, %cst_9 : f32
      %46 = arith.mulf %45, %in_8 : f32
      linalg.yield %46 : f32
    } -> tensor<5x1xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%17, %arg2 : tensor<2x16xf32>, tensor<f32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %cst_9 = arith.constant 2.000000e+00 : f32
      %45 = arith.mulf %in, %cst_9 : f32
      %46 = arith.mulf %45, %in_8 : f32
      linalg.yield %46 : f32
    } -> tensor<2x16xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%26, %17 : tensor<2x16xf32>, tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<2x16xf32>
    %28 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%27, %arg1 : tensor<2x16xf32>, tensor<1x16xf32>) outs(%13 : tensor<2x1xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      %46 = arith.addf %out, %45 : f32
      linalg.yield %46 : f32
    } -> tensor<2x1xf32>
    %29 = tensor.empty() : tensor<1x16xf32>
    %30 = linalg.fill ins(%cst : f32) outs(%29 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %31 = linalg.generic {indexing_maps = [#map6, #map7, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%14, %27 : tensor<2x1xf32>, tensor<2x16xf32>) outs(%30 : tensor<1x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      %46 = arith.addf %out, %45 : f32
      linalg.yield %46 : f32
    } -> tensor<1x16xf32>
    %32 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%28, %11 : tensor<2x1xf32>, tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<2x16xf32>
    %33 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%32, %9 : tensor<2x16xf32>, tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<2x16xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%33, %9 : tensor<2x16xf32>, tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<2x16xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%34, %transposed : tensor<2x16xf32>, tensor<2x16xf32>) outs(%6 : tensor<2x16xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<2x16xf32>
    %36 = tensor.empty() : tensor<16x2xf32>
    %transposed_2 = linalg.transpose ins(%35 : tensor<2x16xf32>) outs(%36 : tensor<16x2xf32>) permutation = [1, 0] 
    %37 = tensor.empty() : tensor<5x10xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%25, %padded : tensor<5x1xf32>, tensor<5x10xf32>) outs(%37 : tensor<5x10xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<5x10xf32>
    %padded_3 = tensor.pad %24 low[0, 0] high[5, 0] {
    ^bb0(%arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<11x2xf32> to tensor<16x2xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed_2, %padded_3 : tensor<16x2xf32>, tensor<16x2xf32>) outs(%36 : tensor<16x2xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.addf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<16x2xf32>
    %extracted_slice_4 = tensor.extract_slice %38[2, 1] [1, 7] [1, 1] : tensor<5x10xf32> to tensor<1x7xf32>
    %padded_5 = tensor.pad %extracted_slice_4 low[0, 1] high[3, 0] {
    ^bb0(%arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x7xf32> to tensor<4x8xf32>
    %collapsed_6 = tensor.collapse_shape %39 [[0, 1]] : tensor<16x2xf32> into tensor<32xf32>
    %expanded_7 = tensor.expand_shape %collapsed_6 [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
    %40 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%padded_5, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<4x8xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_7, %40 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.addf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<4x8xf32>
    %42 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%padded_5, %1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<4x8xf32>
    %43 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%41, %1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.mulf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<4x8xf32>
    %44 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%42, %43 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_8: f32, %out: f32):
      %45 = arith.addf %in, %in_8 : f32
      linalg.yield %45 : f32
    } -> tensor<4x8xf32>
    return %22, %44, %31 : tensor<f32>, tensor<4x8xf32>, tensor<1x16xf32>
  }
}

