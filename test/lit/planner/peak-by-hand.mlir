// The simulated peak of a small step, computed by hand.
//
// Sizes: %x, %w, %h, %a, %ga, %gw are 256x256xf32 = 262144 bytes; the loss
// %s and the tangent %dy are 4 bytes.  Static part: the parameter %w 262144
// + its gradient %gw 262144 = 524288 bytes (no optimizer).
//
// The min-cut saves %h (the mm output; ties with %a at 262144 bytes, the cut
// nearest the source wins) and the backward recomputes the relu.  Live bytes,
// besides the static part (the primal input %x is live throughout):
//   fwd mm      x + h                         = 524288
//   fwd relu    x + h + a                     = 786432
//   fwd sum     x + h + a + s                 = 786436
//   bwd expand  x + h + s + dy                = 524296
//   recompute   x + h + a' + s + dy           = 786440   <- peak
//   bwd thresh  x + a' + ga + s + dy          = 786440
//   bwd t, mm   x + ga + s + dy               = 524296
// peak = 786440 + 524288 = 1310728.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes saved_bytes feasible budget_bytes baseline_peak_bytes | FileCheck %s --check-prefix=FREE
// FREE: peak_bytes = 1310728{{$}}
// FREE: static_bytes = 524288{{$}}
// FREE: saved_bytes = 262144{{$}}
// FREE: feasible = true
// FREE: budget_bytes = null
// FREE: baseline_peak_bytes = {"mincut":1310728,"save-all":1310728}
//
// Adam keeps 2 bytes of state per parameter byte: static 524288 + 2*262144 =
// 1048576; a 1000-byte reserve adds 1000: peak 786440 + 1049576 = 1836016.
// RUN: ac-opt %s --ac-optimizer=adam --ac-reserve=1000 --ac-report=%t/adam.json -o %t/out2.mlir
// RUN: %python %inputs/jq.py %t/adam.json peak_bytes static_bytes | FileCheck %s --check-prefix=ADAM
// ADAM: peak_bytes = 1836016{{$}}
// ADAM: static_bytes = 1049576{{$}}
//
// A budget at the peak is met; one byte less cannot be reached (nothing
// cheaper than the fwd relu's 786432 + static 524288 = 1310720 exists, and no
// drop lowers the peak): a warning naming the peak and where it occurs, and
// the best plan is still applied.
// RUN: ac-opt %s --ac-budget=1310728 --ac-report=%t/met.json -o %t/out3.mlir
// RUN: %python %inputs/jq.py %t/met.json feasible budget_bytes | FileCheck %s --check-prefix=MET
// MET: feasible = true
// MET: budget_bytes = 1310728{{$}}
// RUN: ac-opt %s --ac-budget=1310727 --ac-report=%t/over.json -o %t/out4.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: warning: autoac: budget 1310727 bytes (1.25 MiB) is below the lowest peak autoac's searches found (greedy, beam, the ILP, restarts; this plan by greedy), 1310728 bytes (1.25 MiB), which occurs at '{{.*}}' in the backward of '@step'; the best plan found is applied
// RUN: %python %inputs/jq.py %t/over.json feasible peak_bytes | FileCheck %s --check-prefix=OVER
// OVER: feasible = false
// OVER: peak_bytes = 1310728{{$}}
// With --ac-strict it is an error, and nothing is written.
// RUN: not ac-opt %s --ac-budget=1310727 --ac-strict --ac-report=%t/strict.json -o %t/strict.mlir 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: not test -e %t/strict.json
// RUN: not test -e %t/strict.mlir
// STRICT: error: autoac: budget 1310727 bytes (1.25 MiB) is below the lowest peak autoac's searches found (greedy, beam, the ILP, restarts; this plan by greedy), 1310728 bytes
func.func @step(%x: !torch.vtensor<[256,256],f32>, %w: !torch.vtensor<[256,256],f32> {ac.param}, %dy: !torch.vtensor<[],f32> {ac.tangent}) -> (!torch.vtensor<[],f32> {ac.output}, !torch.vtensor<[256,256],f32> {ac.grad}) attributes {ac.joint} {
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
  return %s, %gw : !torch.vtensor<[],f32>, !torch.vtensor<[256,256],f32>
}
