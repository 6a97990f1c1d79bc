// Backward ops that do not depend on a tangent (AOT autograd's `clone` of a
// value an in-place ReLU6 overwrites) run at their first use, not where the
// joint graph has them: autoac moves a pure op there when its results take
// at least the bytes of the storages it reads (docs/planner.md, "Import
// order").  The report's timeline names each step's value in that order.
//
// Sizes: every tensor is 256x256xf32 = 262144 bytes (U); the loss %s and the
// tangent %dy are 4 bytes.  Static part: %w1, %w2 and their gradients, 4U =
// 1048576.  The min-cut saves %h1 and %h2 (the mm outputs); the backward
// recomputes %a1.  Live bytes at the start of the backward, static excluded:
//   clone %c2    x + h1 + h2 + c2 + s + dy       = 4U + 8 = 1048584  <- peak
// and %c1 is made right before its hardtanh_backward, when %h2 and %c2 are
// gone: x + h1 + ga1 + c1 + s + dy = 4U + 8.  Both clones at the start of the
// backward (the joint order) would hold x + h1 + h2 + c1 + c2 = 5U + 8.
// peak = 1048584 + 1048576 = 2097160 (save-all, which also keeps %a1 from
// the forward: 5U + 8 + 4U = 2359304).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes saved_bytes baseline_peak_bytes | FileCheck %s --check-prefix=PEAK
// PEAK: peak_bytes = 2097160{{$}}
// PEAK: static_bytes = 1048576{{$}}
// PEAK: saved_bytes = 524288{{$}}
// PEAK: baseline_peak_bytes = {"mincut":2097160,"save-all":2359304}
// RUN: FileCheck %s --input-file=%t/out.mlir
// CHECK-LABEL: func.func @step_bwd
// CHECK: %[[C2:.*]] = "torch.aten.clone"
// CHECK: %[[GA2:.*]] = "torch.aten.hardtanh_backward"(%{{.*}}, %[[C2]],
// CHECK: %[[GA1:.*]] = "torch.aten.mm"(%[[GA2]],
// CHECK-NOT: "torch.aten.
// CHECK: %[[C1:.*]] = "torch.aten.clone"
// CHECK-NOT: "torch.aten.
// CHECK: "torch.aten.hardtanh_backward"(%[[GA1]], %[[C1]],
// The timeline: the backward's steps name their values (as the report names
// them: by position in the input, %4 is %c1, %7 is %c2) in the order run.
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(' '.join(s['op'].split('.')[-1] + ':' + s.get('value', '-') for s in r['timeline'] if s['phase'] != 'fwd' and not s['op'].startswith(('torch.constant', 'torch.prim'))))" %t/r.json | FileCheck %s --check-prefix=ORDER
// ORDER: clone:%7 expand:%13 hardtanh_backward:%14 hardtanh:%5 t:%15 mm:%16 t:%17 mm:%18 clone:%4 hardtanh_backward:%19 t:%20 mm:%21{{$}}
func.func @step(%x: !torch.vtensor<[256,256],f32>, %w1: !torch.vtensor<[256,256],f32> {ac.param}, %w2: !torch.vtensor<[256,256],f32> {ac.param}, %dy: !torch.vtensor<[],f32> {ac.tangent}) -> (!torch.vtensor<[],f32> {ac.output}, !torch.vtensor<[256,256],f32> {ac.grad}, !torch.vtensor<[256,256],f32> {ac.grad}) attributes {ac.joint} {
  %none = "torch.constant.none"() : () -> !torch.none
  %lo = "torch.constant.float"() {value = 0.0 : f64} : () -> !torch.float
  %hi = "torch.constant.float"() {value = 6.0 : f64} : () -> !torch.float
  %h1 = "torch.aten.mm"(%x, %w1) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %c1 = "torch.aten.clone"(%h1, %none) : (!torch.vtensor<[256,256],f32>, !torch.none) -> !torch.vtensor<[256,256],f32>
  %a1 = "torch.aten.hardtanh"(%h1, %lo, %hi) : (!torch.vtensor<[256,256],f32>, !torch.float, !torch.float) -> !torch.vtensor<[256,256],f32>
  %h2 = "torch.aten.mm"(%a1, %w2) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %c2 = "torch.aten.clone"(%h2, %none) : (!torch.vtensor<[256,256],f32>, !torch.none) -> !torch.vtensor<[256,256],f32>
  %a2 = "torch.aten.hardtanh"(%h2, %lo, %hi) : (!torch.vtensor<[256,256],f32>, !torch.float, !torch.float) -> !torch.vtensor<[256,256],f32>
  %s = "torch.aten.sum"(%a2, %none) : (!torch.vtensor<[256,256],f32>, !torch.none) -> !torch.vtensor<[],f32>
  %i = "torch.constant.int"() {value = 256 : i64} : () -> !torch.int
  %l = "torch.prim.ListConstruct"(%i, %i) : (!torch.int, !torch.int) -> !torch.list<int>
  %f = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %g = "torch.aten.expand"(%dy, %l, %f) : (!torch.vtensor<[],f32>, !torch.list<int>, !torch.bool) -> !torch.vtensor<[256,256],f32>
  %ga2 = "torch.aten.hardtanh_backward"(%g, %c2, %lo, %hi) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>, !torch.float, !torch.float) -> !torch.vtensor<[256,256],f32>
  %a1t = "torch.aten.t"(%a1) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %gw2 = "torch.aten.mm"(%a1t, %ga2) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %w2t = "torch.aten.t"(%w2) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %ga1 = "torch.aten.mm"(%ga2, %w2t) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %gh1 = "torch.aten.hardtanh_backward"(%ga1, %c1, %lo, %hi) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>, !torch.float, !torch.float) -> !torch.vtensor<[256,256],f32>
  %xt = "torch.aten.t"(%x) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %gw1 = "torch.aten.mm"(%xt, %gh1) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  return %s, %gw1, %gw2 : !torch.vtensor<[],f32>, !torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>
}
