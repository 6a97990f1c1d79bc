// The simulator's in-place rule for destination-style ops (linalg `outs`),
// by hand.  One-shot bufferization writes a linalg result into its init's
// buffer when nothing reads the init afterwards; the simulator counts it so
// (include/autoac/simulate.h, docs/fidelity.md).
//
// Sizes: the 64x64xf32 tensors are 16384 bytes; %s, %dy and the tensor<f32>
// inits are 4.  Static part: %w 16384 + its gradient %gw 16384 = 32768.
// The timeline's live bytes include it.  The plan saves %a (the relu).
//
//   step op                   live besides static            with static
//   0    arith.constant       x                      16384   = 49152
//   1    tensor.empty %e0     x + e0                 32768   = 65536
//   2    linalg.fill %z0      x + z0 (in e0)         32768   = 65536
//   3    linalg.matmul %h     x + h (in z0)          32768   = 65536
//   4    tensor.empty %e1     x + h + e1             49152   = 81920
//   5    relu %a              x + h + a (in e1)      49152   = 81920
//   6-8  sum %s               x + a + s (+ the 4-byte init)  = 65540
//   9    tensor.empty %e3     x + a + s + dy + e3    49160   = 81928  <- peak
//   10   arith.constant (recomputed: a scalar)               = 81928
//   11   relu backward %ga    x + a + s + dy + ga (in e3)    = 81928
//   12-14 %e4, %z4, %gw       x + s + dy + ga        32776   = 65544
// %gw is a gradient (static), written into %z4, written into %e4: that
// chain is the gradient's storage and allocates nothing more.  Counting
// every init apart from its result, the peak would be 98312 (step 11:
// x + a + s + dy + e3 + ga).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes saved_bytes peak_at.step | FileCheck %s
// CHECK: peak_bytes = 81928{{$}}
// CHECK: static_bytes = 32768{{$}}
// CHECK: saved_bytes = 16384{{$}}
// CHECK: peak_at.step = 9{{$}}
// RUN: %python %inputs/jq.py %t/r.json timeline.1.live_bytes timeline.2.live_bytes timeline.3.live_bytes timeline.5.live_bytes timeline.11.live_bytes timeline.12.live_bytes timeline.14.live_bytes | FileCheck %s --check-prefix=STEPS
// STEPS: timeline.1.live_bytes = 65536{{$}}
// STEPS: timeline.2.live_bytes = 65536{{$}}
// STEPS: timeline.3.live_bytes = 65536{{$}}
// STEPS: timeline.5.live_bytes = 81920{{$}}
// STEPS: timeline.11.live_bytes = 81928{{$}}
// STEPS: timeline.12.live_bytes = 65544{{$}}
// STEPS: timeline.14.live_bytes = 65544{{$}}
//
// The budget sees the same peak: one byte below it cannot be met.
// RUN: ac-opt %s --ac-budget=81928 --ac-report=%t/met.json -o %t/met.mlir
// RUN: %python %inputs/jq.py %t/met.json feasible | FileCheck %s --check-prefix=MET
// MET: feasible = true
#id = affine_map<(d0, d1) -> (d0, d1)>
#sc = affine_map<(d0, d1) -> ()>
func.func @step(%x: tensor<64x64xf32>, %w: tensor<64x64xf32> {ac.param}, %dy: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<64x64xf32> {ac.grad}) attributes {ac.joint} {
  %c0 = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x64xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %h = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e1 = tensor.empty() : tensor<64x64xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) {
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
  %e3 = tensor.empty() : tensor<64x64xf32>
  %ga = linalg.generic {indexing_maps = [#sc, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%dy, %a : tensor<f32>, tensor<64x64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%d: f32, %v: f32, %o: f32):
    %p = arith.cmpf ogt, %v, %c0 : f32
    %r = arith.select %p, %d, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  %e4 = tensor.empty() : tensor<64x64xf32>
  %z4 = linalg.fill ins(%c0 : f32) outs(%e4 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %gw = linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (m, n)>, affine_map<(m, k, n) -> (k, n)>], iterator_types = ["reduction", "parallel", "parallel"]} ins(%x, %ga : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z4 : tensor<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %s, %gw : tensor<f32>, tensor<64x64xf32>
}
