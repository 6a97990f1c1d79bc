// Differential tester, seed 3000641 (peak-below-sim -8.2 % under mincut and
// knapsack, found by the fourteenth session's run on 5e846a2, the first
// build counting what region bodies make): after cse, each branch of the
// run-time scf.if %5 writes a chain of two elementwise generics into the
// init the if's result is written into (%0, the if's own copy after the
// import): the first generic's `outs` is used again by the second, which
// does not read it (its payload ignores %out), and the second reads the
// first's result, at the same index, in the buffer it writes.  One-shot
// bufferization writes both in place; the body count took the later use as
// a read and counted a copy (512 B) that the program never makes.  Reads
// are now what bufferization reads (a linalg init whose payload uses it),
// and an elementwise linalg op (parallel loops, identity maps) may read an
// input in the buffer it writes (lib/import/bodies.c).
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build 2>&1 | FileCheck %s
// CHECK: ok mincut {{ *}}budget None {{ *}}rng keep {{ *}}peak 4616 measured 4616
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "mincut", "budget_spec": null, "budget": null, "rng": "keep"}
// (after mlir-opt --cse)
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @f0(%arg0: tensor<32x4xf32>, %arg1: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<32x4xf32> {ac.grad}) attributes {ac.joint} {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 1.000000e+00 : f64
    %c122_i32 = arith.constant 122 : i32
    %0 = tensor.empty() : tensor<32x4xf32>
    %1 = linalg.fill_rng_2d ins(%cst, %cst_0, %c122_i32 : f64, f64, i32) outs(%0 : tensor<32x4xf32>) -> tensor<32x4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %1 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %cst_3 = arith.constant 5.000000e-01 : f32
      %cst_4 = arith.constant 2.000000e+00 : f32
      %cst_5 = arith.constant 0.000000e+00 : f32
      %22 = arith.cmpf oge, %in_2, %cst_3 : f32
      %23 = arith.select %22, %cst_4, %cst_5 : f32
      %24 = arith.mulf %in, %23 : f32
      linalg.yield %24 : f32
    } -> tensor<32x4xf32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %3 = scf.for %arg2 = %c0 to %c2 step %c1 iter_args(%arg3 = %2) -> (tensor<32x4xf32>) {
      %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<32x4xf32>) outs(%arg3 : tensor<32x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %23 = arith.addf %in, %out : f32
        %cst_2 = arith.constant 5.000000e-01 : f32
        %24 = arith.mulf %23, %cst_2 : f32
        linalg.yield %24 : f32
      } -> tensor<32x4xf32>
      scf.yield %22 : tensor<32x4xf32>
    }
    %extracted = tensor.extract %2[%c0, %c0] : tensor<32x4xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %4 = arith.cmpf ogt, %extracted, %cst_1 : f32
    %5 = scf.if %4 -> (tensor<32x4xf32>) {
      %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %24 = math.sin %in : f32
        linalg.yield %24 : f32
      } -> tensor<32x4xf32>
      %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %cst_2 = arith.constant 5.000000e-01 : f32
        %24 = arith.mulf %in, %cst_2 : f32
        linalg.yield %24 : f32
      } -> tensor<32x4xf32>
      scf.yield %23 : tensor<32x4xf32>
    } else {
      %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %24 = math.sin %in : f32
        linalg.yield %24 : f32
      } -> tensor<32x4xf32>
      %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %24 = math.sin %in : f32
        linalg.yield %24 : f32
      } -> tensor<32x4xf32>
      scf.yield %23 : tensor<32x4xf32>
    }
    %false = arith.constant false
    %6 = scf.if %false -> (tensor<32x4xf32>) {
      %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %23 = math.tanh %in : f32
        linalg.yield %23 : f32
      } -> tensor<32x4xf32>
      scf.yield %22 : tensor<32x4xf32>
    } else {
      %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
      ^bb0(%in: f32, %out: f32):
        %23 = math.tanh %in : f32
        linalg.yield %23 : f32
      } -> tensor<32x4xf32>
      scf.yield %22 : tensor<32x4xf32>
    }
    %7 = call @helper1(%5) : (tensor<32x4xf32>) -> tensor<32x4xf32>
    %8 = tensor.empty() : tensor<f32>
    %9 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<f32>) -> tensor<f32>
    %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%6 : tensor<32x4xf32>) outs(%9 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.mulf %in, %in : f32
      %23 = arith.addf %out, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%7 : tensor<32x4xf32>) outs(%10 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %22 = arith.mulf %in, %in : f32
      %23 = arith.addf %out, %22 : f32
      linalg.yield %23 : f32
    } -> tensor<f32>
    %12 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %arg1 : tensor<32x4xf32>, tensor<f32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %cst_3 = arith.constant 2.000000e+00 : f32
      %22 = arith.mulf %in, %cst_3 : f32
      %23 = arith.mulf %22, %in_2 : f32
      linalg.yield %23 : f32
    } -> tensor<32x4xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %arg1 : tensor<32x4xf32>, tensor<f32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %cst_3 = arith.constant 2.000000e+00 : f32
      %22 = arith.mulf %in, %cst_3 : f32
      %23 = arith.mulf %22, %in_2 : f32
      linalg.yield %23 : f32
    } -> tensor<32x4xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %7 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.mulf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%12, %3 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.mulf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%14, %5 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.mulf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%15, %2 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.mulf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%16, %17 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.addf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%15, %3 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.mulf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%18, %19 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.addf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %1 : tensor<32x4xf32>, tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %22 = arith.mulf %in, %in_2 : f32
      linalg.yield %22 : f32
    } -> tensor<32x4xf32>
    return %11, %21 : tensor<f32>, tensor<32x4xf32>
  }
  func.func private @helper1(%arg0: tensor<32x4xf32>) -> tensor<32x4xf32> {
    %0 = tensor.empty() : tensor<32x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<32x4xf32>) outs(%0 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst = arith.constant 5.000000e-01 : f32
      %2 = arith.mulf %in, %cst : f32
      linalg.yield %2 : f32
    } -> tensor<32x4xf32>
    return %1 : tensor<32x4xf32>
  }
}

