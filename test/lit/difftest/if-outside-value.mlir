// Differential tester, seed 120115 (shrunk; over-budget under greedy at
// feasible budgets, +1.2 % on the full program, found by the tenth
// session's long run): an scf.if decided at run time whose then branch
// writes into a shared tensor.empty and whose else branch yields a value
// made before it.  The planner counts the result as a new buffer at the
// if; bufferization yielded one branch's buffer or the other's, the
// deallocation pipeline could not know the owner and cloned the result:
// 1536 B (24x16 f32) more than simulated (13832 B measured at a 12296 B
// budget the report called met).  auto-ac-copy-before-write now makes such
// a result one tensor.empty made before the if, which the first branch
// writes and the second fills by a copy of its value.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok greedy{{.*}}budget 12296{{.*}}peak 12296 measured 12296
// CHECK: difftest: {{.*}}: no divergence
// difftest seed 120115: over-budget (report feasible at budget 12296 (simulated 12296), measured 13832)
// config: {"strategy": "greedy", "budget_spec": 0.506, "budget": 16777, "rng": "keep"}
// (after mlir-opt --cse)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @f0(%arg0: tensor<24x16xf32>, %arg1: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<24x16xf32> {ac.grad}) attributes {ac.joint} {
    %0 = tensor.empty() : tensor<24x16xf32>
    %1 = linalg.add ins(%arg0, %arg0 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %2 = linalg.add ins(%1, %arg0 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = math.absf %in : f32
      %cst_4 = arith.constant 1.000000e+00 : f32
      %25 = arith.addf %24, %cst_4 : f32
      %26 = arith.divf %in, %25 : f32
      linalg.yield %26 : f32
    } -> tensor<24x16xf32>
    %c0 = arith.constant 0 : index
    %extracted = tensor.extract %2[%c0, %c0] : tensor<24x16xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %4 = arith.cmpf ogt, %extracted, %cst : f32
    %5 = scf.if %4 -> (tensor<24x16xf32>) {
      %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
      ^bb0(%in: f32, %out: f32):
        %25 = math.sin %in : f32
        linalg.yield %25 : f32
      } -> tensor<24x16xf32>
      scf.yield %24 : tensor<24x16xf32>
    } else {
      scf.yield %3 : tensor<24x16xf32>
    }
    %inserted_slice = tensor.insert_slice %5 into %1[0, 0] [24, 16] [1, 1] : tensor<24x16xf32> into tensor<24x16xf32>
    %collapsed = tensor.collapse_shape %5 [[0, 1]] : tensor<24x16xf32> into tensor<384xf32>
    %expanded = tensor.expand_shape %collapsed [[0, 1]] output_shape [64, 6] : tensor<384xf32> into tensor<64x6xf32>
    %6 = tensor.empty() : tensor<16x24xf32>
    %transposed = linalg.transpose ins(%inserted_slice : tensor<24x16xf32>) outs(%6 : tensor<16x24xf32>) permutation = [1, 0] 
    %7 = tensor.empty() : tensor<f32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<f32>) -> tensor<f32>
    %9 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%3 : tensor<24x16xf32>) outs(%8 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.mulf %in, %in : f32
      %25 = arith.addf %out, %24 : f32
      linalg.yield %25 : f32
    } -> tensor<f32>
    %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%expanded : tensor<64x6xf32>) outs(%9 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.mulf %in, %in : f32
      %25 = arith.addf %out, %24 : f32
      linalg.yield %25 : f32
    } -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%transposed : tensor<16x24xf32>) outs(%10 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %24 = arith.mulf %in, %in : f32
      %25 = arith.addf %out, %24 : f32
      linalg.yield %25 : f32
    } -> tensor<f32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg1 : tensor<24x16xf32>, tensor<f32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %24 = arith.mulf %in, %cst_5 : f32
      %25 = arith.mulf %24, %in_4 : f32
      linalg.yield %25 : f32
    } -> tensor<24x16xf32>
    %13 = tensor.empty() : tensor<64x6xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded, %arg1 : tensor<64x6xf32>, tensor<f32>) outs(%13 : tensor<64x6xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %24 = arith.mulf %in, %cst_5 : f32
      %25 = arith.mulf %24, %in_4 : f32
      linalg.yield %25 : f32
    } -> tensor<64x6xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed, %arg1 : tensor<16x24xf32>, tensor<f32>) outs(%6 : tensor<16x24xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %24 = arith.mulf %in, %cst_5 : f32
      %25 = arith.mulf %24, %in_4 : f32
      linalg.yield %25 : f32
    } -> tensor<16x24xf32>
    %transposed_0 = linalg.transpose ins(%15 : tensor<16x24xf32>) outs(%0 : tensor<24x16xf32>) permutation = [1, 0] 
    %collapsed_1 = tensor.collapse_shape %14 [[0, 1]] : tensor<64x6xf32> into tensor<384xf32>
    %expanded_2 = tensor.expand_shape %collapsed_1 [[0, 1]] output_shape [24, 16] : tensor<384xf32> into tensor<24x16xf32>
    %extracted_slice = tensor.extract_slice %transposed_0[0, 0] [24, 16] [1, 1] : tensor<24x16xf32> to tensor<24x16xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_2, %extracted_slice : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.addf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<24x16xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%0 : tensor<24x16xf32>) -> tensor<24x16xf32>
    %inserted_slice_3 = tensor.insert_slice %17 into %transposed_0[0, 0] [24, 16] [1, 1] : tensor<24x16xf32> into tensor<24x16xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%16, %2 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.mulf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<24x16xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %3 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.mulf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<24x16xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %19 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.addf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<24x16xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%inserted_slice_3, %20 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.addf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<24x16xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %21 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.addf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<24x16xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%22, %21 : tensor<24x16xf32>, tensor<24x16xf32>) outs(%0 : tensor<24x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %24 = arith.addf %in, %in_4 : f32
      linalg.yield %24 : f32
    } -> tensor<24x16xf32>
    return %11, %23 : tensor<f32>, tensor<24x16xf32>
  }
}

