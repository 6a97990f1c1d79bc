// One softmax attention head, o = softmax(q k^T / sqrt(d)) v with
// q, k, v = x Wq, x Wk, x Wv, a sum-of-squares loss, and the full backward
// through the softmax to the three projection weights.  The split program
// must print exactly what the joint one prints, for every strategy.
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

// Loss, dWq, dWk, dWv; values then bits.
// REF-COUNT-8: Unranked Memref base@ = ADDR rank = 2

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#sc = affine_map<(i, j) -> ()>
// (i, j, b): out[i, j] = sum_b A[b, i] B[b, j]   (A^T B)
#tA = affine_map<(i, j, b) -> (b, i)>
#tB = affine_map<(i, j, b) -> (b, j)>
#tO = affine_map<(i, j, b) -> (i, j)>
// (i, j, b): out[i, j] = sum_b A[i, b] B[j, b]   (A B^T)
#pA = affine_map<(i, j, b) -> (i, b)>
#pB = affine_map<(i, j, b) -> (j, b)>

module {
  func.func @attn(%x: tensor<4x8xf32>,
                  %wq: tensor<8x8xf32> {ac.param},
                  %wk: tensor<8x8xf32> {ac.param},
                  %wv: tensor<8x8xf32> {ac.param},
                  %dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<8x8xf32> {ac.grad},
          tensor<8x8xf32> {ac.grad}, tensor<8x8xf32> {ac.grad})
      attributes {ac.joint} {
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.353553385 : f32
    // ---- forward
    %e48 = tensor.empty() : tensor<4x8xf32>
    %z48 = linalg.fill ins(%zero : f32) outs(%e48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %q = linalg.matmul ins(%x, %wq : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %k = linalg.matmul ins(%x, %wk : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %v = linalg.matmul ins(%x, %wv : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %e44 = tensor.empty() : tensor<4x4xf32>
    %z44 = linalg.fill ins(%zero : f32) outs(%e44 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %qk = linalg.generic {indexing_maps = [#pA, #pB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%q, %k : tensor<4x8xf32>, tensor<4x8xf32>) outs(%z44 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x4xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%qk : tensor<4x4xf32>) outs(%e44 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %scale : f32
      linalg.yield %m : f32
    } -> tensor<4x4xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %minf = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%s : tensor<4x4xf32>) outs(%minf : tensor<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %m = arith.maximumf %acc, %a : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s, %mx : tensor<4x4xf32>, tensor<4xf32>) outs(%e44 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      linalg.yield %r : f32
    } -> tensor<4x4xf32>
    %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
    %den = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%ex : tensor<4x4xf32>) outs(%z4 : tensor<4xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %acc, %a : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ex, %den : tensor<4x4xf32>, tensor<4xf32>) outs(%e44 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %d: f32, %o: f32):
      %r = arith.divf %a, %d : f32
      linalg.yield %r : f32
    } -> tensor<4x4xf32>
    %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x8xf32>) outs(%z48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %el = tensor.empty() : tensor<f32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%o : tensor<4x8xf32>) outs(%zl : tensor<f32>) {
    ^bb0(%a: f32, %acc: f32):
      %sq = arith.mulf %a, %a : f32
      %r = arith.addf %acc, %sq : f32
      linalg.yield %r : f32
    } -> tensor<f32>
    // ---- backward
    %b48 = tensor.empty() : tensor<4x8xf32>
    %do = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel", "parallel"]}
        ins(%o, %dl : tensor<4x8xf32>, tensor<f32>) outs(%b48 : tensor<4x8xf32>) {
    ^bb0(%a: f32, %g: f32, %out: f32):
      %t = arith.mulf %a, %two : f32
      %r = arith.mulf %t, %g : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    // dp = do v^T ; dv = p^T do
    %b44 = tensor.empty() : tensor<4x4xf32>
    %bz44 = linalg.fill ins(%zero : f32) outs(%b44 : tensor<4x4xf32>) -> tensor<4x4xf32>
    %dp = linalg.generic {indexing_maps = [#pA, #pB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%do, %v : tensor<4x8xf32>, tensor<4x8xf32>) outs(%bz44 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<4x4xf32>
    %bz48 = linalg.fill ins(%zero : f32) outs(%b48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %dv = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%p, %do : tensor<4x4xf32>, tensor<4x8xf32>) outs(%bz48 : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    // ds = scale * p * (dp - rowsum(dp * p))
    %b4 = tensor.empty() : tensor<4xf32>
    %bz4 = linalg.fill ins(%zero : f32) outs(%b4 : tensor<4xf32>) -> tensor<4xf32>
    %rs = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%dp, %p : tensor<4x4xf32>, tensor<4x4xf32>) outs(%bz4 : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    %ds = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%dp, %p, %rs : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) outs(%b44 : tensor<4x4xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
      %d = arith.subf %a, %c : f32
      %m = arith.mulf %b, %d : f32
      %r = arith.mulf %m, %scale : f32
      linalg.yield %r : f32
    } -> tensor<4x4xf32>
    // dq = ds k ; dk = ds^T q
    %dq = linalg.matmul ins(%ds, %k : tensor<4x4xf32>, tensor<4x8xf32>) outs(%bz48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %dk = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%ds, %q : tensor<4x4xf32>, tensor<4x8xf32>) outs(%bz48 : tensor<4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    // dW* = x^T d*
    %b88 = tensor.empty() : tensor<8x8xf32>
    %bz88 = linalg.fill ins(%zero : f32) outs(%b88 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %dwq = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %dq : tensor<4x8xf32>, tensor<4x8xf32>) outs(%bz88 : tensor<8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<8x8xf32>
    %dwk = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %dk : tensor<4x8xf32>, tensor<4x8xf32>) outs(%bz88 : tensor<8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<8x8xf32>
    %dwv = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %dv : tensor<4x8xf32>, tensor<4x8xf32>) outs(%bz88 : tensor<8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %m = arith.mulf %a, %b : f32
      %r = arith.addf %acc, %m : f32
      linalg.yield %r : f32
    } -> tensor<8x8xf32>
    return %loss, %dwq, %dwk, %dwv : tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
  }

  // Deterministic data: t[i, j] = a * sin(f * (i * n + j) + p).
  func.func @init(%m: index, %n: index, %a: f32, %f: f32, %p: f32) -> tensor<?x?xf32> {
    %e = tensor.empty(%m, %n) : tensor<?x?xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
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
    %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
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
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %a = arith.constant 0.5 : f32
    %a2 = arith.constant 1.5 : f32
    %f1 = arith.constant 0.37 : f32
    %f2 = arith.constant 0.71 : f32
    %f3 = arith.constant 1.13 : f32
    %f4 = arith.constant 0.29 : f32
    %p0 = arith.constant 0.1 : f32
    %p1 = arith.constant 0.7 : f32
    %p2 = arith.constant 1.3 : f32
    %x0 = call @init(%c4, %c8, %a2, %f1, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %q0 = call @init(%c8, %c8, %a, %f2, %p2) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %k0 = call @init(%c8, %c8, %a, %f3, %p1) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %v0 = call @init(%c8, %c8, %a, %f4, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %x = tensor.cast %x0 : tensor<?x?xf32> to tensor<4x8xf32>
    %wq = tensor.cast %q0 : tensor<?x?xf32> to tensor<8x8xf32>
    %wk = tensor.cast %k0 : tensor<?x?xf32> to tensor<8x8xf32>
    %wv = tensor.cast %v0 : tensor<?x?xf32> to tensor<8x8xf32>
    %dl = arith.constant dense<1.0> : tensor<f32>
    %loss, %gq, %gk, %gv = call @attn(%x, %wq, %wk, %wv, %dl)
        : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<f32>)
        -> (tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
    %l2 = tensor.expand_shape %loss [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %u0 = tensor.cast %l2 : tensor<1x1xf32> to tensor<?x?xf32>
    %u1 = tensor.cast %gq : tensor<8x8xf32> to tensor<?x?xf32>
    %u2 = tensor.cast %gk : tensor<8x8xf32> to tensor<?x?xf32>
    %u3 = tensor.cast %gv : tensor<8x8xf32> to tensor<?x?xf32>
    call @show(%u0) : (tensor<?x?xf32>) -> ()
    call @show(%u1) : (tensor<?x?xf32>) -> ()
    call @show(%u2) : (tensor<?x?xf32>) -> ()
    call @show(%u3) : (tensor<?x?xf32>) -> ()
    return
  }
}
