// REQUIRES: plugin
// The mlir-opt pass names unknown ops and reads a cost table (pass option
// cost-table) as ac-opt does (test/lit/planner/unknown-ops.mlir has the
// sizes: the budget 28672 is met only when my.fancy may be recomputed).
// RUN: rm -rf %t && mkdir -p %t
// RUN: mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac{budget=28672 report=%t/r.json})' -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: warning: autoac: 2 ops 'my.fancy' are unknown to the cost model
// PASS: warning: autoac: 1 op 'other.thing' is unknown to the cost model
// PASS: warning: autoac: budget 28672 bytes
// RUN: %python %inputs/jq.py %t/r.json feasible #unknown_ops | FileCheck %s --check-prefix=REPORT
// REPORT: feasible = false
// REPORT: #unknown_ops = 2
// RUN: echo '{"my.fancy": {"flops": 1e9, "recomputable": true}, "other.thing": {"seconds": 0.5}}' > %t/costs.json
// RUN: mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac{budget=28672 cost-table=%t/costs.json report=%t/p.json})' -o %t/out2.mlir 2>&1 | FileCheck %s --check-prefix=TABLE --allow-empty
// TABLE-NOT: warning
// RUN: %python %inputs/jq.py %t/p.json feasible unknown_ops | FileCheck %s --check-prefix=PREPORT
// PREPORT: feasible = true
// PREPORT: unknown_ops = []
// A bad table is an error naming the file and the entry.
// RUN: echo '{"my.fancy": {"flop": 1}}' > %t/bad.json
// RUN: not mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin --pass-pipeline='builtin.module(auto-ac{cost-table=%t/bad.json})' -o %t/out3.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: cost table '{{.*}}bad.json': entry 'my.fancy': unknown key "flop" (accepted: flops, bytes, seconds, recomputable, workspace)
func.func @step(%x: tensor<1024xf32>, %dy: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<1024xf32> {ac.grad}) attributes {ac.joint} {
  %a = "my.fancy"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "my.fancy"(%a) : (tensor<1024xf32>) -> tensor<1024xf32>
  %c = "other.thing"(%b) : (tensor<1024xf32>) -> tensor<4096xf32>
  %s = "torch.aten.sum"(%c) : (tensor<4096xf32>) -> tensor<f32>
  %g = "torch.aten.mul"(%dy, %b) : (tensor<f32>, tensor<1024xf32>) -> tensor<1024xf32>
  %g2 = "torch.aten.mul"(%g, %a) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %s, %g2 : tensor<f32>, tensor<1024xf32>
}
