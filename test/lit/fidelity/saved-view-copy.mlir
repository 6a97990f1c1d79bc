// A strided view the backward receives: %t (4x4 at [0, 2] of the 8x8 %a,
// rows 8 floats apart) carries ac.save, so @f_fwd returns it to @f_bwd.
// Through an identity-layout boundary that is a copy; the graph counts a
// copy op of 64 B at the slice (lib/import/layout.c) and the lowering
// makes it there (auto-ac-copy-returned-views copies every strided view
// that leaves its function, ac.save included, in the original program as
// in @f_fwd), every reader reading the copy: the tensor.reshape of %t is
// then a view of an identity buffer, no second copy.  %o (rows 2-3, a
// forward output at offset 16) is a boundary copy too; %s (rows 0-3 at
// offset 0) is returned as a view.  docs/fidelity.md, cause 6.
//
// Sizes: 8x8xf32 = 256 B, 4x4 and 2x8 = 64 B, %shape 0 B (a tensor
// constant is a global after bufferization).  Static: %p 256 +
// its gradient 256 = 512.  %x (256) is live throughout, %a (256) saved.
//   step 4  %o, boundary copy       512 + x + a + 64           = 1088
//   step 5  %t, the saved copy      + 64                       = 1152
//   step 6  %shape                  + 0                        = 1152
//   step 7  %r = reshape of the copy: a view                   = 1152
//   step 13 %e9, %gt's init (bwd):  512 + x + a + t + o + l + dy + 64
//                                   = 512 + 256 + 256 + 64 + 64 + 4 + 4 + 64 = 1224  <- peak
// Before, %t's chain was a view of %a (saved as %a) and the reshape of it
// a copy; the program copied %t at @f_fwd's return.
//
// UNSUPPORTED: asan
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes timeline.4.live_bytes timeline.5.live_bytes timeline.6.live_bytes timeline.7.live_bytes timeline.13.live_bytes | FileCheck %s --check-prefix=SIM
// SIM: peak_bytes = 1224{{$}}
// SIM: static_bytes = 512{{$}}
// SIM: timeline.4.live_bytes = 1088{{$}}
// SIM: timeline.5.live_bytes = 1152{{$}}
// SIM: timeline.6.live_bytes = 1152{{$}}
// SIM: timeline.7.live_bytes = 1152{{$}}
// SIM: timeline.13.live_bytes = 1224{{$}}
// RUN: %python %inputs/../../tools/ac-measure %s --bytes --max-error=2 --save-output=%t/out | FileCheck %s
// RUN: %python %inputs/../../tools/ac-measure %s --budget=1 --no-original --expect-output=%t/out --bytes --max-error=2 | FileCheck %s --check-prefix=LOW
// CHECK: original save-all baseline 1224 1224 +0.00%
// CHECK: planned greedy 1224 1224 +0.00%
// CHECK: results equal: yes
// LOW: planned greedy @ 1 1224 1224 +0.00%
// LOW: results equal: yes
//
// The split returns the slice from @g_fwd; the lowering copies it at the slice.
// RUN: ac-opt %t/out.mlir --pass-pipeline='builtin.module(auto-ac-copy-returned-views)' | FileCheck %s --check-prefix=COPY
// COPY-LABEL: func.func @g_fwd(
// COPY:         %[[T:.*]] = tensor.extract_slice %{{.*}}[0, 2] [4, 4] [1, 1] :
// COPY-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
// COPY-NEXT:    %[[CP:.*]] = bufferization.materialize_in_destination %[[T]] in %[[E]]
// COPY:         tensor.reshape %[[CP]]
// COPY:         return {{.*}}, %[[CP]] :
#id = affine_map<(i, j) -> (i, j)>
#sc = affine_map<(i, j) -> ()>
#v1 = affine_map<(i) -> (i)>
#s1 = affine_map<(i) -> ()>
func.func @g(%x: tensor<8x8xf32>, %p: tensor<8x8xf32> {ac.param}, %dy: tensor<f32> {ac.tangent})
    -> (tensor<f32> {ac.output}, tensor<2x8xf32> {ac.output}, tensor<4x8xf32> {ac.output}, tensor<8x8xf32> {ac.grad}) attributes {ac.joint} {
  %c0 = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %p : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%u: f32, %q: f32, %o: f32):
    %t0 = math.exp %u : f32
    %r0 = arith.mulf %t0, %q : f32
    linalg.yield %r0 : f32
  } -> tensor<8x8xf32>
  %s = tensor.extract_slice %a[0, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  %o = tensor.extract_slice %a[2, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
  %t = tensor.extract_slice %a[0, 2] [4, 4] [1, 1] {ac.save} : tensor<8x8xf32> to tensor<4x4xf32>
  %shape = arith.constant dense<16> : tensor<1xi64>
  %r = tensor.reshape %t(%shape) : (tensor<4x4xf32>, tensor<1xi64>) -> tensor<16xf32>
  %e4 = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%c0 : f32) outs(%e4 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#v1, #s1], iterator_types = ["reduction"]}
      ins(%r : tensor<16xf32>) outs(%z : tensor<f32>) {
  ^bb0(%u: f32, %acc: f32):
    %r1 = arith.addf %u, %acc : f32
    linalg.yield %r1 : f32
  } -> tensor<f32>
  %e5 = tensor.empty() : tensor<8x8xf32>
  %gp = linalg.generic {indexing_maps = [#sc, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %a : tensor<f32>, tensor<8x8xf32>) outs(%e5 : tensor<8x8xf32>) {
  ^bb0(%d: f32, %u: f32, %acc: f32):
    %r2 = arith.mulf %d, %u : f32
    linalg.yield %r2 : f32
  } -> tensor<8x8xf32>
  %e9 = tensor.empty() : tensor<4x4xf32>
  %gt = linalg.generic {indexing_maps = [#sc, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%dy, %t : tensor<f32>, tensor<4x4xf32>) outs(%e9 : tensor<4x4xf32>) {
  ^bb0(%d: f32, %u: f32, %acc: f32):
    %r9 = arith.mulf %d, %u : f32
    linalg.yield %r9 : f32
  } -> tensor<4x4xf32>
  %gq = tensor.insert_slice %gt into %gp[0, 2] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  return %l, %o, %s, %gq : tensor<f32>, tensor<2x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}
