// REQUIRES: plugin
// The plugin registers auto-ac with the contract's options; they survive
// --dump-pass-pipeline, and the pass runs inside stock mlir-opt.
// RUN: mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac{budget=24GB strategy=mincut mode=annotate device=a100 optimizer=adam reserve=1GiB})' \
// RUN:   --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: auto-ac{budget=24GB device=a100 mode=annotate optimizer=adam {{.*}}reserve=1GiB {{.*}}strategy=mincut{{.*}}}
// RUN: mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac{mode=annotate})' | FileCheck %s

// CHECK-LABEL: func.func @step
// CHECK: "torch.aten.relu"{{.*}}ac.saved
func.func @step(%x: !torch.vtensor<[2,4],f32>, %dy: !torch.vtensor<[2,4],f32> {ac.tangent}) -> (!torch.vtensor<[2,4],f32> {ac.output}, !torch.vtensor<[2,4],f32> {ac.grad}) attributes {ac.joint} {
  %0 = "torch.aten.relu"(%x) : (!torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  %1 = "torch.aten.threshold_backward"(%dy, %0, %dy) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  return %0, %1 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>
}
