// Integer and i1 tensors (labels, masks, comparisons) as arguments and
// values: the measuring harness (python -m autoac measure and this tester)
// refused every argument that was not a float tensor, so a joint function
// taking integer labels could not be executed or measured at all.  Now
// integer arguments get small non-negative values and integer results
// are hashed by value.  f16 values throughout.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": null, "rng": "keep"}
module {
  func.func @f(%x: tensor<64x64xf16>, %w: tensor<64x64xf16> {ac.param}, %k: tensor<64x64xi32>, %dl: tensor<64x64xf16> {ac.tangent}) -> (tensor<64x64xf16> {ac.output}, tensor<64x64xf16> {ac.grad}) attributes {ac.joint} {
    %a = arith.mulf %x, %w : tensor<64x64xf16>
    %kk = arith.muli %k, %k : tensor<64x64xi32>
    %kf = arith.sitofp %kk : tensor<64x64xi32> to tensor<64x64xf16>
    %b = arith.addf %a, %kf : tensor<64x64xf16>
    %t = math.tanh %b : tensor<64x64xf16>
    %cmp = arith.cmpf ogt, %t, %a : tensor<64x64xf16>
    %s = arith.select %cmp, %t, %a : tensor<64x64xi1>, tensor<64x64xf16>
    %y = math.exp %s : tensor<64x64xf16>
    %g = arith.mulf %dl, %y : tensor<64x64xf16>
    %g1 = arith.select %cmp, %g, %t : tensor<64x64xi1>, tensor<64x64xf16>
    %g2 = arith.mulf %g1, %x : tensor<64x64xf16>
    return %y, %g2 : tensor<64x64xf16>, tensor<64x64xf16>
  }
}
