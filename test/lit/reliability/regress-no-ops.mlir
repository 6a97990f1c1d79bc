// Regression (found by fuzz_plan_mlir): a joint function without ops has no
// simulated step, so the peak has no schedule entry (peakSched = -1); the
// report read g->sched[-1] (ASan: heap-buffer-overflow in acReportToString)
// and so did the unreachable-budget message.  The peak is then the static
// bytes (the parameter), reported with no op and no function.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json --ac-plan-out=%t/p.json -o %t.discard.mlir
// RUN: %python %inputs/jq.py %t/r.json peak_bytes peak_at | FileCheck %s
// CHECK: peak_bytes = 16{{$}}
// CHECK: peak_at = {"function":"","op":"","phase":{{.*}},"step":-1,"workspace_bytes":0}
// RUN: ac-opt %s --ac-budget=1 --ac-strategy=knapsack --ac-mode=annotate --ac-report=%t/r.json -o %t.discard.mlir 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: warning: autoac: budget 1 bytes (1 B) is below the peak of the knapsack baseline's plan for it, 16 bytes (16 B), which occurs at '?' in the {{.*}} of '@?'
// RUN: not ac-opt %s --ac-budget=1 --ac-strict -o %t.discard.mlir 2>&1 | FileCheck %s --check-prefix=STRICT
// STRICT: error: autoac: budget 1 bytes
func.func @empty(%w: !torch.vtensor<[4],f32> {ac.param}, %n: !torch.int,
                 %dy: !torch.int {ac.tangent}) -> (!torch.vtensor<[4],f32> {ac.grad}, !torch.int {ac.grad})
    attributes {ac.joint} {
  return %w, %dy : !torch.vtensor<[4],f32>, !torch.int
}
