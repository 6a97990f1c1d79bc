// A cheap elementwise chain x -> exp -> mul -> add -> tanh feeding a matmul
// whose backward needs the chain's output (and the chain's intermediates for
// dx).  save-all keeps the chain; min-cut drops it, and the backward
// rebuilds it in one recompute region holding the whole chain.  Greedy at
// an unreachable budget starts from the starting set, which saves the
// chain's output back (tanh, the matmul's input: the backward reads it
// anyway) and reaches 1288 B against the min cut's 1416: its backward
// recomputes exp and mul only.  Every variant must print exactly what the
// joint program prints.
//
// RUN: %run_cpu < %s > %t.ref
// RUN: ac-opt %s --ac-mode=split --ac-strategy=save-all -o %t.saveall.mlir
// RUN: %run_cpu < %t.saveall.mlir > %t.saveall
// RUN: diff %t.ref %t.saveall
// RUN: FileCheck %s --check-prefix=SAVEALL < %t.saveall.mlir
// RUN: ac-opt %s --ac-mode=split --ac-strategy=mincut -o %t.mincut.mlir
// RUN: %run_cpu < %t.mincut.mlir > %t.mincut
// RUN: diff %t.ref %t.mincut
// RUN: FileCheck %s --check-prefix=CHAIN < %t.mincut.mlir
// RUN: ac-opt %s --ac-mode=split --ac-strategy=greedy --ac-budget=1 -o %t.greedy.mlir
// RUN: %run_cpu < %t.greedy.mlir > %t.greedy
// RUN: diff %t.ref %t.greedy
// RUN: FileCheck %s --check-prefix=GREEDY < %t.greedy.mlir
// RUN: FileCheck %s --check-prefix=REF < %t.ref

// Loss, dx, dw; values then bits.
// REF-COUNT-6: Unranked Memref base@ = ADDR rank = 2

// save-all: the chain runs once, in the forward; the backward only reads it.
// SAVEALL-LABEL: func.func @chain_fwd(
// SAVEALL:         math.exp
// SAVEALL:         math.tanh
// SAVEALL-LABEL: func.func @chain_bwd(
// SAVEALL-NOT:     math.exp
// SAVEALL-NOT:     math.tanh
// SAVEALL:         return

// The recompute region holds the chain (exp, mul, add, tanh: several ops)
// and sits in the backward before the first op reading the chain.
// CHAIN-LABEL: func.func @chain_fwd(
// CHAIN:         math.exp
// CHAIN:         math.tanh
// CHAIN:         linalg.matmul
// CHAIN-LABEL: func.func @chain_bwd(
// CHAIN:         scf.execute_region -> (tensor<4x8xf32>
// CHAIN-NOT:     {ac.recompute}
// CHAIN:           math.exp
// CHAIN-NOT:     {ac.recompute}
// CHAIN:           arith.mulf
// CHAIN-NOT:     {ac.recompute}
// CHAIN:           arith.addf
// CHAIN-NOT:     {ac.recompute}
// CHAIN:           math.tanh
// CHAIN-NOT:     {ac.recompute}
// CHAIN:           scf.yield
// CHAIN-NEXT:    } {ac.recompute}
// CHAIN-NOT:     linalg.matmul
// CHAIN:         return

// GREEDY-LABEL: func.func @chain_bwd(
// GREEDY:         scf.execute_region -> (tensor<4x8xf32>, tensor<4x8xf32>)
// GREEDY:           math.exp
// GREEDY:           arith.mulf
// GREEDY-NOT:       math.tanh
// GREEDY:         } {ac.recompute}
// GREEDY-NOT:     math.tanh
// GREEDY:         return

#id = affine_map<(i, j) -> (i, j)>
#sc = affine_map<(i, j) -> ()>
#tA = affine_map<(i, j, b) -> (b, i)>
#tB = affine_map<(i, j, b) -> (b, j)>
#tO = affine_map<(i, j, b) -> (i, j)>
#nA = affine_map<(b, i, j) -> (b, j)>
#nB = affine_map<(b, i, j) -> (i, j)>
#nO = affine_map<(b, i, j) -> (b, i)>

module {
  func.func @chain(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {ac.param},
                   %dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<4x8xf32> {ac.grad},
          tensor<8x8xf32> {ac.grad})
      attributes {ac.joint} {
    %zero = arith.constant 0.0 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    // ---- forward: d = tanh(exp(x) * x + 0.5); h = d w; loss = sum(h^2)
    %e = tensor.empty() : tensor<4x8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = math.exp %v : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%u: f32, %v: f32, %o: f32):
      %r = arith.mulf %u, %v : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%b : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.addf %v, %half : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%c : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = math.tanh %v : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %h = linalg.matmul ins(%d, %w : tensor<4x8xf32>, tensor<8x8xf32>)
                       outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
    %el = tensor.empty() : tensor<f32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%h : tensor<4x8xf32>) outs(%zl : tensor<f32>) {
    ^bb0(%v: f32, %acc: f32):
      %q = arith.mulf %v, %v : f32
      %s = arith.addf %acc, %q : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    // ---- backward
    %eb = tensor.empty() : tensor<4x8xf32>
    %dh = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h, %dl : tensor<4x8xf32>, tensor<f32>) outs(%eb : tensor<4x8xf32>) {
    ^bb0(%v: f32, %g: f32, %o: f32):
      %t = arith.mulf %v, %two : f32
      %r = arith.mulf %t, %g : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    // dw = d^T dh
    %ew = tensor.empty() : tensor<8x8xf32>
    %zw = linalg.fill ins(%zero : f32) outs(%ew : tensor<8x8xf32>) -> tensor<8x8xf32>
    %dw = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%d, %dh : tensor<4x8xf32>, tensor<4x8xf32>) outs(%zw : tensor<8x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x8xf32>
    // dd = dh w^T ; dc = dd (1 - d^2) ; dx = dc (a + b)   (d/dx of e^x x is e^x + e^x x)
    %zb = linalg.fill ins(%zero : f32) outs(%eb : tensor<4x8xf32>) -> tensor<4x8xf32>
    %dd = linalg.generic {indexing_maps = [#nA, #nB, #nO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%dh, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%zb : tensor<4x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    %dx = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%dd, %d, %a, %b : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
        outs(%eb : tensor<4x8xf32>) {
    ^bb0(%g: f32, %dv: f32, %av: f32, %bv: f32, %o: f32):
      %d2 = arith.mulf %dv, %dv : f32
      %omd = arith.subf %one, %d2 : f32
      %dc = arith.mulf %g, %omd : f32
      %ab = arith.addf %av, %bv : f32
      %r = arith.mulf %dc, %ab : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    return %loss, %dx, %dw : tensor<f32>, tensor<4x8xf32>, tensor<8x8xf32>
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
    %a1 = arith.constant 1.0 : f32
    %f1 = arith.constant 0.37 : f32
    %f2 = arith.constant 0.71 : f32
    %p0 = arith.constant 0.1 : f32
    %p1 = arith.constant 0.7 : f32
    %x0 = call @init(%c4, %c8, %a1, %f1, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %w0 = call @init(%c8, %c8, %a, %f2, %p1) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %x = tensor.cast %x0 : tensor<?x?xf32> to tensor<4x8xf32>
    %w = tensor.cast %w0 : tensor<?x?xf32> to tensor<8x8xf32>
    %dl = arith.constant dense<1.0> : tensor<f32>
    %loss, %dx, %dw = call @chain(%x, %w, %dl)
        : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<f32>)
        -> (tensor<f32>, tensor<4x8xf32>, tensor<8x8xf32>)
    %l2 = tensor.expand_shape %loss [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %u0 = tensor.cast %l2 : tensor<1x1xf32> to tensor<?x?xf32>
    %u1 = tensor.cast %dx : tensor<4x8xf32> to tensor<?x?xf32>
    %u2 = tensor.cast %dw : tensor<8x8xf32> to tensor<?x?xf32>
    call @show(%u0) : (tensor<?x?xf32>) -> ()
    call @show(%u1) : (tensor<?x?xf32>) -> ()
    call @show(%u2) : (tensor<?x?xf32>) -> ()
    return
  }
}
