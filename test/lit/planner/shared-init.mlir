// Shared inits (docs/contract.md, "Shared inits"): the graph of
// in-place.mlir as `mlir-opt --cse` leaves it.  One `tensor.empty` %e is the
// init of the fill %z, of the relu %a and of the relu backward %ga; the fill
// %z is the init of the matmul %h and of the gradient matmul %gw.  The
// import gives every writer its own copy of its init, right before it (a
// fill with its own copy of the empty), so what runs and what is counted is
// in-place.mlir's program, to the byte:
//
//   writer   init as written   init after import
//   %z       %e                %e~1 (copy of %e)
//   %h       %z                %z~1 (fill of %e~2)
//   %a       %e                %e~3
//   %ga      %e                %e~4
//   %gw      %z                %z~2 (fill of %e~5)
//
// Sizes: 64x64xf32 = 16384 bytes; static = %w + %gw = 32768.
//   before the backward: x + a + s + dy + the relu backward's init
//   = 16384 + 16384 + 4 + 4 + 16384 = 49160, + static = 81928 (peak, as in
//   in-place.mlir).  Counting %e and %z as shared (live from the top to
//   their last writer, %ga and %gw) would add at least one 16384-byte
//   buffer at the backward's start.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes saved_bytes | FileCheck %s
// CHECK: peak_bytes = 81928{{$}}
// CHECK: static_bytes = 32768{{$}}
// CHECK: saved_bytes = 16384{{$}}
//
// Same peak as the unshared program:
// RUN: ac-opt %S/in-place.mlir --ac-report=%t/ref.json -o %t/ref.mlir
// RUN: %python %inputs/jq.py %t/ref.json peak_bytes | FileCheck %s --check-prefix=REF
// REF: peak_bytes = 81928{{$}}
//
// The split: each writer reads an init made right before it; nothing is
// left of the shared %e and %z.
// RUN: ac-opt %s --ac-mode=split -o %t/split.mlir
// RUN: FileCheck %s --check-prefix=SPLIT < %t/split.mlir
// SPLIT-LABEL: func.func @step_fwd(
// SPLIT:         %[[E1:.*]] = tensor.empty() : tensor<64x64xf32>
// SPLIT-NEXT:    %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<64x64xf32>)
// SPLIT-NEXT:    linalg.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[Z1]] : tensor<64x64xf32>)
// SPLIT-NEXT:    %[[E3:.*]] = tensor.empty() : tensor<64x64xf32>
// SPLIT-NEXT:    linalg.generic {{.*}} outs(%[[E3]] : tensor<64x64xf32>)
// SPLIT-LABEL: func.func @step_bwd(
// SPLIT:         %[[E4:.*]] = tensor.empty() : tensor<64x64xf32>
// SPLIT:         linalg.generic {{.*}} outs(%[[E4]] : tensor<64x64xf32>)
// SPLIT:         %[[E5:.*]] = tensor.empty() : tensor<64x64xf32>
// SPLIT-NEXT:    %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E5]] : tensor<64x64xf32>)
// SPLIT-NEXT:    linalg.generic {{.*}} outs(%[[Z2]] : tensor<64x64xf32>)
//
// The copies are named after what they copy ("%v~k", the k-th copy of %v:
// no value name of MLIR holds '~'), in the report and in plan files; the
// recompute-chain and the fidelity graphs run through `cse` show them.
#id = affine_map<(d0, d1) -> (d0, d1)>
#sc = affine_map<(d0, d1) -> ()>
func.func @step(%x: tensor<64x64xf32>, %w: tensor<64x64xf32> {ac.param}, %dy: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<64x64xf32> {ac.grad}) attributes {ac.joint} {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %h = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.maximumf %i, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<f32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction", "reduction"]} ins(%a : tensor<64x64xf32>) outs(%z2 : tensor<f32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.addf %i, %o : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %ga = linalg.generic {indexing_maps = [#sc, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%dy, %a : tensor<f32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%d: f32, %v: f32, %o: f32):
    %p = arith.cmpf ogt, %v, %c0 : f32
    %r = arith.select %p, %d, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %gw = linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (m, n)>, affine_map<(m, k, n) -> (k, n)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%x, %ga : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %s, %gw : tensor<f32>, tensor<64x64xf32>
}
