// A three-layer ReLU MLP with a sum-of-squares loss and its hand-written
// backward (weight gradients).  The split program must print exactly what
// the joint one prints, for every strategy.
//
// RUN: %run_cpu < %s > %t.ref
// RUN: ac-opt %s --ac-mode=split --ac-strategy=save-all | %run_cpu > %t.saveall
// RUN: diff %t.ref %t.saveall
// RUN: ac-opt %s --ac-mode=split --ac-strategy=mincut | %run_cpu > %t.mincut
// RUN: diff %t.ref %t.mincut
// RUN: ac-opt %s --ac-mode=split --ac-strategy=greedy --ac-budget=1 | %run_cpu > %t.greedy
// RUN: diff %t.ref %t.greedy
// RUN: ac-opt %s --ac-mode=split --ac-strategy=knapsack --ac-budget=1 | %run_cpu > %t.knapsack
// RUN: diff %t.ref %t.knapsack
// RUN: FileCheck %s --check-prefix=REF < %t.ref

// The reference run prints the loss and three gradients, values then bits.
// REF-COUNT-8: Unranked Memref base@ = ADDR rank = 2

#id = affine_map<(i, j) -> (i, j)>
#rd = affine_map<(i, j) -> ()>
#sc = affine_map<(i, j) -> ()>
// (i, j, b) contractions for the transposed products.
#tA = affine_map<(i, j, b) -> (b, i)>
#tB = affine_map<(i, j, b) -> (b, j)>
#tO = affine_map<(i, j, b) -> (i, j)>
#nA = affine_map<(b, i, j) -> (b, j)>
#nB = affine_map<(b, i, j) -> (i, j)>
#nO = affine_map<(b, i, j) -> (b, i)>

module {
  func.func @mlp(%x: tensor<4x8xf32>,
                 %w1: tensor<8x16xf32> {ac.param},
                 %w2: tensor<16x16xf32> {ac.param},
                 %w3: tensor<16x2xf32> {ac.param},
                 %dy: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<8x16xf32> {ac.grad},
          tensor<16x16xf32> {ac.grad}, tensor<16x2xf32> {ac.grad})
      attributes {ac.joint} {
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    // ---- forward
    %e1 = tensor.empty() : tensor<4x16xf32>
    %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %h1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>)
                        outs(%z1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %a1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h1 : tensor<4x16xf32>) outs(%e1 : tensor<4x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.maximumf %v, %zero : f32
      linalg.yield %r : f32
    } -> tensor<4x16xf32>
    %h2 = linalg.matmul ins(%a1, %w2 : tensor<4x16xf32>, tensor<16x16xf32>)
                        outs(%z1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %a2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h2 : tensor<4x16xf32>) outs(%e1 : tensor<4x16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.maximumf %v, %zero : f32
      linalg.yield %r : f32
    } -> tensor<4x16xf32>
    %e3 = tensor.empty() : tensor<4x2xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %h3 = linalg.matmul ins(%a2, %w3 : tensor<4x16xf32>, tensor<16x2xf32>)
                        outs(%z3 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %el = tensor.empty() : tensor<f32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id, #rd], iterator_types = ["reduction", "reduction"]}
        ins(%h3 : tensor<4x2xf32>) outs(%zl : tensor<f32>) {
    ^bb0(%v: f32, %acc: f32):
      %sq = arith.mulf %v, %v : f32
      %s = arith.addf %acc, %sq : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    // ---- backward
    // dh3 = 2 * dy * h3
    %dh3 = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h3, %dy : tensor<4x2xf32>, tensor<f32>) outs(%e3 : tensor<4x2xf32>) {
    ^bb0(%v: f32, %g: f32, %o: f32):
      %t = arith.mulf %v, %two : f32
      %r = arith.mulf %t, %g : f32
      linalg.yield %r : f32
    } -> tensor<4x2xf32>
    // dw3 = a2^T dh3
    %ew3 = tensor.empty() : tensor<16x2xf32>
    %zw3 = linalg.fill ins(%zero : f32) outs(%ew3 : tensor<16x2xf32>) -> tensor<16x2xf32>
    %dw3 = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a2, %dh3 : tensor<4x16xf32>, tensor<4x2xf32>) outs(%zw3 : tensor<16x2xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<16x2xf32>
    // da2 = dh3 w3^T ; dh2 = da2 * (h2 > 0)
    %eb = tensor.empty() : tensor<4x16xf32>
    %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<4x16xf32>) -> tensor<4x16xf32>
    %da2 = linalg.generic {indexing_maps = [#nA, #nB, #nO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%dh3, %w3 : tensor<4x2xf32>, tensor<16x2xf32>) outs(%zb : tensor<4x16xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x16xf32>
    %dh2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%da2, %h2 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%eb : tensor<4x16xf32>) {
    ^bb0(%g: f32, %v: f32, %o: f32):
      %pos = arith.cmpf ogt, %v, %zero : f32
      %r = arith.select %pos, %g, %zero : f32
      linalg.yield %r : f32
    } -> tensor<4x16xf32>
    // dw2 = a1^T dh2
    %ew2 = tensor.empty() : tensor<16x16xf32>
    %zw2 = linalg.fill ins(%zero : f32) outs(%ew2 : tensor<16x16xf32>) -> tensor<16x16xf32>
    %dw2 = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a1, %dh2 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%zw2 : tensor<16x16xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<16x16xf32>
    // da1 = dh2 w2^T ; dh1 = da1 * (h1 > 0)
    %da1 = linalg.generic {indexing_maps = [#nA, #nB, #nO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%dh2, %w2 : tensor<4x16xf32>, tensor<16x16xf32>) outs(%zb : tensor<4x16xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x16xf32>
    %dh1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%da1, %h1 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%eb : tensor<4x16xf32>) {
    ^bb0(%g: f32, %v: f32, %o: f32):
      %pos = arith.cmpf ogt, %v, %zero : f32
      %r = arith.select %pos, %g, %zero : f32
      linalg.yield %r : f32
    } -> tensor<4x16xf32>
    // dw1 = x^T dh1
    %ew1 = tensor.empty() : tensor<8x16xf32>
    %zw1 = linalg.fill ins(%zero : f32) outs(%ew1 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %dw1 = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %dh1 : tensor<4x8xf32>, tensor<4x16xf32>) outs(%zw1 : tensor<8x16xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x16xf32>
    return %loss, %dw1, %dw2, %dw3
        : tensor<f32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x2xf32>
  }

  // Deterministic data: t[i, j] = a * sin(f * (i * n + j) + p).
  func.func @init(%m: index, %n: index, %a: f32, %f: f32, %p: f32) -> tensor<?x?xf32> {
    %e = tensor.empty(%m, %n) : tensor<?x?xf32>
    %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<?x?xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %in = arith.muli %i, %n : index
      %k = arith.addi %in, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %u = arith.mulf %kf, %f : f32
      %w = arith.addf %u, %p : f32
      %s = math.sin %w : f32
      %r = arith.mulf %s, %a : f32
      linalg.yield %r : f32
    } -> tensor<?x?xf32>
    return %t : tensor<?x?xf32>
  }

  func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

  // Prints a matrix as values and as raw bits (the bits make diff bit-exact).
  func.func @show(%t: tensor<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = tensor.dim %t, %c0 : tensor<?x?xf32>
    %n = tensor.dim %t, %c1 : tensor<?x?xf32>
    %e = tensor.empty(%m, %n) : tensor<?x?xi32>
    %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%t : tensor<?x?xf32>) outs(%e : tensor<?x?xi32>) {
    ^bb0(%v: f32, %o: i32):
      %r = arith.bitcast %v : f32 to i32
      linalg.yield %r : i32
    } -> tensor<?x?xi32>
    %uf = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
    %ub = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
    call @printMemrefF32(%uf) : (tensor<*xf32>) -> ()
    call @printMemrefI32(%ub) : (tensor<*xi32>) -> ()
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %a = arith.constant 0.5 : f32
    %f1 = arith.constant 0.37 : f32
    %f2 = arith.constant 0.71 : f32
    %f3 = arith.constant 1.13 : f32
    %f4 = arith.constant 0.29 : f32
    %p0 = arith.constant 0.1 : f32
    %p1 = arith.constant 0.7 : f32
    %x0 = call @init(%c4, %c8, %a, %f1, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %w10 = call @init(%c8, %c16, %a, %f2, %p1) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %w20 = call @init(%c16, %c16, %a, %f3, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %w30 = call @init(%c16, %c2, %a, %f4, %p1) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %x = tensor.cast %x0 : tensor<?x?xf32> to tensor<4x8xf32>
    %w1 = tensor.cast %w10 : tensor<?x?xf32> to tensor<8x16xf32>
    %w2 = tensor.cast %w20 : tensor<?x?xf32> to tensor<16x16xf32>
    %w3 = tensor.cast %w30 : tensor<?x?xf32> to tensor<16x2xf32>
    %dy = arith.constant dense<1.0> : tensor<f32>
    %loss, %g1, %g2, %g3 = call @mlp(%x, %w1, %w2, %w3, %dy)
        : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x2xf32>, tensor<f32>)
        -> (tensor<f32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x2xf32>)
    %l2 = tensor.expand_shape %loss [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %u0 = tensor.cast %l2 : tensor<1x1xf32> to tensor<?x?xf32>
    %u1 = tensor.cast %g1 : tensor<8x16xf32> to tensor<?x?xf32>
    %u2 = tensor.cast %g2 : tensor<16x16xf32> to tensor<?x?xf32>
    %u3 = tensor.cast %g3 : tensor<16x2xf32> to tensor<?x?xf32>
    call @show(%u0) : (tensor<?x?xf32>) -> ()
    call @show(%u1) : (tensor<?x?xf32>) -> ()
    call @show(%u2) : (tensor<?x?xf32>) -> ()
    call @show(%u3) : (tensor<?x?xf32>) -> ()
    return
  }
}
