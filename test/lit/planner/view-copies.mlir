// Views that bufferization turns into copies are copies in the cost model
// (lib/import/layout.c; docs/fidelity.md, cause 6), by hand through ac-opt.
// The layout of each slice of the 8x8 %a (row stride 8):
//  - %s = rows 0-3, offset 0, row-major strides: returned as is (a
//    memref.cast at the boundary), a view: 0 B;
//  - %o = rows 2-3, offset 16: an identity-layout result cannot take it,
//    bufferization copies: a copy op of 2x8xf32 = 64 B, a forward output;
//  - %t = 4x4 at [0, 2] (rows 4 of 8 floats apart): tensor.reshape needs an
//    identity layout, so %r is a new 16xf32 buffer and a copy: 64 B.
//
// Sizes: 8x8xf32 = 256 B.  Static: %p 256 + its gradient %gp 256 = 512.
// %x (256) is live throughout; %a is saved (save-all); %shape, a tensor
// constant, is a global after bufferization: 0 B.
//   step 1  %e1                  512 + x + e1                 = 1024
//   step 3  %s, a view                                        = 1024
//   step 4  %o, the boundary copy  + 64                       = 1088
//   step 6  %shape                 + 0                        = 1088
//   step 7  %r, the reshape copy   + 64                       = 1152
//   step 8  %e4 (the sum's init)   + 4                        = 1156  <- peak
// With every slice and the reshape a view the simulator said 1032 (%shape
// then counted 8 B).  test/lit/fidelity/view-copies.mlir measures the copies.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes peak_at.step timeline.1.live_bytes timeline.3.live_bytes timeline.4.live_bytes timeline.6.live_bytes timeline.7.live_bytes | FileCheck %s
// CHECK: peak_bytes = 1156{{$}}
// CHECK: static_bytes = 512{{$}}
// CHECK: peak_at.step = 8{{$}}
// CHECK: timeline.1.live_bytes = 1024{{$}}
// CHECK: timeline.3.live_bytes = 1024{{$}}
// CHECK: timeline.4.live_bytes = 1088{{$}}
// CHECK: timeline.6.live_bytes = 1088{{$}}
// CHECK: timeline.7.live_bytes = 1152{{$}}
//
// The budget sees the copies: 1155 B cannot be met (nothing else is freed).
// RUN: ac-opt %s --ac-budget=1155 --ac-report=%t/b.json -o %t/b.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: warning: autoac: budget 1155 bytes
// RUN: %python %inputs/jq.py %t/b.json feasible | FileCheck %s --check-prefix=FEAS
// FEAS: feasible = false
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
  %t = tensor.extract_slice %a[0, 2] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<4x4xf32>
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
  return %l, %o, %s, %gp : tensor<f32>, tensor<2x8xf32>, tensor<4x8xf32>, tensor<8x8xf32>
}
