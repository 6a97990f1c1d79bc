// Differential tester, seed 804678 (peak-below-sim -4.8 % under mincut and
// knapsack, the one divergent program of the thirteenth session's
// 5000-program run): the scf.if %21 decides at run time between a new
// buffer (its then-branch writes %8's maximum with 0 into an init of its
// own) and %9, made before it (its else-branch yields it: no buffer).  The
// planner counts the new buffer, an upper bound: the run took the else
// branch and peaked 1024 B below the plan.  No plan can know the branch, so
// the report says so (`compiled_peak`: "at most: ..."), and the tester
// accepts a measured peak below the simulated one for such a plan (never
// above it).
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok mincut {{ *}}budget None {{ *}}rng keep {{ *}}peak 21288 measured 20264
// CHECK: difftest: {{.*}}: no divergence
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-strategy=mincut --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json compiled_peak | FileCheck %s --check-prefix=REP
// REP: compiled_peak = "at most: an scf.if decided at run time yields a new buffer from one region and an existing one from another; the plan counts the new one"
// difftest seed 804678: peak-below-sim (measured 20264, simulated 21288 (-4.81%; harness slack 0 B))
// config: {"strategy": "mincut", "budget_spec": null, "budget": null, "rng": "keep"}
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
  func.func @f0(%arg0: tensor<32x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x12xf32> {ac.param}, %arg3: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<32x8xf32> {ac.grad}, tensor<8x32xf32> {ac.grad}, tensor<32x12xf32> {ac.grad}) attributes {ac.joint} {
    %c0 = arith.constant 0 : index
    %extracted = tensor.extract %arg1[%c0, %c0] : tensor<8x32xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %0 = arith.cmpf ogt, %extracted, %cst : f32
    %1 = scf.if %0 -> (tensor<8x32xf32>) {
      %59 = tensor.empty() : tensor<8x32xf32>
      %60 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<8x32xf32>) outs(%59 : tensor<8x32xf32>) {
      ^bb0(%in: f32, %out: f32):
        %cst_4 = arith.constant 5.000000e-01 : f32
        %61 = arith.mulf %in, %cst_4 : f32
        linalg.yield %61 : f32
      } -> tensor<8x32xf32>
      scf.yield %60 : tensor<8x32xf32>
    } else {
      %59 = tensor.empty() : tensor<8x32xf32>
      %60 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<8x32xf32>) outs(%59 : tensor<8x32xf32>) {
      ^bb0(%in: f32, %out: f32):
        %61 = math.absf %in : f32
        %cst_4 = arith.constant 1.000000e+00 : f32
        %62 = arith.addf %61, %cst_4 : f32
        %63 = arith.divf %in, %62 : f32
        linalg.yield %63 : f32
      } -> tensor<8x32xf32>
      scf.yield %60 : tensor<8x32xf32>
    }
    %2 = call @helper1(%arg1) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %3 = tensor.empty() : tensor<8x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %2 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %cst_0 = arith.constant 0.000000e+00 : f64
    %cst_1 = arith.constant 1.000000e+00 : f64
    %c589_i32 = arith.constant 589 : i32
    %5 = linalg.fill_rng_2d ins(%cst_0, %cst_1, %c589_i32 : f64, f64, i32) outs(%3 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %5 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.500000e-01 : f32
      %cst_6 = arith.constant 1.33333337 : f32
      %59 = arith.cmpf oge, %in_4, %cst_5 : f32
      %60 = arith.select %59, %cst_6, %cst : f32
      %61 = arith.mulf %in, %60 : f32
      linalg.yield %61 : f32
    } -> tensor<8x32xf32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %7 = arith.cmpi ult, %c1, %c2 : index
    %8 = scf.if %7 -> (tensor<8x32xf32>) {
      %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
      ^bb0(%in: f32, %out: f32):
        %cst_4 = arith.constant 5.000000e-01 : f32
        %60 = arith.mulf %in, %cst_4 : f32
        linalg.yield %60 : f32
      } -> tensor<8x32xf32>
      scf.yield %59 : tensor<8x32xf32>
    } else {
      %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
      ^bb0(%in: f32, %out: f32):
        %60 = math.sin %in : f32
        linalg.yield %60 : f32
      } -> tensor<8x32xf32>
      scf.yield %59 : tensor<8x32xf32>
    }
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = math.tanh %in : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %10 = tensor.empty() : tensor<8x12xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<8x12xf32>) -> tensor<8x12xf32>
    %12 = linalg.matmul ins(%9, %arg2 : tensor<8x32xf32>, tensor<32x12xf32>) outs(%11 : tensor<8x12xf32>) -> tensor<8x12xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<8x12xf32>) outs(%10 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = math.tanh %in : f32
      linalg.yield %59 : f32
    } -> tensor<8x12xf32>
    %14 = call @helper2(%arg0) : (tensor<32x8xf32>) -> tensor<32x8xf32>
    %15 = tensor.empty() : tensor<8x1xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg1 : tensor<8x32xf32>) outs(%16 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = arith.addf %in, %out : f32
      linalg.yield %59 : f32
    } -> tensor<8x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %6 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %inserted_slice = tensor.insert_slice %17 into %6[0, 11] [8, 1] [1, 1] : tensor<8x1xf32> into tensor<8x32xf32>
    %19 = scf.for %arg4 = %c0 to %c2 step %c1 iter_args(%arg5 = %18) -> (tensor<8x32xf32>) {
      %59 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%arg5 : tensor<8x32xf32>) {
      ^bb0(%out: f32):
        %60 = math.tanh %out : f32
        linalg.yield %60 : f32
      } -> tensor<8x32xf32>
      scf.yield %59 : tensor<8x32xf32>
    }
    %extracted_2 = tensor.extract %8[%c0, %c0] : tensor<8x32xf32>
    %20 = arith.cmpf ogt, %extracted_2, %cst : f32
    %21 = scf.if %20 -> (tensor<8x32xf32>) {
      %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
      ^bb0(%in: f32, %out: f32):
        %60 = arith.maximumf %in, %cst : f32
        linalg.yield %60 : f32
      } -> tensor<8x32xf32>
      scf.yield %59 : tensor<8x32xf32>
    } else {
      scf.yield %9 : tensor<8x32xf32>
    }
    %22 = tensor.empty() : tensor<f32>
    %23 = linalg.fill ins(%cst : f32) outs(%22 : tensor<f32>) -> tensor<f32>
    %24 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%1 : tensor<8x32xf32>) outs(%23 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = arith.mulf %in, %in : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<f32>
    %25 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%13 : tensor<8x12xf32>) outs(%24 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = arith.mulf %in, %in : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<f32>
    %26 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%14 : tensor<32x8xf32>) outs(%25 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = arith.mulf %in, %in : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<f32>
    %27 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%inserted_slice : tensor<8x32xf32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = arith.mulf %in, %in : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<f32>
    %28 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%19 : tensor<8x32xf32>) outs(%27 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = arith.mulf %in, %in : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<f32>
    %29 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "reduction"]} ins(%21 : tensor<8x32xf32>) outs(%28 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %59 = arith.mulf %in, %in : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<f32>
    %30 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %arg3 : tensor<8x32xf32>, tensor<f32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %59 = arith.mulf %in, %cst_5 : f32
      %60 = arith.mulf %59, %in_4 : f32
      linalg.yield %60 : f32
    } -> tensor<8x32xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %arg3 : tensor<8x12xf32>, tensor<f32>) outs(%10 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %59 = arith.mulf %in, %cst_5 : f32
      %60 = arith.mulf %59, %in_4 : f32
      linalg.yield %60 : f32
    } -> tensor<8x12xf32>
    %32 = tensor.empty() : tensor<32x8xf32>
    %33 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%14, %arg3 : tensor<32x8xf32>, tensor<f32>) outs(%32 : tensor<32x8xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %59 = arith.mulf %in, %cst_5 : f32
      %60 = arith.mulf %59, %in_4 : f32
      linalg.yield %60 : f32
    } -> tensor<32x8xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%inserted_slice, %arg3 : tensor<8x32xf32>, tensor<f32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %59 = arith.mulf %in, %cst_5 : f32
      %60 = arith.mulf %59, %in_4 : f32
      linalg.yield %60 : f32
    } -> tensor<8x32xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%19, %arg3 : tensor<8x32xf32>, tensor<f32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %59 = arith.mulf %in, %cst_5 : f32
      %60 = arith.mulf %59, %in_4 : f32
      linalg.yield %60 : f32
    } -> tensor<8x32xf32>
    %36 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%21, %arg3 : tensor<8x32xf32>, tensor<f32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %cst_5 = arith.constant 2.000000e+00 : f32
      %59 = arith.mulf %in, %cst_5 : f32
      %60 = arith.mulf %59, %in_4 : f32
      linalg.yield %60 : f32
    } -> tensor<8x32xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%36, %21 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %38 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%35, %18 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %extracted_slice = tensor.extract_slice %34[0, 11] [8, 1] [1, 1] : tensor<8x32xf32> to tensor<8x1xf32>
    %inserted_slice_3 = tensor.insert_slice %16 into %34[0, 11] [8, 1] [1, 1] : tensor<8x1xf32> into tensor<8x32xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%inserted_slice_3, %38 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice, %arg1 : tensor<8x1xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%33, %arg0 : tensor<32x8xf32>, tensor<32x8xf32>) outs(%32 : tensor<32x8xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<32x8xf32>
    %42 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%31, %13 : tensor<8x12xf32>, tensor<8x12xf32>) outs(%10 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x12xf32>
    %43 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x32xf32>) -> tensor<8x32xf32>
    %44 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%42, %arg2 : tensor<8x12xf32>, tensor<32x12xf32>) outs(%43 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<8x32xf32>
    %45 = tensor.empty() : tensor<32x12xf32>
    %46 = linalg.fill ins(%cst : f32) outs(%45 : tensor<32x12xf32>) -> tensor<32x12xf32>
    %47 = linalg.generic {indexing_maps = [#map6, #map7, #map5], iterator_types = ["parallel", "parallel", "reduction"]} ins(%9, %42 : tensor<8x32xf32>, tensor<8x12xf32>) outs(%46 : tensor<32x12xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      %60 = arith.addf %out, %59 : f32
      linalg.yield %60 : f32
    } -> tensor<32x12xf32>
    %48 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%44, %9 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %49 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%37, %48 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%49, %6 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%39, %50 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %52 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%51, %5 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %53 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%40, %52 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %54 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%53, %38 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %55 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%38, %2 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %56 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%54, %55 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%30, %arg1 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.mulf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    %58 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%56, %57 : tensor<8x32xf32>, tensor<8x32xf32>) outs(%3 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %59 = arith.addf %in, %in_4 : f32
      linalg.yield %59 : f32
    } -> tensor<8x32xf32>
    return %29, %41, %58, %47 : tensor<f32>, tensor<32x8xf32>, tensor<8x32xf32>, tensor<32x12xf32>
  }
  func.func private @helper1(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %0 = tensor.empty() : tensor<8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x32xf32>) outs(%0 : tensor<8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = math.tanh %in : f32
      linalg.yield %2 : f32
    } -> tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
  func.func private @helper2(%arg0: tensor<32x8xf32>) -> tensor<32x8xf32> {
    %0 = tensor.empty() : tensor<32x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<32x8xf32>) outs(%0 : tensor<32x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst = arith.constant 0.000000e+00 : f32
      %2 = arith.maximumf %in, %cst : f32
      linalg.yield %2 : f32
    } -> tensor<32x8xf32>
    return %1 : tensor<32x8xf32>
  }
}

