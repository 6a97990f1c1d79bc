// In-place writes (issue 13, class 4): gelu(%x) followed by relu_(%x) must
// not recompute the gelu in @f_bwd, where it would read the mutated %x; the
// gelu's result is saved instead, and a warning says why.
// RUN: ac-opt %s --ac-report=%t.json -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.mlir
// RUN: ac-opt %s --ac-strategy=greedy --ac-budget=1 -o %t.low.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=LOW < %t.low.mlir
// Forcing a recompute of a reader of mutated storage is refused.
// RUN: sed 's/"torch.aten.gelu"(%x)/"torch.aten.gelu"(%x) {ac.recompute}/' %s > %t.forced.mlir
// RUN: not ac-opt %t.forced.mlir 2>&1 | FileCheck %s --check-prefix=FORCED
// Tensors with reference semantics (!torch.tensor), without any in-place op:
// nothing reading them is recomputed either, and the warning says so.
// RUN: sed -e 's/vtensor/tensor/g' -e 's/torch.aten.relu_/torch.aten.neg/' %s > %t.ref.mlir
// RUN: ac-opt %t.ref.mlir --ac-strategy=greedy --ac-budget=1 -o %t.ref.out.mlir 2>&1 | FileCheck %s --check-prefix=REF
// RUN: FileCheck %s --check-prefix=LOW < %t.ref.out.mlir
// REF: warning: autoac: '@f' has tensors with reference semantics (!torch.tensor); the 3 ops that read or make them are never recomputed

// WARN: mutation.mlir:[[@LINE+22]]:8: warning: autoac: 'torch.aten.relu_' writes a tensor of '@f' in place; the 2 ops that read or make storage written in place are never recomputed
// FORCED: error: {{.*}}'torch.aten.gelu' is marked ac.recompute but

// CHECK-LABEL: func.func @f_fwd
// CHECK: %[[X:.*]] = "torch.aten.relu"(%arg0)
// CHECK: %[[G:.*]] = "torch.aten.gelu"(%[[X]])
// CHECK: "torch.aten.relu_"(%[[X]])
// CHECK: return %{{.*}}, %[[G]] :
// CHECK-LABEL: func.func @f_bwd
// CHECK-NOT: "torch.aten.gelu"
// CHECK-NOT: "torch.aten.relu"
// CHECK: "torch.aten.mul.Tensor"(%arg1, %arg0)
// CHECK-NOT: ac.recompute

// Even at a budget nothing meets, no reader of %x is recomputed.
// LOW-LABEL: func.func @f_bwd
// LOW-NOT: "torch.aten.gelu"
// LOW: return

func.func @f(%a: !torch.vtensor<[64,64],f32>, %dy: !torch.vtensor<[64,64],f32> {ac.tangent}) -> (!torch.vtensor<[64,64],f32> {ac.output}, !torch.vtensor<[64,64],f32> {ac.grad}) attributes {ac.joint} {
  %x = "torch.aten.relu"(%a) : (!torch.vtensor<[64,64],f32>) -> !torch.vtensor<[64,64],f32>
  %g = "torch.aten.gelu"(%x) : (!torch.vtensor<[64,64],f32>) -> !torch.vtensor<[64,64],f32>
  %m = "torch.aten.relu_"(%x) : (!torch.vtensor<[64,64],f32>) -> !torch.vtensor<[64,64],f32>
  %s = "torch.aten.add.Tensor"(%g, %m) : (!torch.vtensor<[64,64],f32>, !torch.vtensor<[64,64],f32>) -> !torch.vtensor<[64,64],f32>
  %d = "torch.aten.mul.Tensor"(%dy, %g) : (!torch.vtensor<[64,64],f32>, !torch.vtensor<[64,64],f32>) -> !torch.vtensor<[64,64],f32>
  return %s, %d : !torch.vtensor<[64,64],f32>, !torch.vtensor<[64,64],f32>
}
