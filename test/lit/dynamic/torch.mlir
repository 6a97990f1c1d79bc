// Torch value tensors with unknown sizes: the batch of %x (arg0.0, bound 8
// by ac.max_shape) reaches every other ? through torch's shape rules:
// size.int into the view's size list, linear, relu (elementwise),
// threshold_backward (same shape as its operand), t and mm (%dy's batch is
// the mm's contraction with %x's).  One symbol.
//
// Sizes per row of arg0.0: x 64 (16 x f32), dy, h, r, g 128 each; the
// view v is a view of r (0 B).  Static: w 32x16 f32 = 2048, its gradient
// 2048: 4096.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json symbols peak_formula peak_bytes | FileCheck %s
// CHECK: symbols = [{"args":["arg0.0","arg2.0"],"bound":8,"name":"arg0.0"}]
// At the peak (threshold_backward): x 64 + dy 128 + r 128 (saved, and the
// storage of the output v, live to the end) + g 128 = 448 per row; static
// 4096.
// CHECK: peak_formula = "448*arg0.0 + 4096"
// 448 * 8 + 4096 = 7680
// CHECK: peak_bytes = 7680
// Bounds on the command line: the least wins.
// RUN: ac-opt %s --ac-max-dim=arg0.0=4 --ac-report=%t/r4.json -o /dev/null
// RUN: %python %inputs/jq.py %t/r4.json peak_bytes | FileCheck %s --check-prefix=B4
// 448 * 4 + 4096 = 5888
// B4: peak_bytes = 5888
func.func @f(%x: !torch.vtensor<[?,16],f32> {ac.max_shape = array<i64: 8, -1>},
             %w: !torch.vtensor<[32,16],f32> {ac.param},
             %dy: !torch.vtensor<[?,32],f32> {ac.tangent})
    -> (!torch.vtensor<[?,32],f32> {ac.output}, !torch.vtensor<[32,16],f32> {ac.grad})
    attributes {ac.joint} {
  %int0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %int32 = "torch.constant.int"() {value = 32 : i64} : () -> !torch.int
  %none = "torch.constant.none"() : () -> !torch.none
  %n = "torch.aten.size.int"(%x, %int0) : (!torch.vtensor<[?,16],f32>, !torch.int) -> !torch.int
  %h = "torch.aten.linear"(%x, %w, %none) : (!torch.vtensor<[?,16],f32>, !torch.vtensor<[32,16],f32>, !torch.none) -> !torch.vtensor<[?,32],f32>
  %r = "torch.aten.relu"(%h) : (!torch.vtensor<[?,32],f32>) -> !torch.vtensor<[?,32],f32>
  %l = "torch.prim.ListConstruct"(%n, %int32) : (!torch.int, !torch.int) -> !torch.list<int>
  %v = "torch.aten.view"(%r, %l) : (!torch.vtensor<[?,32],f32>, !torch.list<int>) -> !torch.vtensor<[?,32],f32>
  %g = "torch.aten.threshold_backward"(%dy, %r, %int0) : (!torch.vtensor<[?,32],f32>, !torch.vtensor<[?,32],f32>, !torch.int) -> !torch.vtensor<[?,32],f32>
  %gt = "torch.aten.t"(%g) : (!torch.vtensor<[?,32],f32>) -> !torch.vtensor<[32,?],f32>
  %gw = "torch.aten.mm"(%gt, %x) : (!torch.vtensor<[32,?],f32>, !torch.vtensor<[?,16],f32>) -> !torch.vtensor<[32,16],f32>
  return %v, %gw : !torch.vtensor<[?,32],f32>, !torch.vtensor<[32,16],f32>
}
