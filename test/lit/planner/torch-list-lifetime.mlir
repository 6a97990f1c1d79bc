// A torch list (`torch.prim.ListConstruct`) only refers to its elements:
// the op that reads the list reads them, so each element lives until that
// op runs, not until the list is made (docs/contract.md, "Types").
//
// Sizes: %x, %a, %b, %o are 1024xf32 = 4096 bytes; %dy, %y, %g are
// 2048xf32 = 8192.  Static part: the gradient's buffer (grads=buffers),
// 8192.  %a, %b, the list and the cat do not feed the forward's output:
// they run in the backward, after %o.  Live at the cat, static excluded:
//   x + dy + o + a + b + y = 4096 + 8192 + 4096 + 4096 + 4096 + 8192 = 32768
// peak = 32768 + 8192 = 40960.  With the elements dead at the list, the cat
// would count x + dy + o + y = 24576 (+ 8192 = 32768): 8192 bytes short.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes static_bytes | FileCheck %s --check-prefix=PEAK
// PEAK: peak_bytes = 40960{{$}}
// PEAK: static_bytes = 8192{{$}}
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); print(' '.join(s['op'].split('.')[-1] + ':' + str(s['live_bytes']) for s in r['timeline'] if not s['op'].startswith('torch.constant')))" %t/r.json | FileCheck %s --check-prefix=LIVE
// LIVE: sin:16384 exp:28672 tanh:32768 ListConstruct:32768 cat:40960 Tensor:32768{{$}}
// The rewrite keeps the list with its elements in the backward.
// RUN: FileCheck %s --input-file=%t/out.mlir
// CHECK-LABEL: func.func @f_bwd
// CHECK: %[[A:.*]] = "torch.aten.exp"
// CHECK: %[[B:.*]] = "torch.aten.tanh"
// CHECK: %[[L:.*]] = "torch.prim.ListConstruct"(%[[A]], %[[B]])
// CHECK: "torch.aten.cat"(%[[L]],
func.func @f(%x: !torch.vtensor<[1024],f32>, %dy: !torch.vtensor<[2048],f32> {ac.tangent}) -> (!torch.vtensor<[1024],f32> {ac.output}, !torch.vtensor<[2048],f32>) attributes {ac.joint} {
  %int0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %a = "torch.aten.exp"(%x) : (!torch.vtensor<[1024],f32>) -> !torch.vtensor<[1024],f32>
  %b = "torch.aten.tanh"(%x) : (!torch.vtensor<[1024],f32>) -> !torch.vtensor<[1024],f32>
  %l = "torch.prim.ListConstruct"(%a, %b) : (!torch.vtensor<[1024],f32>, !torch.vtensor<[1024],f32>) -> !torch.list<vtensor>
  %y = "torch.aten.cat"(%l, %int0) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[2048],f32>
  %o = "torch.aten.sin"(%x) : (!torch.vtensor<[1024],f32>) -> !torch.vtensor<[1024],f32>
  %g = "torch.aten.mul.Tensor"(%y, %dy) : (!torch.vtensor<[2048],f32>, !torch.vtensor<[2048],f32>) -> !torch.vtensor<[2048],f32>
  return %o, %g : !torch.vtensor<[1024],f32>, !torch.vtensor<[2048],f32>
}
