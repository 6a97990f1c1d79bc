// A tosa.const_shape read by a forward and a backward tosa.reshape: the
// split module did not verify ("'tosa.reshape' op shape operand is not
// compile time resolvable", exit 1) wherever the shape reached @f_bwd as
// an argument (saved) or as an scf.execute_region result (recomputed).
// Fixed: a TOSA shape is always rebuilt in the backward, and the rewrite
// clones every constant in front of its recompute region, never inside.
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "greedy", "budget_spec": "monotone", "budget": null, "rng": "keep"}
module {
  func.func @f(%x: tensor<8x8xf32>, %dl: tensor<8x8xf32> {ac.tangent}) -> (tensor<64xf32> {ac.output}, tensor<8x8xf32> {ac.grad}) attributes {ac.joint} {
    %s = tosa.const_shape {values = dense<[64]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %t = tosa.tanh %x : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %r = tosa.reshape %t, %s : (tensor<8x8xf32>, !tosa.shape<1>) -> tensor<64xf32>
    %d = tosa.reshape %dl, %s : (tensor<8x8xf32>, !tosa.shape<1>) -> tensor<64xf32>
    %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %m = tosa.mul %d, %r, %sh : (tensor<64xf32>, tensor<64xf32>, tensor<1xi8>) -> tensor<64xf32>
    %s2 = tosa.const_shape {values = dense<[8, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %g = tosa.reshape %m, %s2 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<8x8xf32>
    return %r, %g : tensor<64xf32>, tensor<8x8xf32>
  }
}
