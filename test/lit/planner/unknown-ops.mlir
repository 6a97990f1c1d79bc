// Ops the cost model does not know are named: one warning per op name (how
// many, at the first), a line each in --ac-summary, and the report's
// unknown_ops.  A cost table (--ac-cost-table, pass option cost-table) gives
// them costs; covered names are no longer unknown.
//
// Sizes: %x, %a, %b, %g, %g2 are 1024xf32 = 4096 bytes, %c 4096xf32 = 16384,
// %s 4.  Static part: the gradient %g2, 4096.
// Unknown ops are pinned, so min-cut saves %a and %b; the forward peak is at
// the sum: x + a + b + c + s = 4096 * 3 + 16384 + 4 = 28676, plus static
// 4096 = 32772.  Made recomputable by the table, %a and %b can both be
// dropped; the forward peak is then at other.thing: x + b + c = 24576, plus
// static = 28672, which a budget of 28672 needs.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-budget=28672 --ac-summary --ac-report=%t/r.json -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// WARN-NOT: warning: autoac: {{.*}} 'torch.aten
// WARN: unknown-ops.mlir:[[#FANCY:]]:8: warning: autoac: 2 ops 'my.fancy' are unknown to the cost model (the first here): counted as 0 FLOPs and never recomputed; give them costs with --ac-cost-table=FILE (pass option cost-table=FILE)
// WARN: unknown-ops.mlir:[[#FANCY+2]]:8: warning: autoac: 1 op 'other.thing' is unknown to the cost model: counted as 0 FLOPs and never recomputed; give it costs with --ac-cost-table=FILE
// WARN: warning: autoac: budget 28672 bytes (28.00 KiB) is below the lowest peak autoac's searches found (greedy, beam, the ILP; this plan by greedy), 32772 bytes
// WARN: autoac summary
// WARN: unknown op my.fancy: 2 ops, first at {{.*}}unknown-ops.mlir:[[#FANCY]]:8: 0 FLOPs, never recomputed
// WARN-NEXT: unknown op other.thing: 1 op, first at {{.*}}unknown-ops.mlir:[[#FANCY+2]]:8: 0 FLOPs, never recomputed
// RUN: %python %inputs/jq.py %t/r.json peak_bytes unknown_ops.0 unknown_ops.1.location unknown_ops.1.name | FileCheck %s --check-prefix=REPORT
// REPORT: peak_bytes = 32772
// REPORT: unknown_ops.0 = {"count":2,"location":"{{.*}}unknown-ops.mlir:[[#FANCY:]]:8","name":"my.fancy","recomputable":false}
// REPORT: unknown_ops.1.location = "{{.*}}unknown-ops.mlir:[[#FANCY+2]]:8"
// REPORT: unknown_ops.1.name = "other.thing"
// (The pass: test/lit/plugin/cost-table.mlir.)
//
// With a cost table for both names: no unknown op, the table's costs in the
// step and the recompute figures (1e9 FLOPs per my.fancy, 0.5 s for
// other.thing), and the budget is met by recomputing %a and %b.
// RUN: echo '{"my.fancy": {"flops": 1e9, "bytes": 8192, "recomputable": true}, "other.thing": {"seconds": 0.5}}' > %t/costs.json
// RUN: ac-opt %s --ac-budget=28672 --ac-cost-table=%t/costs.json --ac-report=%t/t.json -o %t/out2.mlir 2>&1 | FileCheck %s --check-prefix=TABLE --allow-empty
// TABLE-NOT: warning
// RUN: %python %inputs/jq.py %t/t.json feasible peak_bytes unknown_ops recompute_flops step_flops functions.0.recomputed | FileCheck %s --check-prefix=TREPORT
// TREPORT: feasible = true
// TREPORT: peak_bytes = 28672
// TREPORT: unknown_ops = []
// TREPORT: recompute_flops = 2000000000.0
// TREPORT: step_flops = 2000006144.0
// TREPORT: functions.0.recomputed = [{"flops":1000000000.0,"op":"my.fancy","value":"%0"},{"flops":1000000000.0,"op":"my.fancy","value":"%1"}]
//
// Step time: the sum of op seconds on the h100 (989e12 FLOP/s, 3.35e12 B/s),
// forward and backward once each: other.thing 0.5 (the table's), my.fancy
// 2 x 1e9 / 989e12 = 2.02224e-6 (compute-bound), the sum 16388 B, the muls
// 8196 and 12288 B, bytes-bound: 36872 / 3.35e12 = 1.10066e-8; in all
// 0.500002033.  The recompute overhead is the two my.fancy reruns over it:
// 2.02224e-6 / 0.500002033 * 100 = 0.000404447 %.
// RUN: %python %inputs/jq.py %t/t.json step_seconds recompute_seconds recompute_overhead_percent | FileCheck %s --check-prefix=STEP
// STEP: step_seconds = 0.500002033{{[0-9]*}}
// STEP: recompute_seconds = 2.0222446{{[0-9]*}}e-06
// STEP: recompute_overhead_percent = 0.000404447{{[0-9]*}}
// RUN: ac-opt %s --ac-budget=28672 --ac-cost-table=%t/costs.json --ac-summary -o %t/out4.mlir 2>&1 | FileCheck %s --check-prefix=SUMSTEP
// SUMSTEP: step 0.5 s (forward + backward, cost model), recompute overhead 0.000404 %
//
// A table for one name leaves the other unknown.
// RUN: echo '{"other.thing": {"flops": 5}}' > %t/one.json
// RUN: ac-opt %s --ac-cost-table=%t/one.json -o %t/out3.mlir 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: warning: autoac: 2 ops 'my.fancy' are unknown
// ONE-NOT: other.thing
func.func @step(%x: tensor<1024xf32>, %dy: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<1024xf32> {ac.grad}) attributes {ac.joint} {
  %a = "my.fancy"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "my.fancy"(%a) : (tensor<1024xf32>) -> tensor<1024xf32>
  %c = "other.thing"(%b) : (tensor<1024xf32>) -> tensor<4096xf32>
  %s = "torch.aten.sum"(%c) : (tensor<4096xf32>) -> tensor<f32>
  %g = "torch.aten.mul"(%dy, %b) : (tensor<f32>, tensor<1024xf32>) -> tensor<1024xf32>
  %g2 = "torch.aten.mul"(%g, %a) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %s, %g2 : tensor<f32>, tensor<1024xf32>
}
