// The option grads: how the backward's gradients are counted (contract
// section 2).  The step of peak-by-hand.mlir with the input's gradient %gx
// returned too, planned save-all (the backward reads the relu output %a).
// x, w, h, a, ga, gw, gx are 262144 bytes; the loss s and the tangent dy 4;
// %g (expand) and the transposes are views.  Live bytes besides the static
// part, the primal x live throughout:
//   fwd mm      x + h                         = 524288
//   fwd relu    x + h + a                     = 786432
//   fwd sum     x + a + s                     = 524292
//   bwd thresh  x + a + ga + s + dy           = 786440
//   bwd mm gw   x + ga + s + dy               = 524296  (+ gw when new)
//   bwd mm gx   x + ga + s + dy               = 524296  (+ gw + gx when new)
//
// buffers (the default): gw and gx are written into gradient buffers that
// exist for the whole step, static w + gw + gx = 786432;
// peak at thresh 786440 + 786432 = 1572872.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-strategy=save-all --ac-report=%t/buf.json -o %t/buf.mlir
// RUN: %python %inputs/jq.py %t/buf.json peak_bytes static_bytes | FileCheck %s --check-prefix=BUF
// BUF: peak_bytes = 1572872{{$}}
// BUF: static_bytes = 786432{{$}}
// RUN: ac-opt %s --ac-strategy=save-all --ac-grads=buffers --ac-report=%t/buf2.json -o %t/buf2.mlir
// RUN: %python %inputs/jq.py %t/buf2.json peak_bytes static_bytes | FileCheck %s --check-prefix=BUF
//
// accumulate (PyTorch's zero_grad(set_to_none=False)): the .grad tensors
// exist for the whole step (static 786432 as above) and the backward's gw
// and gx are new tensors, live from their mm to the end of the backward:
// the gx step is 524296 + 2 x 262144 = 1048584, peak 1048584 + 786432 =
// 1835016 (two copies of every gradient at the end).
// RUN: ac-opt %s --ac-strategy=save-all --ac-grads=accumulate --ac-report=%t/acc.json -o %t/acc.mlir
// RUN: %python %inputs/jq.py %t/acc.json peak_bytes static_bytes | FileCheck %s --check-prefix=ACC
// ACC: peak_bytes = 1835016{{$}}
// ACC: static_bytes = 786432{{$}}
//
// assign (zero_grad(set_to_none=True)): no gradient before the backward,
// static w 262144 only; peak at the gx step 1048584 + 262144 = 1310728.
// RUN: ac-opt %s --ac-strategy=save-all --ac-grads=assign --ac-report=%t/asg.json -o %t/asg.mlir
// RUN: %python %inputs/jq.py %t/asg.json peak_bytes static_bytes | FileCheck %s --check-prefix=ASG
// ASG: peak_bytes = 1310728{{$}}
// ASG: static_bytes = 262144{{$}}
//
// A bad value is rejected, quoting it and saying what is accepted; nothing
// is written.
// RUN: not ac-opt %s --ac-grads=sum --ac-report=%t/bad.json -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t/bad.json
// RUN: not test -e %t/bad.mlir
// BAD: error: bad value for option 'grads': 'sum' (accepted: buffers, accumulate, assign)
func.func @step(%x: !torch.vtensor<[256,256],f32>, %w: !torch.vtensor<[256,256],f32> {ac.param}, %dy: !torch.vtensor<[],f32> {ac.tangent}) -> (!torch.vtensor<[],f32> {ac.output}, !torch.vtensor<[256,256],f32> {ac.grad}, !torch.vtensor<[256,256],f32> {ac.grad}) attributes {ac.joint} {
  %h = "torch.aten.mm"(%x, %w) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %a = "torch.aten.relu"(%h) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %none = "torch.constant.none"() : () -> !torch.none
  %s = "torch.aten.sum"(%a, %none) : (!torch.vtensor<[256,256],f32>, !torch.none) -> !torch.vtensor<[],f32>
  %i = "torch.constant.int"() {value = 256 : i64} : () -> !torch.int
  %l = "torch.prim.ListConstruct"(%i, %i) : (!torch.int, !torch.int) -> !torch.list<int>
  %f = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %g = "torch.aten.expand"(%dy, %l, %f) : (!torch.vtensor<[],f32>, !torch.list<int>, !torch.bool) -> !torch.vtensor<[256,256],f32>
  %z = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %ga = "torch.aten.threshold_backward"(%g, %a, %z) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>, !torch.int) -> !torch.vtensor<[256,256],f32>
  %xt = "torch.aten.t"(%x) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %gw = "torch.aten.mm"(%xt, %ga) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %wt = "torch.aten.t"(%w) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %gx = "torch.aten.mm"(%ga, %wt) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  return %s, %gw, %gx : !torch.vtensor<[],f32>, !torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>
}
