// A loop body writing into a tensor.empty made before the loop (what cse
// makes of one inside it): a new tensor each iteration, passed on.  The
// copy into the iter_arg was made only for a tensor made in the body, so
// one-shot bufferization refused the loop (difftest seeds 20000026,
// 20000092, 20000158, 20000280, 20000327, 20000393).
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": null, "rng": "keep"}
#id = affine_map<(i, j) -> (i, j)>
module {
  func.func @f(%x: tensor<32x32xf32>, %w: tensor<32x32xf32> {ac.param}, %dl: tensor<32x32xf32> {ac.tangent}) -> (tensor<32x32xf32> {ac.output}, tensor<32x32xf32> {ac.grad}) attributes {ac.joint} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %e = tensor.empty() : tensor<32x32xf32>
    %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %m = arith.mulf %p, %q : f32
      linalg.yield %m : f32
    } -> tensor<32x32xf32>
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %a) -> (tensor<32x32xf32>) {
      %n = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%t, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) {
      ^bb0(%p: f32, %q: f32, %o: f32):
        %s = arith.addf %p, %q : f32
        %h = math.tanh %s : f32
        linalg.yield %h : f32
      } -> tensor<32x32xf32>
      scf.yield %n : tensor<32x32xf32>
    }
    %y = math.exp %r : tensor<32x32xf32>
    %g = arith.mulf %dl, %y : tensor<32x32xf32>
    %g2 = arith.mulf %g, %a : tensor<32x32xf32>
    %g3 = arith.mulf %g2, %x : tensor<32x32xf32>
    return %y, %g3 : tensor<32x32xf32>, tensor<32x32xf32>
  }
}
