// Offload on the CPU (docs/rewrite.md, "Offload"): a = exp(x) is marked
// ac.save (never recomputed) and the backward reads it; after its last
// forward use the forward makes a 64x64 transient, the peak.  With a host
// link (a cost table's "@device": fast, no latency) the plan offloads a: the
// forward returns a host buffer (bufferization.alloc_tensor, ac.offload)
// allocated right after exp and filled where the simulator has the copy
// complete (materialize_in_destination after a's last forward use, the
// first sum: the link is fast), and the backward copies it back into a
// buffer allocated where the simulator issues the prefetch, complete before
// its first use (ac.prefetch).  The planned program must print exactly what
// the joint one prints.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '{"@device": {"host_bandwidth": 1e30, "host_latency": 0}}' > %t/link.json
// RUN: %run_cpu < %s > %t/ref
// RUN: ac-opt %s --ac-mode=split --ac-budget=1 --ac-offload=off --ac-report=%t/saved.json -o %t/saved.mlir 2>/dev/null
// RUN: %run_cpu < %t/saved.mlir > %t/saved
// RUN: diff %t/ref %t/saved
// RUN: ac-opt %s --ac-mode=split --ac-budget=1 --ac-cost-table=%t/link.json --ac-report=%t/off.json -o %t/off.mlir 2>/dev/null
// RUN: %run_cpu < %t/off.mlir > %t/off
// RUN: diff %t/ref %t/off
// RUN: FileCheck %s --check-prefix=IR < %t/off.mlir
// RUN: %python %inputs/jq.py %t/saved.json peak_bytes offloaded_bytes | FileCheck %s --check-prefix=SAVED
// RUN: %python %inputs/jq.py %t/off.json peak_bytes offloaded_bytes host_peak_bytes stall_seconds functions.0.offloaded.0.value | FileCheck %s --check-prefix=OFF
// RUN: FileCheck %s --check-prefix=REF < %t/ref
//
// Bytes: x and a are 1x64 f32 = 256 each; the transient is 64x64 f32 =
// 16384.  Saved (recomputing cannot drop a: ac.save), the peak is 17160 at
// the init of the second sum, right after the transient; offloaded, a is on
// the host from its last forward use (the first sum) on: the peak is
// 17160 - 256 = 16904, and the host holds a's 256 bytes.
// SAVED: peak_bytes = 17160
// SAVED: offloaded_bytes = 0
// OFF: peak_bytes = 16904
// OFF: offloaded_bytes = 256
// OFF: host_peak_bytes = 256
// OFF: stall_seconds = 0.0
// OFF: functions.0.offloaded.0.value = "%1"
//
// IR-LABEL: func.func @off_fwd(
// IR:         %[[A:.*]] = linalg.generic
// IR-NEXT:    ^bb0
// IR-NEXT:      math.exp
// IR:         } -> tensor<1x64xf32>
// IR-NEXT:    %[[H0:.*]] = bufferization.alloc_tensor() {ac.offload} : tensor<1x64xf32>
// IR:         linalg.generic {{.*}} ins(%[[A]] : tensor<1x64xf32>)
// IR:         } -> tensor<f32>
// IR-NEXT:    %[[H:.*]] = bufferization.materialize_in_destination %[[A]] in %[[H0]] {ac.offload}
// IR:         return %{{.*}}, %[[H]] :
// IR-LABEL: func.func @off_bwd(
// IR-SAME:      %[[HA:[^:]*]]: tensor<1x64xf32> {ac.owned}
// IR:         %[[D0:.*]] = bufferization.alloc_tensor() {ac.prefetch} : tensor<1x64xf32>
// IR-NEXT:    %[[D:.*]] = bufferization.materialize_in_destination %[[HA]] in %[[D0]] {ac.prefetch}
// IR-NEXT:    linalg.generic {{.*}} ins({{.*}}%[[D]]
// IR-NOT:     %[[HA]]
// IR:         return
//
// Loss, dx; values then bits.
// REF-COUNT-4: Unranked Memref base@ = ADDR rank = 2

#id = affine_map<(i, j) -> (i, j)>
#sc = affine_map<(i, j) -> ()>
#ox = affine_map<(i, j) -> (0, i)>
#oy = affine_map<(i, j) -> (0, j)>
#oo = affine_map<(i, j) -> (i, j)>

module {
  func.func @off(%x: tensor<1x64xf32>, %dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<1x64xf32> {ac.grad})
      attributes {ac.joint} {
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    // ---- forward: loss = sum(exp(x)) + sum_ij x_i x_j
    %e = tensor.empty() : tensor<1x64xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], ac.save}
        ins(%x : tensor<1x64xf32>) outs(%e : tensor<1x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = math.exp %v : f32
      linalg.yield %r : f32
    } -> tensor<1x64xf32>
    %el = tensor.empty() : tensor<f32>
    %z1 = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %s1 = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%a : tensor<1x64xf32>) outs(%z1 : tensor<f32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %eb = tensor.empty() : tensor<64x64xf32>
    %big = linalg.generic {indexing_maps = [#ox, #oy, #oo], iterator_types = ["parallel", "parallel"]}
        ins(%x, %x : tensor<1x64xf32>, tensor<1x64xf32>) outs(%eb : tensor<64x64xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %m = arith.mulf %p, %q : f32
      linalg.yield %m : f32
    } -> tensor<64x64xf32>
    %z2 = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %s2 = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%big : tensor<64x64xf32>) outs(%z2 : tensor<f32>) {
    ^bb0(%v: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
        ins(%s1, %s2 : tensor<f32>, tensor<f32>) outs(%el : tensor<f32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.addf %p, %q : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    // ---- backward: dx_k = dl (a_k + 2 sum(x))
    %ez = tensor.empty() : tensor<f32>
    %z3 = linalg.fill ins(%zero : f32) outs(%ez : tensor<f32>) -> tensor<f32>
    %sx = linalg.generic {indexing_maps = [#id, #sc, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%x, %dl : tensor<1x64xf32>, tensor<f32>) outs(%z3 : tensor<f32>) {
    ^bb0(%v: f32, %g: f32, %acc: f32):
      %s = arith.addf %acc, %v : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %ed = tensor.empty() : tensor<1x64xf32>
    %dx = linalg.generic {indexing_maps = [#id, #sc, #sc, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %sx, %dl : tensor<1x64xf32>, tensor<f32>, tensor<f32>) outs(%ed : tensor<1x64xf32>) {
    ^bb0(%av: f32, %s: f32, %g: f32, %o: f32):
      %t = arith.mulf %s, %two : f32
      %u = arith.addf %av, %t : f32
      %r = arith.mulf %u, %g : f32
      linalg.yield %r : f32
    } -> tensor<1x64xf32>
    return %loss, %dx : tensor<f32>, tensor<1x64xf32>
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
    %c64 = arith.constant 64 : index
    %a1 = arith.constant 1.0 : f32
    %f1 = arith.constant 0.37 : f32
    %p0 = arith.constant 0.1 : f32
    %x0 = call @init(%c1, %c64, %a1, %f1, %p0) : (index, index, f32, f32, f32) -> tensor<?x?xf32>
    %x = tensor.cast %x0 : tensor<?x?xf32> to tensor<1x64xf32>
    %dl = arith.constant dense<1.0> : tensor<f32>
    %loss, %dx = call @off(%x, %dl)
        : (tensor<1x64xf32>, tensor<f32>) -> (tensor<f32>, tensor<1x64xf32>)
    %l2 = tensor.expand_shape %loss [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %u0 = tensor.cast %l2 : tensor<1x1xf32> to tensor<?x?xf32>
    %u1 = tensor.cast %dx : tensor<1x64xf32> to tensor<?x?xf32>
    call @show(%u0) : (tensor<?x?xf32>) -> ()
    call @show(%u1) : (tensor<?x?xf32>) -> ()
    return
  }
}
