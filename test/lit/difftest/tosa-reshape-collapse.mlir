// tosa.reshape lowers (tosa-to-tensor) to a collapse_shape into the
// coarsest shape both shapes refine, then an expand_shape: a view wherever
// that collapse is one.  The import took every tosa.reshape of a source
// that is not an identity layout for a copy: here a slice at rows 2..5 of
// %t (offset 128 B, 4x16, contiguous) reshaped to 64 is a view in the
// program, so %t (4096 B) lives as long as %r, where the plan had freed it
// for a 256 B copy: measured 12800 B against 12672 simulated (+1.0 %).
// The 4x8 slice of a 64x16 tensor cannot collapse: a copy (128 B), as
// before.  A reshape to its own shape is dropped by the lowering: a view
// of its source whatever the layout (difftest seed 10001020).
//
// UNSUPPORTED: asan
// RUN: %python %S/../../difftest/difftest.py --case %s --build %autoac_build | FileCheck %s
// CHECK: difftest: {{.*}}: no divergence
// config: {"strategy": "save-all", "budget_spec": null, "budget": null, "rng": "keep"}
func.func @f(%x: tensor<64x16xf32>, %dl: tensor<96xf32> {ac.tangent}) -> (tensor<96xf32> {ac.output}, tensor<64x16xf32> {ac.grad}) attributes {ac.joint} {
  %t = math.tanh %x : tensor<64x16xf32>
  %s = tensor.extract_slice %t[2, 0] [4, 16] [1, 1] : tensor<64x16xf32> to tensor<4x16xf32>
  %c = tosa.const_shape {values = dense<[64]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.reshape %s, %c : (tensor<4x16xf32>, !tosa.shape<1>) -> tensor<64xf32>
  %s2 = tensor.extract_slice %t[0, 0] [4, 8] [1, 1] : tensor<64x16xf32> to tensor<4x8xf32>
  %c2 = tosa.const_shape {values = dense<[32]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r2 = tosa.reshape %s2, %c2 : (tensor<4x8xf32>, !tosa.shape<1>) -> tensor<32xf32>
  %y = tosa.concat %r, %r2 {axis = 0 : i32} : (tensor<64xf32>, tensor<32xf32>) -> tensor<96xf32>
  %g = arith.mulf %dl, %y : tensor<96xf32>
  %gs = tensor.extract_slice %g[0] [64] [1] : tensor<96xf32> to tensor<64xf32>
  %c3 = tosa.const_shape {values = dense<[4, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %g2 = tosa.reshape %gs, %c3 : (tensor<64xf32>, !tosa.shape<2>) -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<64x16xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %gp = tensor.insert_slice %g2 into %f[2, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<64x16xf32>
  return %y, %gp : tensor<96xf32>, tensor<64x16xf32>
}
