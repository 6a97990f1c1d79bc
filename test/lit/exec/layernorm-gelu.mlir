// Layer norm (affine) -> linear -> tanh-approximated GELU with a
// sum-of-squares loss, and its full backward: gradients for the input, gamma,
// beta and the weight.  The split program must print exactly what the joint
// one prints, for every strategy.
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

// Loss, dx, dgamma, dbeta, dw; values then bits.
// REF-COUNT-10: Unranked Memref base@ = ADDR rank = 2

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#sc = affine_map<(i, j) -> ()>
#vec = affine_map<(i) -> (i)>
#tA = affine_map<(i, j, b) -> (b, i)>
#tB = affine_map<(i, j, b) -> (b, j)>
#tO = affine_map<(i, j, b) -> (i, j)>
#nA = affine_map<(b, i, j) -> (b, j)>
#nB = affine_map<(b, i, j) -> (i, j)>
#nO = affine_map<(b, i, j) -> (b, i)>

module {
  func.func @ln_gelu(%x: tensor<4x8xf32>,
                     %gamma: tensor<8xf32> {ac.param},
                     %beta: tensor<8xf32> {ac.param},
                     %w: tensor<8x8xf32> {ac.param},
                     %dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<4x8xf32> {ac.grad},
          tensor<8xf32> {ac.grad}, tensor<8xf32> {ac.grad},
          tensor<8x8xf32> {ac.grad})
      attributes {ac.joint} {
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %invd = arith.constant 0.125 : f32
    %eps = arith.constant 1.0e-5 : f32
    %k0 = arith.constant 0.797884583 : f32
    %k1 = arith.constant 0.044715 : f32
    // ---- forward: layer norm
    %er = tensor.empty() : tensor<4xf32>
    %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
    %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<4x8xf32>) outs(%zr : tensor<4xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %xc = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %s: f32, %o: f32):
      %mu = arith.mulf %s, %invd : f32
      %r = arith.subf %v, %mu : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %ssq = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%xc : tensor<4x8xf32>) outs(%zr : tensor<4xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %q = arith.mulf %v, %v : f32
      %s = arith.addf %acc, %q : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    %rstd = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
        ins(%ssq : tensor<4xf32>) outs(%er : tensor<4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %var = arith.mulf %v, %invd : f32
      %ve = arith.addf %var, %eps : f32
      %r = math.rsqrt %ve : f32
      linalg.yield %r : f32
    } -> tensor<4xf32>
    %xhat = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xc, %rstd : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %r: f32, %o: f32):
      %m = arith.mulf %v, %r : f32
      linalg.yield %m : f32
    } -> tensor<4x8xf32>
    %y = linalg.generic {indexing_maps = [#id, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%xhat, %gamma, %beta : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %g: f32, %b: f32, %o: f32):
      %m = arith.mulf %v, %g : f32
      %a = arith.addf %m, %b : f32
      linalg.yield %a : f32
    } -> tensor<4x8xf32>
    // ---- forward: linear + GELU (tanh form)
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %h = linalg.matmul ins(%y, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                       outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %v2 = arith.mulf %v, %v : f32
      %v3 = arith.mulf %v2, %v : f32
      %c = arith.mulf %v3, %k1 : f32
      %s = arith.addf %v, %c : f32
      %u = arith.mulf %s, %k0 : f32
      %r = math.tanh %u : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h, %t : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %tv: f32, %o: f32):
      %a = arith.addf %tv, %one : f32
      %hv = arith.mulf %v, %half : f32
      %r = arith.mulf %hv, %a : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %el = tensor.empty() : tensor<f32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%g : tensor<4x8xf32>) outs(%zl : tensor<f32>) {
    ^bb0(%v: f32, %acc: f32):
      %q = arith.mulf %v, %v : f32
      %s = arith.addf %acc, %q : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    // ---- backward
    %eb = tensor.empty() : tensor<4x8xf32>
    // dh = 2 g dl * gelu'(h), gelu'(h) = (1 + t)/2 + h/2 (1 - t^2) k0 (1 + 3 k1 h^2)
    %dh = linalg.generic {indexing_maps = [#id, #id, #id, #sc, #id], iterator_types = ["parallel", "parallel"]}
        ins(%g, %h, %t, %dl : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>)
        outs(%eb : tensor<4x8xf32>) {
    ^bb0(%gv: f32, %v: f32, %tv: f32, %d: f32, %o: f32):
      %g2 = arith.mulf %gv, %two : f32
      %dg = arith.mulf %g2, %d : f32
      %a = arith.addf %tv, %one : f32
      %p1 = arith.mulf %a, %half : f32
      %tt = arith.mulf %tv, %tv : f32
      %omt = arith.subf %one, %tt : f32
      %v2 = arith.mulf %v, %v : f32
      %c3 = arith.mulf %k1, %three : f32
      %q = arith.mulf %v2, %c3 : f32
      %q1 = arith.addf %q, %one : f32
      %du = arith.mulf %q1, %k0 : f32
      %hv = arith.mulf %v, %half : f32
      %p2a = arith.mulf %hv, %omt : f32
      %p2 = arith.mulf %p2a, %du : f32
      %gp = arith.addf %p1, %p2 : f32
      %r = arith.mulf %dg, %gp : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    // dw = y^T dh
    %ew = tensor.empty() : tensor<8x8xf32>
    %zw = linalg.fill ins(%zero : f32) outs(%ew : tensor<8x8xf32>) -> tensor<8x8xf32>
    %dw = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%y, %dh : tensor<4x8xf32>, tensor<4x8xf32>) outs(%zw : tensor<8x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    // dy = dh w^T
    %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<4x8xf32>) -> tensor<4x8xf32>
    %dy = linalg.generic {indexing_maps = [#nA, #nB, #nO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%dh, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%zb : tensor<4x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    // dgamma = sum_i dy xhat ; dbeta = sum_i dy
    %ec = tensor.empty() : tensor<8xf32>
    %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<8xf32>) -> tensor<8xf32>
    %dgamma = linalg.generic {indexing_maps = [#id, #id, #col], iterator_types = ["reduction", "parallel"]}
        ins(%dy, %xhat : tensor<4x8xf32>, tensor<4x8xf32>) outs(%zc : tensor<8xf32>) {
    ^bb0(%d: f32, %v: f32, %acc: f32):
      %m = arith.mulf %d, %v : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %dbeta = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
        ins(%dy : tensor<4x8xf32>) outs(%zc : tensor<8xf32>) {
    ^bb0(%d: f32, %acc: f32):
      %s = arith.addf %acc, %d : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    // dxhat = dy gamma ; dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat))
    %dxhat = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%dy, %gamma : tensor<4x8xf32>, tensor<8xf32>) outs(%eb : tensor<4x8xf32>) {
    ^bb0(%d: f32, %gm: f32, %o: f32):
      %m = arith.mulf %d, %gm : f32
      linalg.yield %m : f32
    } -> tensor<4x8xf32>
    %ebr = tensor.empty() : tensor<4xf32>
    %zbr = linalg.fill ins(%zero : f32) outs(%ebr : tensor<4xf32>) -> tensor<4xf32>
    %sa = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%dxhat : tensor<4x8xf32>) outs(%zbr : tensor<4xf32>) {
    ^bb0(%d: f32, %acc: f32):
      %s = arith.addf %acc, %d : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    %sb = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%dxhat, %xhat : tensor<4x8xf32>, tensor<4x8xf32>) outs(%zbr : tensor<4xf32>) {
    ^bb0(%d: f32, %v: f32, %acc: f32):
      %m = arith.mulf %d, %v : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    %dx = linalg.generic {indexing_maps = [#id, #id, #row, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%dxhat, %xhat, %sa, %sb, %rstd : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
        outs(%eb : tensor<4x8xf32>) {
    ^bb0(%d: f32, %v: f32, %a: f32, %b: f32, %r: f32, %o: f32):
      %ma = arith.mulf %a, %invd : f32
      %mb = arith.mulf %b, %invd : f32
      %t1 = arith.subf %d, %ma : f32
      %t2 = arith.mulf %v, %mb : f32
      %t3 = arith.subf %t1, %t2 : f32
      %res = arith.mulf %t3, %r : f32
      linalg.yield %res : f32
    } -> tensor<4x8xf32>
    return %loss, %dx, %dgamma, %dbeta, %dw
        : tensor<f32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8xf32>
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
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %a = arith.constant 0.5 : f32
    %a2 = arith.constant 2.0 : f32
    %f1 = arith.constant 0.37 : f32
    %f2 = arith.constant 0.71 : f32
    %f3 = arith.constant 1.13 : f32
    %f4 = arith.constant 0.29 : f32
    %p0 = arith.constant 0.1 : f32
    %p1 = arith.constant 0.7 : f32
    %p2 = arith.constant 1.3 : f32
    %x0 = call @init(%c4, %c8, %a2, %f1, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %g0 = call @init(%c1, %c8, %a, %f2, %p2) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %b0 = call @init(%c1, %c8, %a, %f4, %p1) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %w0 = call @init(%c8, %c8, %a, %f3, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %x = tensor.cast %x0 : tensor<?x?xf32> to tensor<4x8xf32>
    %gm = tensor.cast %g0 : tensor<?x?xf32> to tensor<1x8xf32>
    %bm = tensor.cast %b0 : tensor<?x?xf32> to tensor<1x8xf32>
    %gamma = tensor.collapse_shape %gm [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
    %beta = tensor.collapse_shape %bm [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
    %w = tensor.cast %w0 : tensor<?x?xf32> to tensor<8x8xf32>
    %dl = arith.constant dense<1.0> : tensor<f32>
    %loss, %dx, %dgamma, %dbeta, %dw = call @ln_gelu(%x, %gamma, %beta, %w, %dl)
        : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8xf32>, tensor<f32>)
        -> (tensor<f32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x8xf32>)
    %l2 = tensor.expand_shape %loss [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %dg2 = tensor.expand_shape %dgamma [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
    %db2 = tensor.expand_shape %dbeta [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
    %u0 = tensor.cast %l2 : tensor<1x1xf32> to tensor<?x?xf32>
    %u1 = tensor.cast %dx : tensor<4x8xf32> to tensor<?x?xf32>
    %u2 = tensor.cast %dg2 : tensor<1x8xf32> to tensor<?x?xf32>
    %u3 = tensor.cast %db2 : tensor<1x8xf32> to tensor<?x?xf32>
    %u4 = tensor.cast %dw : tensor<8x8xf32> to tensor<?x?xf32>
    call @show(%u0) : (tensor<?x?xf32>) -> ()
    call @show(%u1) : (tensor<?x?xf32>) -> ()
    call @show(%u2) : (tensor<?x?xf32>) -> ()
    call @show(%u3) : (tensor<?x?xf32>) -> ()
    call @show(%u4) : (tensor<?x?xf32>) -> ()
    return
  }
}
