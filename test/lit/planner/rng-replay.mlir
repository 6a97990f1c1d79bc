// --ac-rng=replay (docs/contract.md, "Randomness"): implicit random draws
// become a seed draw (never recomputed, 8 bytes) and an autoac.rng generator
// of the seed (recomputable); random ops without a replayable form are kept
// and named.  The default, keep, changes nothing.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-rng=replay --ac-mode=annotate -o %t/a.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t/a.mlir
// RUN: ac-opt %s --ac-mode=annotate -o %t/keep.mlir 2>&1 | FileCheck %s --check-prefix=KEEPWARN --allow-empty
// RUN: FileCheck %s --check-prefix=KEEP < %t/keep.mlir
// RUN: ac-opt %s --ac-rng=replay --ac-budget=1 -o %t/s.mlir --ac-report=%t/r.json 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=SPLIT < %t/s.mlir
// Run twice: the second run finds the seeds already drawn and adds none.
// RUN: ac-opt %t/a.mlir --ac-rng=replay --ac-mode=annotate -o %t/a2.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: grep -c torch.aten.randint.low %t/a2.mlir | FileCheck %s --check-prefix=SEEDS
// RUN: grep -c '"stablehlo.rng"' %t/a2.mlir | FileCheck %s --check-prefix=HLOSEEDS
// RUN: not ac-opt %s --ac-rng=sometimes -o %t/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t/bad.mlir

// WARN-DAG: warning: autoac: rng=replay keeps 1 'torch.aten.bernoulli.p' op (an explicit generator operand): never recomputed, its result saved
// WARN-DAG: warning: autoac: rng=replay keeps 2 'torch.aten.multinomial' ops (no replayable form is known for it): never recomputed, their results saved
// WARN-DAG: warning: autoac: rng=replay keeps 1 'torch.aten.bernoulli_.float' op (it writes in place into a tensor that other ops read): never recomputed, its result saved
// KEEPWARN-NOT: rng=replay
// BAD: error: bad value for option 'rng': 'sometimes' (accepted: keep, replay)
// Four torch seeds (bern, nd, the two draws of noise) and one StableHLO
// seed, as after the first run.
// SEEDS: 4
// HLOSEEDS: 1

// The dropout idiom: bernoulli_ into a fresh empty_like.  The empty_like and
// the constants only it read are gone; the generator keeps p.
// CHECK-LABEL: func.func @bern(
// CHECK-NOT:     torch.aten.empty_like
// CHECK-NOT:     bernoulli_
// CHECK:         %[[P:.*]] = "torch.constant.float"() {{{.*}}value = 9.000000e-01 : f64}
// CHECK:         %[[SEED:.*]] = "torch.aten.randint.low"({{.*}}) {{.*}}: (!torch.int, !torch.int, !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[1],si64>
// CHECK:         %[[M:.*]] = "autoac.rng.bernoulli"(%[[SEED]], %[[P]]) {{.*}}: (!torch.vtensor<[1],si64>, !torch.float) -> !torch.vtensor<[64,256],f32>
// CHECK:         "torch.aten.mul.Tensor"(%arg0, %[[M]])
// CHECK-NOT:     torch.aten.empty_like
// CHECK:         return
// KEEP-LABEL: func.func @bern(
// KEEP:         torch.aten.empty_like
// KEEP:         "torch.aten.bernoulli_.float"
// KEEP-NOT:     autoac.rng
func.func @bern(%x: !torch.vtensor<[64,256],f32>, %dy: !torch.vtensor<[64,256],f32> {ac.tangent}) -> (!torch.vtensor<[64,256],f32> {ac.output}, !torch.vtensor<[64,256],f32> {ac.grad}) attributes {ac.joint} {
  %p = "torch.constant.float"() {value = 0.9 : f64} : () -> !torch.float
  %n = "torch.constant.none"() : () -> !torch.none
  %i = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %e = "torch.aten.empty_like"(%x, %n, %n, %n, %n, %i) : (!torch.vtensor<[64,256],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.int) -> !torch.vtensor<[64,256],f32>
  %m = "torch.aten.bernoulli_.float"(%e, %p, %n) : (!torch.vtensor<[64,256],f32>, !torch.float, !torch.none) -> !torch.vtensor<[64,256],f32>
  %y = "torch.aten.mul.Tensor"(%x, %m) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  %a = "torch.aten.mul.Tensor"(%dy, %x) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  %b = "torch.aten.mul.Tensor"(%a, %a) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  %g = "torch.aten.mul.Tensor"(%b, %m) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  return %y, %g : !torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>
}

// Under a budget the backward regenerates the mask from the saved seed:
// @bern_fwd hands @bern_bwd the 8-byte seed, not the 64 KiB mask (saving
// it would hold 64 KiB more at the backward's peak, where x, y, dy, a and b
// are live: 5 x 64 KiB).
// SPLIT-LABEL: func.func @bern_fwd(
// SPLIT-SAME:    -> (!torch.vtensor<[64,256],f32> {ac.output}, !torch.vtensor<[1],si64>) attributes
// SPLIT-LABEL: func.func @bern_bwd(
// SPLIT-SAME:    %[[S:[a-z0-9]*]]: !torch.vtensor<[1],si64>
// SPLIT:         scf.execute_region
// SPLIT:           "autoac.rng.bernoulli"(%[[S]],
// SPLIT:         } {ac.recompute}

// native_dropout: (output, mask) from one generator of (seed, input, p, train).
// CHECK-LABEL: func.func @nd(
// CHECK:         %[[SEED:.*]] = "torch.aten.randint.low"
// CHECK:         %{{.*}}:2 = "autoac.rng.dropout"(%[[SEED]], %arg0, %{{.*}}, %{{.*}}) {{.*}}: (!torch.vtensor<[1],si64>, !torch.vtensor<[8,16],f32>, !torch.float, !torch.bool) -> (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],i1>)
func.func @nd(%x: !torch.vtensor<[8,16],f32>, %dy: !torch.vtensor<[8,16],f32> {ac.tangent}) -> (!torch.vtensor<[8,16],f32> {ac.output}, !torch.vtensor<[8,16],f32> {ac.grad}) attributes {ac.joint} {
  %p = "torch.constant.float"() {value = 0.1 : f64} : () -> !torch.float
  %t = "torch.constant.bool"() {value = true} : () -> !torch.bool
  %s = "torch.constant.float"() {value = 1.1 : f64} : () -> !torch.float
  %o:2 = "torch.aten.native_dropout"(%x, %p, %t) : (!torch.vtensor<[8,16],f32>, !torch.float, !torch.bool) -> (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],i1>)
  %g = "torch.aten.native_dropout_backward"(%dy, %o#1, %s) : (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],i1>, !torch.float) -> !torch.vtensor<[8,16],f32>
  return %o#0, %g : !torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>
}

// randn_like -> normal, rand -> uniform: the generator takes only the seed.
// CHECK-LABEL: func.func @noise(
// CHECK:         "autoac.rng.normal"(%{{.*}}) {{.*}}: (!torch.vtensor<[1],si64>) -> !torch.vtensor<[8,16],f32>
// CHECK:         "autoac.rng.uniform"(%{{.*}}) {{.*}}: (!torch.vtensor<[1],si64>) -> !torch.vtensor<[8,16],f32>
// CHECK-NOT:     torch.aten.randn_like
// CHECK-NOT:     "torch.aten.rand"(
func.func @noise(%x: !torch.vtensor<[8,16],f32>, %dy: !torch.vtensor<[8,16],f32> {ac.tangent}) -> (!torch.vtensor<[8,16],f32> {ac.output}, !torch.vtensor<[8,16],f32> {ac.grad}) attributes {ac.joint} {
  %n = "torch.constant.none"() : () -> !torch.none
  %c8 = "torch.constant.int"() {value = 8 : i64} : () -> !torch.int
  %c16 = "torch.constant.int"() {value = 16 : i64} : () -> !torch.int
  %l = "torch.prim.ListConstruct"(%c8, %c16) : (!torch.int, !torch.int) -> !torch.list<int>
  %r = "torch.aten.randn_like"(%x, %n, %n, %n, %n, %n) : (!torch.vtensor<[8,16],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[8,16],f32>
  %u = "torch.aten.rand"(%l, %n, %n, %n, %n) : (!torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[8,16],f32>
  %a = "torch.aten.mul.Tensor"(%x, %r) : (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>) -> !torch.vtensor<[8,16],f32>
  %y = "torch.aten.mul.Tensor"(%a, %u) : (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>) -> !torch.vtensor<[8,16],f32>
  %g1 = "torch.aten.mul.Tensor"(%dy, %u) : (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>) -> !torch.vtensor<[8,16],f32>
  %g = "torch.aten.mul.Tensor"(%g1, %r) : (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>) -> !torch.vtensor<[8,16],f32>
  return %y, %g : !torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>
}

// StableHLO: the seed is a stablehlo.rng of one ui64; a NORMAL draw becomes
// autoac.rng.normal(seed, mu, sigma).
// CHECK-LABEL: func.func @hlo(
// CHECK:         %[[SEED:.*]] = "stablehlo.rng"(%{{.*}}, %{{.*}}, %{{.*}}) {{{.*}}rng_distribution = #stablehlo<rng_distribution UNIFORM>} : (tensor<ui64>, tensor<ui64>, tensor<1xi64>) -> tensor<1xui64>
// CHECK:         "autoac.rng.normal"(%[[SEED]], %{{.*}}, %{{.*}}) {{.*}}: (tensor<1xui64>, tensor<f32>, tensor<f32>) -> tensor<8x16xf32>
func.func @hlo(%x: tensor<8x16xf32>, %dy: tensor<8x16xf32> {ac.tangent}) -> (tensor<8x16xf32> {ac.output}, tensor<8x16xf32> {ac.grad}) attributes {ac.joint} {
  %mu = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %sd = "stablehlo.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %sh = "stablehlo.constant"() {value = dense<[8, 16]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "stablehlo.rng"(%mu, %sd, %sh) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<8x16xf32>
  %y = "stablehlo.multiply"(%x, %r) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = "stablehlo.multiply"(%dy, %r) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y, %g : tensor<8x16xf32>, tensor<8x16xf32>
}

// Kept: an explicit generator, ops with no replayable form, an in-place
// draw into a tensor another op reads.
// CHECK-LABEL: func.func @kept(
// CHECK:         "torch.aten.bernoulli.p"
// CHECK:         "torch.aten.multinomial"
// CHECK:         "torch.aten.multinomial"
// CHECK:         "torch.aten.bernoulli_.float"
// CHECK-NOT:     autoac.rng
// CHECK:         return
func.func @kept(%x: !torch.vtensor<[8,16],f32>, %gen: !torch.Generator, %dy: !torch.vtensor<[8,16],f32> {ac.tangent}) -> (!torch.vtensor<[8,16],f32> {ac.output}, !torch.vtensor<[8,16],f32> {ac.grad}) attributes {ac.joint} {
  %p = "torch.constant.float"() {value = 0.5 : f64} : () -> !torch.float
  %k = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %f = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %n = "torch.constant.none"() : () -> !torch.none
  %b = "torch.aten.bernoulli.p"(%x, %p, %gen) : (!torch.vtensor<[8,16],f32>, !torch.float, !torch.Generator) -> !torch.vtensor<[8,16],f32>
  %m1 = "torch.aten.multinomial"(%x, %k, %f, %n) : (!torch.vtensor<[8,16],f32>, !torch.int, !torch.bool, !torch.none) -> !torch.vtensor<[8,2],si64>
  %m2 = "torch.aten.multinomial"(%x, %k, %f, %n) : (!torch.vtensor<[8,16],f32>, !torch.int, !torch.bool, !torch.none) -> !torch.vtensor<[8,2],si64>
  %c = "torch.aten.bernoulli_.float"(%x, %p, %n) : (!torch.vtensor<[8,16],f32>, !torch.float, !torch.none) -> !torch.vtensor<[8,16],f32>
  %y = "torch.aten.mul.Tensor"(%b, %c) : (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>) -> !torch.vtensor<[8,16],f32>
  %g = "torch.aten.mul.Tensor"(%dy, %b) : (!torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>) -> !torch.vtensor<[8,16],f32>
  return %y, %g : !torch.vtensor<[8,16],f32>, !torch.vtensor<[8,16],f32>
}
