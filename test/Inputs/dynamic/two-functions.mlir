#map0 = affine_map<(d0, d1) -> (d0, d1)>
func.func @mlp(%x: tensor<?x64xf32> {ac.max_shape = array<i64: 32, -1>},
               %w1: tensor<64x128xf32> {ac.param}, %w2: tensor<128x64xf32> {ac.param},
               %dy: tensor<?x64xf32> {ac.tangent})
    -> (tensor<?x64xf32> {ac.output}, tensor<64x128xf32> {ac.grad}, tensor<128x64xf32> {ac.grad})
    attributes {ac.joint} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e1 = tensor.empty(%b) : tensor<?x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<?x64xf32>, tensor<64x128xf32>) outs(%f1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %e2 = tensor.empty(%b) : tensor<?x128xf32>
  %a = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<?x128xf32>) outs(%e2 : tensor<?x128xf32>) {
    ^bb0(%i: f32, %o: f32):
      %t = math.tanh %i : f32
      linalg.yield %t : f32
  } -> tensor<?x128xf32>
  %e3 = tensor.empty(%b) : tensor<?x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<?x128xf32>, tensor<128x64xf32>) outs(%f3 : tensor<?x64xf32>) -> tensor<?x64xf32>
  // backward
  %c1 = arith.constant 1 : index
  %e4 = tensor.empty() : tensor<128x64xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %aT = tensor.empty(%b) : tensor<128x?xf32>
  %at = linalg.transpose ins(%a : tensor<?x128xf32>) outs(%aT : tensor<128x?xf32>) permutation = [1, 0]
  %gw2 = linalg.matmul ins(%at, %dy : tensor<128x?xf32>, tensor<?x64xf32>) outs(%f4 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %w2T = tensor.empty() : tensor<64x128xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<128x64xf32>) outs(%w2T : tensor<64x128xf32>) permutation = [1, 0]
  %e5 = tensor.empty(%b) : tensor<?x128xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %ga = linalg.matmul ins(%dy, %w2t : tensor<?x64xf32>, tensor<64x128xf32>) outs(%f5 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %e6 = tensor.empty(%b) : tensor<?x128xf32>
  %gh = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel"]}
      ins(%ga, %a : tensor<?x128xf32>, tensor<?x128xf32>) outs(%e6 : tensor<?x128xf32>) {
    ^bb0(%g: f32, %t: f32, %o: f32):
      %t2 = arith.mulf %t, %t : f32
      %one = arith.constant 1.0 : f32
      %d = arith.subf %one, %t2 : f32
      %r = arith.mulf %g, %d : f32
      linalg.yield %r : f32
  } -> tensor<?x128xf32>
  %xT = tensor.empty(%b) : tensor<64x?xf32>
  %xt = linalg.transpose ins(%x : tensor<?x64xf32>) outs(%xT : tensor<64x?xf32>) permutation = [1, 0]
  %e7 = tensor.empty() : tensor<64x128xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %gw1 = linalg.matmul ins(%xt, %gh : tensor<64x?xf32>, tensor<?x128xf32>) outs(%f7 : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y, %gw1, %gw2 : tensor<?x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>
}

func.func @mlp2(%x: tensor<?x64xf32>,
               %w1: tensor<64x128xf32> {ac.param}, %w2: tensor<128x64xf32> {ac.param},
               %dy: tensor<?x64xf32> {ac.tangent})
    -> (tensor<?x64xf32> {ac.output}, tensor<64x128xf32> {ac.grad}, tensor<128x64xf32> {ac.grad})
    attributes {ac.joint} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e1 = tensor.empty(%b) : tensor<?x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<?x64xf32>, tensor<64x128xf32>) outs(%f1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %e2 = tensor.empty(%b) : tensor<?x128xf32>
  %a = linalg.generic {indexing_maps = [#map0, #map0], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<?x128xf32>) outs(%e2 : tensor<?x128xf32>) {
    ^bb0(%i: f32, %o: f32):
      %t = math.tanh %i : f32
      linalg.yield %t : f32
  } -> tensor<?x128xf32>
  %e3 = tensor.empty(%b) : tensor<?x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<?x128xf32>, tensor<128x64xf32>) outs(%f3 : tensor<?x64xf32>) -> tensor<?x64xf32>
  // backward
  %c1 = arith.constant 1 : index
  %e4 = tensor.empty() : tensor<128x64xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %aT = tensor.empty(%b) : tensor<128x?xf32>
  %at = linalg.transpose ins(%a : tensor<?x128xf32>) outs(%aT : tensor<128x?xf32>) permutation = [1, 0]
  %gw2 = linalg.matmul ins(%at, %dy : tensor<128x?xf32>, tensor<?x64xf32>) outs(%f4 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %w2T = tensor.empty() : tensor<64x128xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<128x64xf32>) outs(%w2T : tensor<64x128xf32>) permutation = [1, 0]
  %e5 = tensor.empty(%b) : tensor<?x128xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %ga = linalg.matmul ins(%dy, %w2t : tensor<?x64xf32>, tensor<64x128xf32>) outs(%f5 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %e6 = tensor.empty(%b) : tensor<?x128xf32>
  %gh = linalg.generic {indexing_maps = [#map0, #map0, #map0], iterator_types = ["parallel", "parallel"]}
      ins(%ga, %a : tensor<?x128xf32>, tensor<?x128xf32>) outs(%e6 : tensor<?x128xf32>) {
    ^bb0(%g: f32, %t: f32, %o: f32):
      %t2 = arith.mulf %t, %t : f32
      %one = arith.constant 1.0 : f32
      %d = arith.subf %one, %t2 : f32
      %r = arith.mulf %g, %d : f32
      linalg.yield %r : f32
  } -> tensor<?x128xf32>
  %xT = tensor.empty(%b) : tensor<64x?xf32>
  %xt = linalg.transpose ins(%x : tensor<?x64xf32>) outs(%xT : tensor<64x?xf32>) permutation = [1, 0]
  %e7 = tensor.empty() : tensor<64x128xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %gw1 = linalg.matmul ins(%xt, %gh : tensor<64x?xf32>, tensor<?x128xf32>) outs(%f7 : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y, %gw1, %gw2 : tensor<?x64xf32>, tensor<64x128xf32>, tensor<128x64xf32>
}
