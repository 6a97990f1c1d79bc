// Dropout whose mask comes from a counter-based generator,
// linalg.fill_rng_2d: a pure function of its seed, min and max (autoac's
// "replayable random", docs/contract.md, Randomness).  The backward needs the
// mask (dx = dy * m) and the dropped activation y = x * m (dw = y^T dh).
// Under a tight budget autoac recomputes the mask in the backward from the
// seed instead of saving it, and the rerun must replay the same bits: every
// plan prints exactly what the joint program prints.
//
// RUN: %run_cpu < %s > %t.ref
// RUN: ac-opt %s --ac-strategy=save-all -o %t.saveall.mlir
// RUN: %run_cpu < %t.saveall.mlir > %t.saveall
// RUN: diff %t.ref %t.saveall
// RUN: FileCheck %s --check-prefix=SAVEALL < %t.saveall.mlir
// RUN: ac-opt %s --ac-budget=1 --ac-report=%t.report.json -o %t.greedy.mlir
// RUN: %run_cpu < %t.greedy.mlir > %t.greedy
// RUN: diff %t.ref %t.greedy
// RUN: FileCheck %s --check-prefix=REPLAY < %t.greedy.mlir
// RUN: FileCheck %s --check-prefix=REF < %t.ref

// Loss, dx, dw; values then bits.
// REF-COUNT-6: Unranked Memref base@ = ADDR rank = 2

// save-all keeps the mask: the generator runs once, in the forward.
// SAVEALL-LABEL: func.func @drop_fwd(
// SAVEALL:         linalg.fill_rng_2d
// SAVEALL-LABEL: func.func @drop_bwd(
// SAVEALL-NOT:     linalg.fill_rng_2d
// SAVEALL:         return

// Under the budget the backward reruns the generator (and the mask and y
// after it) in a recompute region; the mask (2 KiB) is not saved, the seed
// is a constant.
// REPLAY-LABEL: func.func @drop_fwd(
// REPLAY:         linalg.fill_rng_2d
// REPLAY-LABEL: func.func @drop_bwd(
// REPLAY:         scf.execute_region
// REPLAY:           linalg.fill_rng_2d
// REPLAY:         } {ac.recompute}
// REPLAY:         return

#id = affine_map<(i, j) -> (i, j)>
#sc = affine_map<(i, j) -> ()>
#tA = affine_map<(i, j, b) -> (b, i)>
#tB = affine_map<(i, j, b) -> (b, j)>
#tO = affine_map<(i, j, b) -> (i, j)>
#nA = affine_map<(b, i, j) -> (b, j)>
#nB = affine_map<(b, i, j) -> (i, j)>
#nO = affine_map<(b, i, j) -> (b, i)>

module {
  func.func @drop(%x: tensor<16x32xf32>, %w: tensor<32x8xf32> {ac.param},
                  %dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<16x32xf32> {ac.grad},
          tensor<32x8xf32> {ac.grad})
      attributes {ac.joint} {
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    %keep = arith.constant 0.75 : f32
    %scale = arith.constant 1.3333334 : f32
    %lo = arith.constant 0.0 : f64
    %hi = arith.constant 1.0 : f64
    %seed = arith.constant 42 : i32
    // ---- forward: m = (u < 0.75) / 0.75; y = x * m; h = y w; loss = sum(h^2)
    %eu = tensor.empty() : tensor<16x32xf32>
    %u = linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32)
                            outs(%eu : tensor<16x32xf32>) -> tensor<16x32xf32>
    %em = tensor.empty() : tensor<16x32xf32>
    %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%u : tensor<16x32xf32>) outs(%em : tensor<16x32xf32>) {
    ^bb0(%v: f32, %o: f32):
      %lt = arith.cmpf olt, %v, %keep : f32
      %r = arith.select %lt, %scale, %zero : f32
      linalg.yield %r : f32
    } -> tensor<16x32xf32>
    %ey = tensor.empty() : tensor<16x32xf32>
    %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x, %m : tensor<16x32xf32>, tensor<16x32xf32>) outs(%ey : tensor<16x32xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.mulf %a, %b : f32
      linalg.yield %r : f32
    } -> tensor<16x32xf32>
    %eh = tensor.empty() : tensor<16x8xf32>
    %zh = linalg.fill ins(%zero : f32) outs(%eh : tensor<16x8xf32>) -> tensor<16x8xf32>
    %h = linalg.matmul ins(%y, %w : tensor<16x32xf32>, tensor<32x8xf32>)
                       outs(%zh : tensor<16x8xf32>) -> tensor<16x8xf32>
    %el = tensor.empty() : tensor<f32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%h : tensor<16x8xf32>) outs(%zl : tensor<f32>) {
    ^bb0(%v: f32, %acc: f32):
      %q = arith.mulf %v, %v : f32
      %s = arith.addf %acc, %q : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    // ---- backward: dh = 2 h dl; dw = y^T dh; dy = dh w^T; dx = dy * m
    %edh = tensor.empty() : tensor<16x8xf32>
    %dh = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel", "parallel"]}
        ins(%h, %dl : tensor<16x8xf32>, tensor<f32>) outs(%edh : tensor<16x8xf32>) {
    ^bb0(%v: f32, %g: f32, %o: f32):
      %t = arith.mulf %v, %two : f32
      %r = arith.mulf %t, %g : f32
      linalg.yield %r : f32
    } -> tensor<16x8xf32>
    %ew = tensor.empty() : tensor<32x8xf32>
    %zw = linalg.fill ins(%zero : f32) outs(%ew : tensor<32x8xf32>) -> tensor<32x8xf32>
    %dw = linalg.generic {indexing_maps = [#tA, #tB, #tO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%y, %dh : tensor<16x32xf32>, tensor<16x8xf32>) outs(%zw : tensor<32x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %t = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %t : f32
      linalg.yield %s : f32
    } -> tensor<32x8xf32>
    %edy = tensor.empty() : tensor<16x32xf32>
    %zdy = linalg.fill ins(%zero : f32) outs(%edy : tensor<16x32xf32>) -> tensor<16x32xf32>
    %dy = linalg.generic {indexing_maps = [#nA, #nB, #nO], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%dh, %w : tensor<16x8xf32>, tensor<32x8xf32>) outs(%zdy : tensor<16x32xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %t = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %t : f32
      linalg.yield %s : f32
    } -> tensor<16x32xf32>
    %edx = tensor.empty() : tensor<16x32xf32>
    %dx = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%dy, %m : tensor<16x32xf32>, tensor<16x32xf32>) outs(%edx : tensor<16x32xf32>) {
    ^bb0(%g: f32, %b: f32, %o: f32):
      %r = arith.mulf %g, %b : f32
      linalg.yield %r : f32
    } -> tensor<16x32xf32>
    return %loss, %dx, %dw : tensor<f32>, tensor<16x32xf32>, tensor<32x8xf32>
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
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %a = arith.constant 0.5 : f32
    %a1 = arith.constant 1.0 : f32
    %f1 = arith.constant 0.37 : f32
    %f2 = arith.constant 0.71 : f32
    %p0 = arith.constant 0.1 : f32
    %p1 = arith.constant 0.7 : f32
    %x0 = call @init(%c16, %c32, %a1, %f1, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %w0 = call @init(%c32, %c8, %a, %f2, %p1) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %x = tensor.cast %x0 : tensor<?x?xf32> to tensor<16x32xf32>
    %w = tensor.cast %w0 : tensor<?x?xf32> to tensor<32x8xf32>
    %dl = arith.constant dense<1.0> : tensor<f32>
    %loss, %dx, %dw = call @drop(%x, %w, %dl)
        : (tensor<16x32xf32>, tensor<32x8xf32>, tensor<f32>)
        -> (tensor<f32>, tensor<16x32xf32>, tensor<32x8xf32>)
    %l2 = tensor.expand_shape %loss [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %u0 = tensor.cast %l2 : tensor<1x1xf32> to tensor<?x?xf32>
    %u1 = tensor.cast %dx : tensor<16x32xf32> to tensor<?x?xf32>
    %u2 = tensor.cast %dw : tensor<32x8xf32> to tensor<?x?xf32>
    call @show(%u0) : (tensor<?x?xf32>) -> ()
    call @show(%u1) : (tensor<?x?xf32>) -> ()
    call @show(%u2) : (tensor<?x?xf32>) -> ()
    return
  }
}
