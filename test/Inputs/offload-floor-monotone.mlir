#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
#map3 = affine_map<(d0, d1) -> ()>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map7 = affine_map<(d0, d1, d2) -> (d2, d0)>
#map8 = affine_map<(d0, d1, d2) -> (d2, d1)>
module attributes {ac.schedule = ["f0.fwd", "f1.fwd", "f1.bwd", "f0.bwd"]} {
  func.func @f0(%arg0: tensor<24x8xf32>, %arg1: tensor<8x24xf32>, %arg2: tensor<11x8xf32> {ac.param}, %arg3: tensor<1xf32> {ac.param}, %arg4: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<24x8xf32> {ac.grad}, tensor<8x24xf32> {ac.grad}, tensor<11x8xf32> {ac.grad}, tensor<1xf32> {ac.grad}) attributes {ac.joint} {
    %collapsed = tensor.collapse_shape %arg1 [[0, 1]] : tensor<8x24xf32> into tensor<192xf32>
    %expanded = tensor.expand_shape %collapsed [[0, 1]] output_shape [64, 3] : tensor<192xf32> into tensor<64x3xf32>
    %0 = tensor.empty() : tensor<8x24xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %arg1 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%0 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<8x24xf32>
    %extracted_slice = tensor.extract_slice %expanded[6, 2] [22, 1] [1, 1] : tensor<64x3xf32> to tensor<22x1xf32>
    %extracted_slice_0 = tensor.extract_slice %1[3, 13] [5, 11] [1, 1] : tensor<8x24xf32> to tensor<5x11xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[2, 0] high[0, 0] {
    ^bb0(%arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<24x8xf32> to tensor<26x8xf32>
    %2 = tensor.empty() : tensor<5x8xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %3 = linalg.fill ins(%cst_1 : f32) outs(%2 : tensor<5x8xf32>) -> tensor<5x8xf32>
    %4 = linalg.matmul ins(%extracted_slice_0, %arg2 : tensor<5x11xf32>, tensor<11x8xf32>) outs(%3 : tensor<5x8xf32>) -> tensor<5x8xf32>
    %5 = tensor.empty() : tensor<5x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<5x8xf32>) outs(%5 : tensor<5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = math.tanh %in : f32
      linalg.yield %79 : f32
    } -> tensor<5x8xf32>
    %7 = tensor.empty() : tensor<64x1xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %8 = linalg.fill ins(%cst_2 : f32) outs(%7 : tensor<64x1xf32>) -> tensor<64x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%expanded : tensor<64x3xf32>) outs(%8 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = arith.addf %in, %out : f32
      linalg.yield %79 : f32
    } -> tensor<64x1xf32>
    %10 = tensor.empty() : tensor<64x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %arg3 : tensor<64x1xf32>, tensor<1xf32>) outs(%10 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.addf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<64x1xf32>
    %inserted_slice = tensor.insert_slice %9 into %11[0, 0] [64, 1] [1, 1] : tensor<64x1xf32> into tensor<64x1xf32>
    %extracted_slice_3 = tensor.extract_slice %inserted_slice[30, 0] [21, 1] [1, 1] : tensor<64x1xf32> to tensor<21x1xf32>
    %cst_4 = arith.constant 0.000000e+00 : f64
    %cst_5 = arith.constant 1.000000e+00 : f64
    %c268_i32 = arith.constant 268 : i32
    %12 = tensor.empty() : tensor<24x8xf32>
    %13 = linalg.fill_rng_2d ins(%cst_4, %cst_5, %c268_i32 : f64, f64, i32) outs(%12 : tensor<24x8xf32>) -> tensor<24x8xf32>
    %14 = tensor.empty() : tensor<24x8xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %13 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%14 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %cst_26 = arith.constant 7.500000e-01 : f32
      %cst_27 = arith.constant 4.000000e+00 : f32
      %cst_28 = arith.constant 0.000000e+00 : f32
      %79 = arith.cmpf oge, %in_25, %cst_26 : f32
      %80 = arith.select %79, %cst_27, %cst_28 : f32
      %81 = arith.mulf %in, %80 : f32
      linalg.yield %81 : f32
    } -> tensor<24x8xf32>
    %16 = tensor.empty() : tensor<24x24xf32>
    %cst_6 = arith.constant 0.000000e+00 : f32
    %17 = linalg.fill ins(%cst_6 : f32) outs(%16 : tensor<24x24xf32>) -> tensor<24x24xf32>
    %18 = linalg.matmul ins(%15, %arg1 : tensor<24x8xf32>, tensor<8x24xf32>) outs(%17 : tensor<24x24xf32>) -> tensor<24x24xf32>
    %19 = tensor.empty() : tensor<24x24xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%18 : tensor<24x24xf32>) outs(%19 : tensor<24x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = math.tanh %in : f32
      linalg.yield %79 : f32
    } -> tensor<24x24xf32>
    %21 = tensor.empty() : tensor<f32>
    %cst_7 = arith.constant 0.000000e+00 : f32
    %22 = linalg.fill ins(%cst_7 : f32) outs(%21 : tensor<f32>) -> tensor<f32>
    %23 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%extracted_slice : tensor<22x1xf32>) outs(%22 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = arith.mulf %in, %in : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<f32>
    %24 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%padded : tensor<26x8xf32>) outs(%23 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = arith.mulf %in, %in : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<f32>
    %25 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%6 : tensor<5x8xf32>) outs(%24 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = arith.mulf %in, %in : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<f32>
    %26 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%extracted_slice_3 : tensor<21x1xf32>) outs(%25 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = arith.mulf %in, %in : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<f32>
    %27 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%20 : tensor<24x24xf32>) outs(%26 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = arith.mulf %in, %in : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<f32>
    %28 = tensor.empty() : tensor<22x1xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice, %arg4 : tensor<22x1xf32>, tensor<f32>) outs(%28 : tensor<22x1xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %cst_26 = arith.constant 2.000000e+00 : f32
      %79 = arith.mulf %in, %cst_26 : f32
      %80 = arith.mulf %79, %in_25 : f32
      linalg.yield %80 : f32
    } -> tensor<22x1xf32>
    %30 = tensor.empty() : tensor<26x8xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%padded, %arg4 : tensor<26x8xf32>, tensor<f32>) outs(%30 : tensor<26x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %cst_26 = arith.constant 2.000000e+00 : f32
      %79 = arith.mulf %in, %cst_26 : f32
      %80 = arith.mulf %79, %in_25 : f32
      linalg.yield %80 : f32
    } -> tensor<26x8xf32>
    %32 = tensor.empty() : tensor<5x8xf32>
    %33 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %arg4 : tensor<5x8xf32>, tensor<f32>) outs(%32 : tensor<5x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %cst_26 = arith.constant 2.000000e+00 : f32
      %79 = arith.mulf %in, %cst_26 : f32
      %80 = arith.mulf %79, %in_25 : f32
      linalg.yield %80 : f32
    } -> tensor<5x8xf32>
    %34 = tensor.empty() : tensor<21x1xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_3, %arg4 : tensor<21x1xf32>, tensor<f32>) outs(%34 : tensor<21x1xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %cst_26 = arith.constant 2.000000e+00 : f32
      %79 = arith.mulf %in, %cst_26 : f32
      %80 = arith.mulf %79, %in_25 : f32
      linalg.yield %80 : f32
    } -> tensor<21x1xf32>
    %36 = tensor.empty() : tensor<24x24xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%20, %arg4 : tensor<24x24xf32>, tensor<f32>) outs(%36 : tensor<24x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %cst_26 = arith.constant 2.000000e+00 : f32
      %79 = arith.mulf %in, %cst_26 : f32
      %80 = arith.mulf %79, %in_25 : f32
      linalg.yield %80 : f32
    } -> tensor<24x24xf32>
    %38 = tensor.empty() : tensor<24x24xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%37, %20 : tensor<24x24xf32>, tensor<24x24xf32>) outs(%38 : tensor<24x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<24x24xf32>
    %40 = tensor.empty() : tensor<24x8xf32>
    %cst_8 = arith.constant 0.000000e+00 : f32
    %41 = linalg.fill ins(%cst_8 : f32) outs(%40 : tensor<24x8xf32>) -> tensor<24x8xf32>
    %42 = linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%39, %arg1 : tensor<24x24xf32>, tensor<8x24xf32>) outs(%41 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<24x8xf32>
    %43 = tensor.empty() : tensor<8x24xf32>
    %cst_9 = arith.constant 0.000000e+00 : f32
    %44 = linalg.fill ins(%cst_9 : f32) outs(%43 : tensor<8x24xf32>) -> tensor<8x24xf32>
    %45 = linalg.generic {indexing_maps = [#map7, #map8, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%15, %39 : tensor<24x8xf32>, tensor<24x24xf32>) outs(%44 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<8x24xf32>
    %46 = tensor.empty() : tensor<24x8xf32>
    %47 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%42, %13 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%46 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<24x8xf32>
    %cst_10 = arith.constant 0.000000e+00 : f32
    %padded_11 = tensor.pad %35 low[30, 0] high[13, 0] {
    ^bb0(%arg5: index, %arg6: index):
      tensor.yield %cst_10 : f32
    } : tensor<21x1xf32> to tensor<64x1xf32>
    %extracted_slice_12 = tensor.extract_slice %padded_11[0, 0] [64, 1] [1, 1] : tensor<64x1xf32> to tensor<64x1xf32>
    %48 = tensor.empty() : tensor<64x1xf32>
    %cst_13 = arith.constant 0.000000e+00 : f32
    %49 = linalg.fill ins(%cst_13 : f32) outs(%48 : tensor<64x1xf32>) -> tensor<64x1xf32>
    %inserted_slice_14 = tensor.insert_slice %49 into %padded_11[0, 0] [64, 1] [1, 1] : tensor<64x1xf32> into tensor<64x1xf32>
    %50 = tensor.empty() : tensor<64x1xf32>
    %51 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_12, %inserted_slice_14 : tensor<64x1xf32>, tensor<64x1xf32>) outs(%50 : tensor<64x1xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.addf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<64x1xf32>
    %52 = tensor.empty() : tensor<1xf32>
    %cst_15 = arith.constant 0.000000e+00 : f32
    %53 = linalg.fill ins(%cst_15 : f32) outs(%52 : tensor<1xf32>) -> tensor<1xf32>
    %54 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%inserted_slice_14 : tensor<64x1xf32>) outs(%53 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %79 = arith.addf %in, %out : f32
      linalg.yield %79 : f32
    } -> tensor<1xf32>
    %55 = tensor.empty() : tensor<64x3xf32>
    %56 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%51, %expanded : tensor<64x1xf32>, tensor<64x3xf32>) outs(%55 : tensor<64x3xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<64x3xf32>
    %57 = tensor.empty() : tensor<5x8xf32>
    %58 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%33, %6 : tensor<5x8xf32>, tensor<5x8xf32>) outs(%57 : tensor<5x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<5x8xf32>
    %59 = tensor.empty() : tensor<5x11xf32>
    %cst_16 = arith.constant 0.000000e+00 : f32
    %60 = linalg.fill ins(%cst_16 : f32) outs(%59 : tensor<5x11xf32>) -> tensor<5x11xf32>
    %61 = linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%58, %arg2 : tensor<5x8xf32>, tensor<11x8xf32>) outs(%60 : tensor<5x11xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<5x11xf32>
    %62 = tensor.empty() : tensor<11x8xf32>
    %cst_17 = arith.constant 0.000000e+00 : f32
    %63 = linalg.fill ins(%cst_17 : f32) outs(%62 : tensor<11x8xf32>) -> tensor<11x8xf32>
    %64 = linalg.generic {indexing_maps = [#map7, #map8, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%extracted_slice_0, %58 : tensor<5x11xf32>, tensor<5x8xf32>) outs(%63 : tensor<11x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      %80 = arith.addf %out, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<11x8xf32>
    %extracted_slice_18 = tensor.extract_slice %31[2, 0] [24, 8] [1, 1] : tensor<26x8xf32> to tensor<24x8xf32>
    %65 = tensor.empty() : tensor<24x8xf32>
    %66 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%47, %extracted_slice_18 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%65 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.addf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<24x8xf32>
    %cst_19 = arith.constant 0.000000e+00 : f32
    %padded_20 = tensor.pad %61 low[3, 13] high[0, 0] {
    ^bb0(%arg5: index, %arg6: index):
      tensor.yield %cst_19 : f32
    } : tensor<5x11xf32> to tensor<8x24xf32>
    %cst_21 = arith.constant 0.000000e+00 : f32
    %padded_22 = tensor.pad %29 low[6, 2] high[36, 0] {
    ^bb0(%arg5: index, %arg6: index):
      tensor.yield %cst_21 : f32
    } : tensor<22x1xf32> to tensor<64x3xf32>
    %67 = tensor.empty() : tensor<64x3xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%56, %padded_22 : tensor<64x3xf32>, tensor<64x3xf32>) outs(%67 : tensor<64x3xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.addf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<64x3xf32>
    %69 = tensor.empty() : tensor<8x24xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%padded_20, %arg1 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%69 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<8x24xf32>
    %71 = tensor.empty() : tensor<8x24xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%45, %70 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%71 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.addf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<8x24xf32>
    %73 = tensor.empty() : tensor<8x24xf32>
    %74 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%padded_20, %arg1 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%73 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.mulf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<8x24xf32>
    %75 = tensor.empty() : tensor<8x24xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%72, %74 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%75 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.addf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<8x24xf32>
    %collapsed_23 = tensor.collapse_shape %68 [[0, 1]] : tensor<64x3xf32> into tensor<192xf32>
    %expanded_24 = tensor.expand_shape %collapsed_23 [[0, 1]] output_shape [8, 24] : tensor<192xf32> into tensor<8x24xf32>
    %77 = tensor.empty() : tensor<8x24xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%76, %expanded_24 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%77 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_25: f32, %out: f32):
      %79 = arith.addf %in, %in_25 : f32
      linalg.yield %79 : f32
    } -> tensor<8x24xf32>
    return %27, %66, %78, %64, %54 : tensor<f32>, tensor<24x8xf32>, tensor<8x24xf32>, tensor<11x8xf32>, tensor<1xf32>
  }
  func.func @f1(%arg0: tensor<24x8xf32>, %arg1: tensor<8x24xf32>, %arg2: tensor<24x12xf32> {ac.param}, %arg3: tensor<12xf32> {ac.param}, %arg4: tensor<1xf32> {ac.param}, %arg5: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<24x8xf32> {ac.grad}, tensor<8x24xf32> {ac.grad}, tensor<24x12xf32> {ac.grad}, tensor<12xf32> {ac.grad}, tensor<1xf32> {ac.grad}) attributes {ac.joint} {
    %0 = tensor.empty() : tensor<24x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%0 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<24x8xf32>
    %2 = tensor.empty() : tensor<8x24xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %arg1 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%2 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x24xf32>
    %4 = tensor.empty() : tensor<8x24xf32>
    %transposed = linalg.transpose ins(%1 : tensor<24x8xf32>) outs(%4 : tensor<8x24xf32>) permutation = [1, 0] 
    %cst = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = arith.constant dense<[8, 24]> : tensor<2xi64>
    %5 = "stablehlo.rng"(%cst, %cst_0, %cst_1) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<8x24xf32>
    %6 = tensor.empty() : tensor<8x24xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %5 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%6 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %cst_17 = arith.constant 5.000000e-01 : f32
      %cst_18 = arith.constant 2.000000e+00 : f32
      %cst_19 = arith.constant 0.000000e+00 : f32
      %87 = arith.cmpf oge, %in_16, %cst_17 : f32
      %88 = arith.select %87, %cst_18, %cst_19 : f32
      %89 = arith.mulf %in, %88 : f32
      linalg.yield %89 : f32
    } -> tensor<8x24xf32>
    %true = arith.constant true
    %8 = scf.if %true -> (tensor<24x8xf32>) {
      %87 = tensor.empty() : tensor<24x8xf32>
      %88 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<24x8xf32>) outs(%87 : tensor<24x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %89 = math.sin %in : f32
        linalg.yield %89 : f32
      } -> tensor<24x8xf32>
      scf.yield %88 : tensor<24x8xf32>
    } else {
      %87 = tensor.empty() : tensor<24x8xf32>
      %88 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<24x8xf32>) outs(%87 : tensor<24x8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %89 = math.tanh %in : f32
        linalg.yield %89 : f32
      } -> tensor<24x8xf32>
      scf.yield %88 : tensor<24x8xf32>
    }
    %9 = tensor.empty() : tensor<8x12xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %10 = linalg.fill ins(%cst_2 : f32) outs(%9 : tensor<8x12xf32>) -> tensor<8x12xf32>
    %11 = linalg.matmul ins(%7, %arg2 : tensor<8x24xf32>, tensor<24x12xf32>) outs(%10 : tensor<8x12xf32>) -> tensor<8x12xf32>
    %12 = tensor.empty() : tensor<8x12xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<8x12xf32>) outs(%12 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = math.tanh %in : f32
      linalg.yield %87 : f32
    } -> tensor<8x12xf32>
    %14 = tensor.empty() : tensor<8x24xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed, %7 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%14 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x24xf32>
    %16 = tensor.empty() : tensor<8x12xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %arg3 : tensor<8x12xf32>, tensor<12xf32>) outs(%16 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x12xf32>
    %collapsed = tensor.collapse_shape %15 [[0, 1]] : tensor<8x24xf32> into tensor<192xf32>
    %expanded = tensor.expand_shape %collapsed [[0, 1]] output_shape [32, 6] : tensor<192xf32> into tensor<32x6xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_3 = arith.constant 1 : index
    %18 = scf.for %arg6 = %c0 to %c1 step %c1_3 iter_args(%arg7 = %expanded) -> (tensor<32x6xf32>) {
      %87 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded : tensor<32x6xf32>) outs(%arg7 : tensor<32x6xf32>) {
      ^bb0(%in: f32, %out: f32):
        %88 = arith.addf %in, %out : f32
        %cst_16 = arith.constant 5.000000e-01 : f32
        %89 = arith.mulf %88, %cst_16 : f32
        linalg.yield %89 : f32
      } -> tensor<32x6xf32>
      scf.yield %87 : tensor<32x6xf32>
    }
    %19 = tensor.empty() : tensor<32x1xf32>
    %cst_4 = arith.constant 0.000000e+00 : f32
    %20 = linalg.fill ins(%cst_4 : f32) outs(%19 : tensor<32x1xf32>) -> tensor<32x1xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%18 : tensor<32x6xf32>) outs(%20 : tensor<32x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.addf %in, %out : f32
      linalg.yield %87 : f32
    } -> tensor<32x1xf32>
    %22 = tensor.empty() : tensor<32x1xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%21 : tensor<32x1xf32>) outs(%22 : tensor<32x1xf32>) attrs =  {ac.recompute} {
    ^bb0(%in: f32, %out: f32):
      %87 = math.sin %in : f32
      linalg.yield %87 : f32
    } -> tensor<32x1xf32>
    %cst_5 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_6 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_7 = arith.constant dense<[8, 12]> : tensor<2xi64>
    %24 = "stablehlo.rng"(%cst_5, %cst_6, %cst_7) {rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<8x12xf32>
    %25 = tensor.empty() : tensor<8x12xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%17, %24 : tensor<8x12xf32>, tensor<8x12xf32>) outs(%25 : tensor<8x12xf32>) attrs =  {ac.save} {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %cst_17 = arith.constant 5.000000e-01 : f32
      %cst_18 = arith.constant 2.000000e+00 : f32
      %cst_19 = arith.constant 0.000000e+00 : f32
      %87 = arith.cmpf oge, %in_16, %cst_17 : f32
      %88 = arith.select %87, %cst_18, %cst_19 : f32
      %89 = arith.mulf %in, %88 : f32
      linalg.yield %89 : f32
    } -> tensor<8x12xf32>
    %27 = tensor.empty() : tensor<32x1xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%23, %arg4 : tensor<32x1xf32>, tensor<1xf32>) outs(%27 : tensor<32x1xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<32x1xf32>
    %29 = tensor.empty() : tensor<f32>
    %cst_8 = arith.constant 0.000000e+00 : f32
    %30 = linalg.fill ins(%cst_8 : f32) outs(%29 : tensor<f32>) -> tensor<f32>
    %31 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%8 : tensor<24x8xf32>) outs(%30 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.mulf %in, %in : f32
      %88 = arith.addf %out, %87 : f32
      linalg.yield %88 : f32
    } -> tensor<f32>
    %32 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%26 : tensor<8x12xf32>) outs(%31 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.mulf %in, %in : f32
      %88 = arith.addf %out, %87 : f32
      linalg.yield %88 : f32
    } -> tensor<f32>
    %33 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction"]} ins(%28 : tensor<32x1xf32>) outs(%32 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.mulf %in, %in : f32
      %88 = arith.addf %out, %87 : f32
      linalg.yield %88 : f32
    } -> tensor<f32>
    %34 = tensor.empty() : tensor<24x8xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg5 : tensor<24x8xf32>, tensor<f32>) outs(%34 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %cst_17 = arith.constant 2.000000e+00 : f32
      %87 = arith.mulf %in, %cst_17 : f32
      %88 = arith.mulf %87, %in_16 : f32
      linalg.yield %88 : f32
    } -> tensor<24x8xf32>
    %36 = tensor.empty() : tensor<8x12xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%26, %arg5 : tensor<8x12xf32>, tensor<f32>) outs(%36 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %cst_17 = arith.constant 2.000000e+00 : f32
      %87 = arith.mulf %in, %cst_17 : f32
      %88 = arith.mulf %87, %in_16 : f32
      linalg.yield %88 : f32
    } -> tensor<8x12xf32>
    %38 = tensor.empty() : tensor<32x1xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%28, %arg5 : tensor<32x1xf32>, tensor<f32>) outs(%38 : tensor<32x1xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %cst_17 = arith.constant 2.000000e+00 : f32
      %87 = arith.mulf %in, %cst_17 : f32
      %88 = arith.mulf %87, %in_16 : f32
      linalg.yield %88 : f32
    } -> tensor<32x1xf32>
    %40 = tensor.empty() : tensor<1xf32>
    %cst_9 = arith.constant 0.000000e+00 : f32
    %41 = linalg.fill ins(%cst_9 : f32) outs(%40 : tensor<1xf32>) -> tensor<1xf32>
    %42 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%39 : tensor<32x1xf32>) outs(%41 : tensor<1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.addf %in, %out : f32
      linalg.yield %87 : f32
    } -> tensor<1xf32>
    %43 = tensor.empty() : tensor<8x12xf32>
    %44 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%37, %24 : tensor<8x12xf32>, tensor<8x12xf32>) outs(%43 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x12xf32>
    %45 = tensor.empty() : tensor<32x1xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%39, %21 : tensor<32x1xf32>, tensor<32x1xf32>) outs(%45 : tensor<32x1xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<32x1xf32>
    %47 = tensor.empty() : tensor<32x6xf32>
    %48 = linalg.generic {indexing_maps = [#map1, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%46, %18 : tensor<32x1xf32>, tensor<32x6xf32>) outs(%47 : tensor<32x6xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<32x6xf32>
    %49 = tensor.empty() : tensor<32x6xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%48, %18 : tensor<32x6xf32>, tensor<32x6xf32>) outs(%49 : tensor<32x6xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<32x6xf32>
    %51 = tensor.empty() : tensor<32x6xf32>
    %52 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%48, %18 : tensor<32x6xf32>, tensor<32x6xf32>) outs(%51 : tensor<32x6xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<32x6xf32>
    %53 = tensor.empty() : tensor<32x6xf32>
    %54 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%50, %52 : tensor<32x6xf32>, tensor<32x6xf32>) outs(%53 : tensor<32x6xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<32x6xf32>
    %collapsed_10 = tensor.collapse_shape %54 [[0, 1]] : tensor<32x6xf32> into tensor<192xf32>
    %expanded_11 = tensor.expand_shape %collapsed_10 [[0, 1]] output_shape [8, 24] : tensor<192xf32> into tensor<8x24xf32>
    %55 = tensor.empty() : tensor<12xf32>
    %cst_12 = arith.constant 0.000000e+00 : f32
    %56 = linalg.fill ins(%cst_12 : f32) outs(%55 : tensor<12xf32>) -> tensor<12xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%44 : tensor<8x12xf32>) outs(%56 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %87 = arith.addf %in, %out : f32
      linalg.yield %87 : f32
    } -> tensor<12xf32>
    %58 = tensor.empty() : tensor<8x24xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_11, %7 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%58 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x24xf32>
    %60 = tensor.empty() : tensor<8x24xf32>
    %61 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%expanded_11, %transposed : tensor<8x24xf32>, tensor<8x24xf32>) outs(%60 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x24xf32>
    %62 = tensor.empty() : tensor<8x12xf32>
    %63 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%44, %13 : tensor<8x12xf32>, tensor<8x12xf32>) outs(%62 : tensor<8x12xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x12xf32>
    %64 = tensor.empty() : tensor<8x24xf32>
    %cst_13 = arith.constant 0.000000e+00 : f32
    %65 = linalg.fill ins(%cst_13 : f32) outs(%64 : tensor<8x24xf32>) -> tensor<8x24xf32>
    %66 = linalg.generic {indexing_maps = [#map4, #map5, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%63, %arg2 : tensor<8x12xf32>, tensor<24x12xf32>) outs(%65 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      %88 = arith.addf %out, %87 : f32
      linalg.yield %88 : f32
    } -> tensor<8x24xf32>
    %67 = tensor.empty() : tensor<8x24xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%61, %66 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%67 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x24xf32>
    %69 = tensor.empty() : tensor<24x12xf32>
    %cst_14 = arith.constant 0.000000e+00 : f32
    %70 = linalg.fill ins(%cst_14 : f32) outs(%69 : tensor<24x12xf32>) -> tensor<24x12xf32>
    %71 = linalg.generic {indexing_maps = [#map7, #map8, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7, %63 : tensor<8x24xf32>, tensor<8x12xf32>) outs(%70 : tensor<24x12xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      %88 = arith.addf %out, %87 : f32
      linalg.yield %88 : f32
    } -> tensor<24x12xf32>
    %72 = tensor.empty() : tensor<24x8xf32>
    %73 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%35, %8 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%72 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<24x8xf32>
    %74 = tensor.empty() : tensor<8x24xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%68, %5 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%74 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x24xf32>
    %76 = tensor.empty() : tensor<24x8xf32>
    %transposed_15 = linalg.transpose ins(%59 : tensor<8x24xf32>) outs(%76 : tensor<24x8xf32>) permutation = [1, 0] 
    %77 = tensor.empty() : tensor<8x24xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%75, %75 : tensor<8x24xf32>, tensor<8x24xf32>) outs(%77 : tensor<8x24xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<8x24xf32>
    %79 = tensor.empty() : tensor<24x8xf32>
    %80 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed_15, %arg0 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%79 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<24x8xf32>
    %81 = tensor.empty() : tensor<24x8xf32>
    %82 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%73, %80 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%81 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<24x8xf32>
    %83 = tensor.empty() : tensor<24x8xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%transposed_15, %arg0 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%83 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.mulf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<24x8xf32>
    %85 = tensor.empty() : tensor<24x8xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%82, %84 : tensor<24x8xf32>, tensor<24x8xf32>) outs(%85 : tensor<24x8xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %87 = arith.addf %in, %in_16 : f32
      linalg.yield %87 : f32
    } -> tensor<24x8xf32>
    return %33, %86, %78, %71, %57, %42 : tensor<f32>, tensor<24x8xf32>, tensor<8x24xf32>, tensor<24x12xf32>, tensor<12xf32>, tensor<1xf32>
  }
}

