// A convolution's workspace depends on its stride, padding and dilation,
// which the graph gives as constant int lists (torch.prim.ListConstruct of
// torch.constant.int, as the PyTorch door exports them); the importer reads
// them for acCostWorkspace (docs/cost-model.md, "Workspaces").
//
// 2x64x8x8 -> 64, 3x3, dilation 2 padding 2 (8x8 out): oneDNN has no jit
// weight-gradient kernel for dilation and runs gemm, on cpu2 on both threads
// (batch 2, 64 / 2 < 256 positions per thread):
//   2 x (4 x w 147456 + unfolded 64 x 9 x 64 x 4 = 147456) + 2 x 128 = 1474816.
// Peak: dy 32768 + x 32768 + w 147456 + dx 32768 + dw 147456 + db 256
//   = 393472, + 1474816 = 1868288.
// Dilation 1 padding 1 (the same shapes): the jit kernel, dw' + db' =
//   147456 + 256 = 147712; peak 393472 + 147712 = 541184.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-device=cpu2 --ac-report=%t/d2.json -o %t/d2.mlir
// RUN: %python %inputs/jq.py %t/d2.json peak_bytes peak_at.op peak_at.workspace_bytes | FileCheck %s --check-prefix=D2
// D2: peak_bytes = 1868288{{$}}
// D2: peak_at.op = "torch.aten.convolution_backward"
// D2: peak_at.workspace_bytes = 1474816{{$}}
// RUN: sed 's/value = 2 : i64/value = 1 : i64/' %s > %t/d1.mlir
// RUN: ac-opt %t/d1.mlir --ac-device=cpu2 --ac-report=%t/d1.json -o %t/d1.out.mlir
// RUN: %python %inputs/jq.py %t/d1.json peak_bytes peak_at.workspace_bytes | FileCheck %s --check-prefix=D1
// D1: peak_bytes = 541184{{$}}
// D1: peak_at.workspace_bytes = 147712{{$}}
func.func @step(%dy: tensor<2x64x8x8xf32>, %x: tensor<2x64x8x8xf32>, %w: tensor<64x64x3x3xf32>) -> (tensor<2x64x8x8xf32> {ac.output}, tensor<64x64x3x3xf32> {ac.output}, tensor<64xf32> {ac.output}) attributes {ac.joint} {
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %c2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %c64 = "torch.constant.int"() {value = 64 : i64} : () -> !torch.int
  %b = "torch.prim.ListConstruct"(%c64) : (!torch.int) -> !torch.list<int>
  %s = "torch.prim.ListConstruct"(%c1, %c1) : (!torch.int, !torch.int) -> !torch.list<int>
  %p = "torch.prim.ListConstruct"(%c2, %c2) : (!torch.int, !torch.int) -> !torch.list<int>
  %d = "torch.prim.ListConstruct"(%c2, %c2) : (!torch.int, !torch.int) -> !torch.list<int>
  %r:3 = "torch.aten.convolution_backward"(%dy, %x, %w, %b, %s, %p, %d) : (tensor<2x64x8x8xf32>, tensor<2x64x8x8xf32>, tensor<64x64x3x3xf32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>) -> (tensor<2x64x8x8xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>)
  return %r#0, %r#1, %r#2 : tensor<2x64x8x8xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>
}
