// The option tangents: how long the backward's tangents live (contract
// section 2).  x, w, h, a, dy, ga, gw are 262144 bytes each ([256,256] f32);
// planned save-all with grads=assign (static: w, 262144).  The forward
// output a is returned (lives through the backward), the primal x lives
// throughout.  Live bytes besides the static part:
//   fwd mm      x + h                         = 524288
//   fwd relu    x + h + a                     = 786432
//   bwd thresh  x + a + dy + ga               = 1048576
//   bwd mm gw   x + a + ga + gw   (+ dy held) = 1048576 (1310720)
//
// held (the default: the caller holds the tangent through the backward, as
// the compiled MLIR program's arguments and torch 1.13 do): peak at the mm,
// 1310720 + 262144 = 1572864.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-strategy=save-all --ac-grads=assign --ac-report=%t/held.json -o %t/held.mlir
// RUN: %python %inputs/jq.py %t/held.json peak_bytes static_bytes | FileCheck %s --check-prefix=HELD
// RUN: ac-opt %s --ac-strategy=save-all --ac-grads=assign --ac-tangents=held --ac-report=%t/held2.json -o %t/held2.mlir
// RUN: %python %inputs/jq.py %t/held2.json peak_bytes static_bytes | FileCheck %s --check-prefix=HELD
// HELD: peak_bytes = 1572864{{$}}
// HELD: static_bytes = 262144{{$}}
//
// last-use (torch 2.x's AOT autograd: the backward steals its arguments and
// frees dy after the threshold_backward, its last reader): 1048576 + 262144
// = 1310720, the same under every strategy (the greedy's incremental
// profile, the beam and the ILP count it as the simulator does).
// RUN: ac-opt %s --ac-strategy=save-all --ac-grads=assign --ac-tangents=last-use --ac-report=%t/lu.json -o %t/lu.mlir
// RUN: %python %inputs/jq.py %t/lu.json peak_bytes static_bytes | FileCheck %s --check-prefix=LU
// LU: peak_bytes = 1310720{{$}}
// LU: static_bytes = 262144{{$}}
// RUN: ac-opt %s --ac-strategy=greedy --ac-budget=1 --ac-grads=assign --ac-tangents=last-use --ac-report=%t/g.json -o %t/g.mlir 2>/dev/null
// RUN: %python %inputs/jq.py %t/g.json peak_bytes | FileCheck %s --check-prefix=LOW
// RUN: ac-opt %s --ac-strategy=beam --ac-budget=1 --ac-grads=assign --ac-tangents=last-use --ac-report=%t/b.json -o %t/b.mlir 2>/dev/null
// RUN: %python %inputs/jq.py %t/b.json peak_bytes | FileCheck %s --check-prefix=LOW
// RUN: ac-opt %s --ac-strategy=ilp --ac-budget=1 --ac-grads=assign --ac-tangents=last-use --ac-report=%t/i.json -o %t/i.mlir 2>/dev/null
// RUN: %python %inputs/jq.py %t/i.json peak_bytes | FileCheck %s --check-prefix=LOW
// LOW: peak_bytes = 1310720{{$}}
//
// A bad value is rejected, quoting it and saying what is accepted; nothing
// is written.
// RUN: not ac-opt %s --ac-tangents=freed --ac-report=%t/bad.json -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t/bad.json
// RUN: not test -e %t/bad.mlir
// BAD: error: bad value for option 'tangents': 'freed' (accepted: held, last-use)
func.func @step(%x: !torch.vtensor<[256,256],f32>, %w: !torch.vtensor<[256,256],f32> {ac.param}, %dy: !torch.vtensor<[256,256],f32> {ac.tangent}) -> (!torch.vtensor<[256,256],f32> {ac.output}, !torch.vtensor<[256,256],f32> {ac.grad}) attributes {ac.joint} {
  %h = "torch.aten.mm"(%x, %w) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %a = "torch.aten.relu"(%h) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %z = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %ga = "torch.aten.threshold_backward"(%dy, %a, %z) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>, !torch.int) -> !torch.vtensor<[256,256],f32>
  %xt = "torch.aten.t"(%x) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %gw = "torch.aten.mm"(%xt, %ga) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  return %a, %gw : !torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>
}
