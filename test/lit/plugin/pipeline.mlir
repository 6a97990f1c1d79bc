// REQUIRES: plugin
// The plugin registers auto-ac with the contract's options; they survive
// --dump-pass-pipeline, and the pass runs inside stock mlir-opt.
// RUN: mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac{budget=24GB strategy=mincut mode=annotate device=a100 optimizer=adam reserve=1GiB})' \
// RUN:   --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: auto-ac{buckets= budget=24GB cost-table= device=a100 grads= {{.*}}mode=annotate {{.*}}optimizer=adam {{.*}}reserve=1GiB {{.*}}strategy=mincut{{.*}}}
// RUN: mlir-opt %s --allow-unregistered-dialect --load-pass-plugin=%plugin \
// RUN:   --pass-pipeline='builtin.module(auto-ac{mode=annotate})' | FileCheck %s

// relu of a primal input, returned as the forward output: the min cut reads
// %x again in the backward and recomputes the relu, but the output is live
// until the backward's end anyway, so the starting set saves it back (no
// recompute, no extra byte: docs/planner.md, the starting set).
// CHECK-LABEL: func.func @step
// CHECK: "torch.aten.relu"(%arg0) {ac.saved = array<i64: 0>}
// CHECK-NOT: ac.recomputed
// CHECK: return
func.func @step(%x: !torch.vtensor<[2,4],f32>, %dy: !torch.vtensor<[2,4],f32> {ac.tangent}) -> (!torch.vtensor<[2,4],f32> {ac.output}, !torch.vtensor<[2,4],f32> {ac.grad}) attributes {ac.joint} {
  %0 = "torch.aten.relu"(%x) : (!torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  %1 = "torch.aten.threshold_backward"(%dy, %0, %dy) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  return %0, %1 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>
}

// Dropout's mask comes from an in-place RNG op: it is saved, never rerun.
// CHECK-LABEL: func.func @dropout
// CHECK: %[[MASK:.*]] = "torch.aten.bernoulli_.float"{{.*}}ac.saved = array<i64: 0>
// CHECK-NOT: ac.recomputed
// CHECK: return
func.func @dropout(%x: !torch.vtensor<[2,4],f32>, %dy: !torch.vtensor<[2,4],f32> {ac.tangent}) -> (!torch.vtensor<[2,4],f32> {ac.output}, !torch.vtensor<[2,4],f32> {ac.grad}) attributes {ac.joint} {
  %p = "torch.constant.float"() {value = 0.9 : f64} : () -> !torch.float
  %n = "torch.constant.none"() : () -> !torch.none
  %m = "torch.aten.bernoulli_.float"(%x, %p, %n) : (!torch.vtensor<[2,4],f32>, !torch.float, !torch.none) -> !torch.vtensor<[2,4],f32>
  %y = "torch.aten.mul.Tensor"(%x, %m) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  %g = "torch.aten.mul.Tensor"(%dy, %m) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
  return %y, %g : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>
}
