// Op workspaces (docs/cost-model.md, "Workspaces"): scratch an op's kernel
// allocates and frees inside itself counts at that op's step only, on top of
// what is live then; the cpu profiles give PyTorch's CPU kernels theirs, the
// GPU profiles none, and a cost table's "workspace" replaces the model's.
//
// Sizes: %x, %t, %g are 64x1000xf32 = 256000 bytes, %l and %dy 4.  Static
// part: the gradient %g, 256000.
//  h100: no workspace.  Forward at mse_loss: x + t + l = 512004; backward at
//    mse_loss_backward: x + t + l (an output: live to the end) + dy = 512008
//    -> peak 512008 + 256000 = 768008, at the backward.
//  cpu1: mse_loss reduced to a scalar keeps a difference tensor the size of
//    %x: 512004 + 256000 = 768004 at its step -> peak 768004 + 256000 =
//    1024004, at the forward's mse_loss; the step after it is unchanged.
//    After mse_loss's step its workspace is freed (x and t are saved for the
//    backward): live_after_bytes 1024004 - 256000 = 768004.
//  A table's "workspace": 1000000 on h100: 512004 + 1000000 + 256000 =
//    1768004; "workspace": 0 on cpu1 takes the model's away: 768008.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-device=h100 --ac-report=%t/h.json -o %t/h.mlir
// RUN: %python %inputs/jq.py %t/h.json peak_bytes peak_at.op peak_at.workspace_bytes | FileCheck %s --check-prefix=GPU
// GPU: peak_bytes = 768008{{$}}
// GPU: peak_at.op = "torch.aten.mse_loss_backward"
// GPU: peak_at.workspace_bytes = 0{{$}}
// RUN: ac-opt %s --ac-device=cpu1 --ac-report=%t/c.json -o %t/c.mlir
// RUN: %python %inputs/jq.py %t/c.json peak_bytes peak_at.op peak_at.workspace_bytes timeline.0.live_bytes timeline.0.workspace_bytes timeline.0.live_after_bytes timeline.1.live_bytes | FileCheck %s --check-prefix=CPU
// CPU: peak_bytes = 1024004{{$}}
// CPU: peak_at.op = "torch.aten.mse_loss"
// CPU: peak_at.workspace_bytes = 256000{{$}}
// CPU: timeline.0.live_bytes = 1024004{{$}}
// CPU: timeline.0.workspace_bytes = 256000{{$}}
// CPU: timeline.0.live_after_bytes = 768004{{$}}
// CPU: timeline.1.live_bytes = 768008{{$}}
// RUN: echo '{"torch.aten.mse_loss": {"workspace": 1000000}}' > %t/big.json
// RUN: ac-opt %s --ac-device=h100 --ac-cost-table=%t/big.json --ac-report=%t/b.json -o %t/b.mlir
// RUN: %python %inputs/jq.py %t/b.json peak_bytes peak_at.workspace_bytes | FileCheck %s --check-prefix=TABLE
// TABLE: peak_bytes = 1768004{{$}}
// TABLE: peak_at.workspace_bytes = 1000000{{$}}
// RUN: echo '{"torch.aten.mse_loss": {"workspace": 0}}' > %t/zero.json
// RUN: ac-opt %s --ac-device=cpu1 --ac-cost-table=%t/zero.json --ac-report=%t/z.json -o %t/z.mlir
// RUN: %python %inputs/jq.py %t/z.json peak_bytes | FileCheck %s --check-prefix=ZERO
// ZERO: peak_bytes = 768008{{$}}
// A budget between the two peaks is met on h100 and missed on cpu1.
// RUN: ac-opt %s --ac-device=h100 --ac-budget=800000 --ac-report=%t/hb.json -o %t/hb.mlir
// RUN: %python %inputs/jq.py %t/hb.json feasible | FileCheck %s --check-prefix=FITS
// FITS: feasible = true
// RUN: ac-opt %s --ac-device=cpu1 --ac-budget=800000 --ac-report=%t/cb.json -o %t/cb.mlir 2>&1 | FileCheck %s --check-prefix=MISS
// MISS: warning: autoac: budget 800000 bytes {{.*}} 1024004 bytes
// RUN: %python %inputs/jq.py %t/cb.json feasible | FileCheck %s --check-prefix=NOFIT
// NOFIT: feasible = false
func.func @step(%x: tensor<64x1000xf32>, %t: tensor<64x1000xf32>, %dy: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<64x1000xf32> {ac.grad}) attributes {ac.joint} {
  %l = "torch.aten.mse_loss"(%x, %t) : (tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<f32>
  %g = "torch.aten.mse_loss_backward"(%dy, %x, %t) : (tensor<f32>, tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<64x1000xf32>
  return %l, %g : tensor<f32>, tensor<64x1000xf32>
}
