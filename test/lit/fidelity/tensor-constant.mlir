// A tensor constant (arith.constant dense<...> : tensor<...>) bufferizes
// to a memref.get_global: a global, no allocation.  The import gives it 0
// bytes and always recomputes it (it costs nothing to rebuild; a saved one
// would be returned by @f_fwd, and the deallocation pipeline copies a
// global it returns: an allocation).  Found by the differential tester
// (seed 4024: the 0-d bounds of a recomputed stablehlo.rng).
//
// Sizes: %x, %k, the gradient 4x24xf32 = 384 B; the loss 4 B, the tangent
// 4 B.  Static: the gradient, 384.
//   step 0  %k (a global)     static + x          384 + 384 = 768
//   peak    backward          static + x + loss + tangent   = 776
// Before: %k counted 384 B from step 0 and saved by save-all (1160 B
// simulated; the original program measured 776, the planned one 1160, the
// saved global copied at @f_fwd's return).
//
// UNSUPPORTED: asan
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-strategy=save-all --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes saved_bytes timeline.0.live_bytes | FileCheck %s
// CHECK: peak_bytes = 776{{$}}
// CHECK: static_bytes = 384{{$}}
// CHECK: saved_bytes = 0{{$}}
// CHECK: timeline.0.live_bytes = 768{{$}}
// RUN: FileCheck %s --check-prefix=IR < %t/out.mlir
// IR-LABEL: func.func @f_fwd(
// IR:         arith.constant dense<2.000000e+00> : tensor<4x24xf32>
// IR-LABEL: func.func @f_bwd(
// IR-SAME:    %{{.*}}: tensor<f32> {ac.tangent}) -> (tensor<4x24xf32> {ac.grad})
// IR:         arith.constant dense<2.000000e+00> : tensor<4x24xf32>
// RUN: %python %inputs/../../tools/ac-measure %s --strategy=save-all --bytes --max-error=0 | FileCheck %s --check-prefix=MEAS
// MEAS: original save-all baseline 776 776 +0.00%
// MEAS: planned save-all 776 776 +0.00%
// MEAS: results equal: yes
#id = affine_map<(i, j) -> (i, j)>
#sc = affine_map<(i, j) -> ()>
module {
  func.func @f(%x: tensor<4x24xf32>, %dl: tensor<f32> {ac.tangent})
      -> (tensor<f32> {ac.output}, tensor<4x24xf32> {ac.grad}) attributes {ac.joint} {
    %k = arith.constant dense<2.0> : tensor<4x24xf32>
    %zero = arith.constant 0.0 : f32
    %el = tensor.empty() : tensor<f32>
    %zl = linalg.fill ins(%zero : f32) outs(%el : tensor<f32>) -> tensor<f32>
    %loss = linalg.generic {indexing_maps = [#id, #id, #sc], iterator_types = ["reduction", "reduction"]}
        ins(%x, %k : tensor<4x24xf32>, tensor<4x24xf32>) outs(%zl : tensor<f32>) {
    ^bb0(%v: f32, %w: f32, %o: f32):
      %q = arith.mulf %v, %w : f32
      %s = arith.addf %o, %q : f32
      linalg.yield %s : f32
    } -> tensor<f32>
    %eg = tensor.empty() : tensor<4x24xf32>
    %g = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel", "parallel"]}
        ins(%k, %dl : tensor<4x24xf32>, tensor<f32>) outs(%eg : tensor<4x24xf32>) {
    ^bb0(%v: f32, %d: f32, %o: f32):
      %q = arith.mulf %v, %d : f32
      linalg.yield %q : f32
    } -> tensor<4x24xf32>
    return %loss, %g : tensor<f32>, tensor<4x24xf32>
  }
}
