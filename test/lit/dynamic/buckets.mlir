// Size buckets (docs/contract.md, "Size buckets"): one plan per bucket of
// the sequence length arg0.1, each made with arg0.1 bounded by its bucket's
// upper size, and @attn a dispatch on tensor.dim %x, 1.  The block is
// test/lit/fidelity/dynamic-attention.mlir's: x is batch arg0.0 (bound 4)
// x sequence arg0.1 (bound 16) x 16; static 6144 B (three 16x16 weights
// and their gradients).
//
// UNSUPPORTED: asan
// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: ac-opt %s --ac-buckets=arg0.1:4,8,16 --ac-budget=40000 --ac-report=r.json -o out.mlir
// RUN: FileCheck %s < out.mlir
//
// The dispatch: the bucket index (the first k with arg0.1 <= its upper
// size, the last bucket above) and one case per bucket calling its step,
// which calls its forward/backward pair; the saved values stay inside the
// step.
// CHECK-LABEL: func.func @attn(
// CHECK-NOT: ac.joint
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[D:.*]] = tensor.dim %arg0, %[[C1]] : tensor<?x?x16xf32>
// CHECK: %[[LAST:.*]] = arith.constant 2 : index
// CHECK: %[[U1:.*]] = arith.constant 8 : index
// CHECK: %[[LE1:.*]] = arith.cmpi ule, %[[D]], %[[U1]] : index
// CHECK: %[[S1:.*]] = arith.select %[[LE1]], %{{.*}}, %[[LAST]] : index
// CHECK: %[[U0:.*]] = arith.constant 4 : index
// CHECK: %[[LE0:.*]] = arith.cmpi ule, %[[D]], %[[U0]] : index
// CHECK: %[[S0:.*]] = arith.select %[[LE0]], %{{.*}}, %[[S1]] : index
// CHECK: %[[R:.*]]:4 = scf.index_switch %[[S0]] -> tensor<?x?x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
// CHECK-NEXT: case 0 {
// CHECK-NEXT: %[[B0:.*]]:4 = func.call @attn_b0(%arg0, %arg1, %arg2, %arg3, %arg4) {no_inline}
// CHECK-NEXT: scf.yield %[[B0]]#0, %[[B0]]#1, %[[B0]]#2, %[[B0]]#3
// CHECK: case 1 {
// CHECK-NEXT: %[[B1:.*]]:4 = func.call @attn_b1(%arg0, %arg1, %arg2, %arg3, %arg4) {no_inline}
// CHECK: default {
// CHECK-NEXT: %[[B2:.*]]:4 = func.call @attn_b2(%arg0, %arg1, %arg2, %arg3, %arg4) {no_inline}
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#3
// Each step: the pair, as the split makes it for @attn; the bucket's bound
// is on its arguments.
// CHECK-LABEL: func.func @attn_b0(%arg0: tensor<?x?x16xf32> {ac.max_shape = array<i64: 4, 4, -1>}
// CHECK-SAME: ac.bucket = 0
// CHECK: call @attn_b0_fwd(
// CHECK: call @attn_b0_bwd(
// CHECK-LABEL: func.func @attn_b0_fwd(
// CHECK-SAME: ac.bucket = 0 : i64, ac.fwd_of = "attn"
// CHECK-LABEL: func.func @attn_b0_bwd(
// CHECK-SAME: ac.bucket = 0 : i64, ac.bwd_of = "attn"
// CHECK-LABEL: func.func @attn_b1(%arg0: tensor<?x?x16xf32> {ac.max_shape = array<i64: 4, 8, -1>}
// CHECK: call @attn_b1_fwd(
// CHECK: call @attn_b1_bwd(
// CHECK-LABEL: func.func @attn_b1_fwd(
// CHECK-LABEL: func.func @attn_b1_bwd(
// CHECK-LABEL: func.func @attn_b2(%arg0: tensor<?x?x16xf32> {ac.max_shape = array<i64: 4, 16, -1>}
// CHECK: call @attn_b2_fwd(
// CHECK: call @attn_b2_bwd(
// CHECK-LABEL: func.func @attn_b2_fwd(
// CHECK-LABEL: func.func @attn_b2_bwd(
// Only the last bucket recomputes a matmul (the projection %2, 4*16*16*2
// FLOPs per row: 32768 at 4 x 16).
// CHECK: linalg.generic
// CHECK: } {ac.recompute}
//
// The report: the last bucket's plan is the one made at the bound (as
// without buckets); each bucket's peak is at its upper size.
// RUN: %python %inputs/jq.py r.json feasible peak_bytes '#buckets' buckets.0.lower buckets.0.upper buckets.1.lower buckets.1.upper buckets.2.lower buckets.2.upper buckets.0.function buckets.0.forward buckets.0.backward | FileCheck %s --check-prefix=REP
// REP: feasible = true
// REP: peak_bytes = 38912
// REP: #buckets = 3
// REP: buckets.0.lower = 1
// REP: buckets.0.upper = 4
// REP: buckets.1.lower = 5
// REP: buckets.1.upper = 8
// REP: buckets.2.lower = 9
// REP: buckets.2.upper = 16
// REP: buckets.0.function = "attn_b0"
// REP: buckets.0.forward = "attn_b0_fwd"
// REP: buckets.0.backward = "attn_b0_bwd"
// Budget 40000 B: buckets 0 and 1 save everything (recompute 0 FLOPs), the
// last recomputes 32768 FLOPs to meet it at 4 x 16.
//   bucket 0 at 4 x 4: 8*4*16 + 448*4*4 + 6144 = 13824
//   bucket 1 at 4 x 8: 8*4*64 + 448*4*8 + 6144 = 22528
//   bucket 2 at 4 x 16: 8*4*256 + 384*4*16 + 6144 = 38912
// RUN: %python %inputs/jq.py r.json buckets.0.peak_bytes buckets.0.recompute_flops buckets.0.feasible buckets.1.peak_bytes buckets.1.recompute_flops buckets.2.peak_bytes buckets.2.recompute_flops buckets.2.feasible buckets.2.peak_formula | FileCheck %s --check-prefix=PEAKS
// PEAKS: buckets.0.peak_bytes = 13824
// PEAKS: buckets.0.recompute_flops = 0.0
// PEAKS: buckets.0.feasible = true
// PEAKS: buckets.1.peak_bytes = 22528
// PEAKS: buckets.1.recompute_flops = 0.0
// PEAKS: buckets.2.peak_bytes = 38912
// PEAKS: buckets.2.recompute_flops = 32768.0
// PEAKS: buckets.2.feasible = true
// PEAKS: buckets.2.peak_formula = "8*arg0.0*arg0.1^2 + 384*arg0.0*arg0.1 + 6144"
// The summary: one line per bucket.
// RUN: ac-opt %s --ac-buckets=arg0.1:4,8,16 --ac-budget=40000 --ac-summary -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUM
// SUM: bucket 0: arg0.1 1..4 (@attn_b0): peak 13.50 KiB at 4, saved 5 values (4.25 KiB), recomputed 5 ops, 0 FLOPs
// SUM-NEXT: bucket 1: arg0.1 5..8 (@attn_b1): peak 22.00 KiB at 8, saved 5 values (9.00 KiB), recomputed 5 ops, 0 FLOPs
// SUM-NEXT: bucket 2: arg0.1 9..16 (@attn_b2): peak 38.00 KiB at 16, saved 4 values (16.00 KiB), recomputed 8 ops, 3.28e+04 FLOPs
//
// Checked by execution: lowered with auto-ac-lower-cpu and run at a size
// in every bucket (ac-measure --dims), the dispatch runs that bucket's
// plan: results equal the unplanned program's, and the measured peak
// equals the bucket plan's simulated peak there (the maximum of its
// peak_pieces at that size; exact, as for one plan: the dispatch itself
// allocates nothing), within the budget.
//   4 x 3, bucket 0: 8*4*9 + 448*12 + 6144 = 11808 (> 12*36 + 384*12 + 6144 = 11184)
//   3 x 7, bucket 1: 8*3*49 + 448*21 + 6144 = 16728
//   2 x 12, bucket 2: 4*2*144 + 448*24 + 6144 = 18048 (the third piece)
//   4 x 16, bucket 2: 38912
// RUN: %python %inputs/../../tools/ac-measure %s --budget=40000 --bytes --max-error=0 --buckets=arg0.1:4,8,16 --dims=arg0.0=4,arg0.1=3 | FileCheck %s --check-prefix=E0
// E0: bucket 0: arg0.1 1 to 4, @attn_b0, peak at 4: 13824
// E0: planned   greedy @ 40000 11808 11808 +0.00%
// E0: results equal: yes
// E0: planned within budget: yes
// RUN: %python %inputs/../../tools/ac-measure %s --budget=40000 --bytes --max-error=0 --buckets=arg0.1:4,8,16 --dims=arg0.0=3,arg0.1=7 | FileCheck %s --check-prefix=E1
// E1: bucket 1: arg0.1 5 to 8, @attn_b1, peak at 8: 22528
// E1: planned   greedy @ 40000 16728 16728 +0.00%
// E1: results equal: yes
// E1: planned within budget: yes
// RUN: %python %inputs/../../tools/ac-measure %s --budget=40000 --bytes --max-error=0 --buckets=arg0.1:4,8,16 --dims=arg0.0=2,arg0.1=12 | FileCheck %s --check-prefix=E2
// E2: bucket 2: arg0.1 9 to 16, @attn_b2, peak at 16: 38912
// E2: planned   greedy @ 40000 18048 18048 +0.00%
// E2: results equal: yes
// E2: planned within budget: yes
// RUN: %python %inputs/../../tools/ac-measure %s --budget=40000 --bytes --max-error=0 --buckets=arg0.1:4,8,16 --no-original | FileCheck %s --check-prefix=EB
// EB: sizes: arg0.0=4, arg0.1=16
// EB: planned   greedy @ 40000 38912 38912 +0.00%
// EB: planned within budget: yes
// The GPU lowering (auto-ac-lower-gpu, device buffers counted by the
// runtime stub, kernels not run) through the dispatch, at 2 x 6 (bucket 1):
// 8*2*36 + 448*12 + 6144 = 12096.
// RUN: %python %inputs/../../tools/ac-measure %s --target=gpu --no-original --budget=40000 --bytes --max-error=0 --buckets=arg0.1:4,8,16 --dims=arg0.0=2,arg0.1=6 | FileCheck %s --check-prefix=GPU
// GPU: bucket 1: arg0.1 5 to 8, @attn_b1
// GPU: planned   greedy @ 40000 12096 12096 +0.00%
// GPU: planned within budget: yes
//
// A bigger budget saves more in every bucket: at 12000 B (below every
// bucket's floor: each warns and applies its lowest peak) against 50000 B
// (save-all fits everywhere: 43008 at 4 x 16).
// RUN: ac-opt %s --ac-buckets=arg0.1:4,8,16 --ac-budget=12000 --ac-report=lo.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOW
// LOW: warning: autoac: bucket 0 of arg0.1 (sizes 1 to 4): the budget is not met at size 4 (peak 13568 bytes); its best plan is applied
// LOW: warning: autoac: bucket 1 of arg0.1 (sizes 5 to 8): the budget is not met at size 8 (peak 21504 bytes)
// LOW: warning: autoac: bucket 2 of arg0.1 (sizes 9 to 16): the budget is not met at size 16 (peak 38912 bytes)
// RUN: ac-opt %s --ac-buckets=arg0.1:4,8,16 --ac-budget=50000 --ac-report=hi.json -o /dev/null
// RUN: %python %inputs/jq.py lo.json feasible buckets.0.saved_bytes buckets.1.saved_bytes buckets.2.saved_bytes | FileCheck %s --check-prefix=LOWJ
// LOWJ: feasible = false
// LOWJ: buckets.0.saved_bytes = 3328
// LOWJ: buckets.1.saved_bytes = 7168
// LOWJ: buckets.2.saved_bytes = 16384
// RUN: %python %inputs/jq.py hi.json feasible buckets.0.saved_bytes buckets.1.saved_bytes buckets.2.saved_bytes | FileCheck %s --check-prefix=HIJ
// HIJ: feasible = true
// HIJ: buckets.0.saved_bytes = 4352
// HIJ: buckets.1.saved_bytes = 9216
// HIJ: buckets.2.saved_bytes = 20480
//
// Bounds below the dimension's own: one more bucket up to it (9 to 16).
// RUN: ac-opt %s --ac-buckets=arg0.1:4,8 --ac-budget=40000 --ac-report=imp.json -o imp.mlir
// RUN: %python %inputs/jq.py imp.json '#buckets' buckets.2.lower buckets.2.upper buckets.2.peak_bytes | FileCheck %s --check-prefix=IMP
// IMP: #buckets = 3
// IMP: buckets.2.lower = 9
// IMP: buckets.2.upper = 16
// IMP: buckets.2.peak_bytes = 38912
// RUN: FileCheck %s --check-prefix=IMPOUT < imp.mlir
// IMPOUT: scf.index_switch
// IMPOUT: default {
// IMPOUT-NEXT: func.call @attn_b2(
// One bucket: the dispatch has only its default region.
// RUN: ac-opt %s --ac-buckets=arg0.1:16 -o one.mlir
// RUN: FileCheck %s --check-prefix=ONE < one.mlir
// ONE: scf.index_switch %{{.*}} -> tensor<?x?x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
// ONE-NEXT: default {
// ONE-NEXT: func.call @attn_b0(
func.func @attn(%x: tensor<?x?x16xf32> {ac.max_shape = array<i64: 4, 16, -1>}, %wq: tensor<16x16xf32> {ac.param}, %wk: tensor<16x16xf32> {ac.param}, %wv: tensor<16x16xf32> {ac.param}, %dy: tensor<?x?x16xf32> {ac.tangent}) -> (tensor<?x?x16xf32> {ac.output}, tensor<16x16xf32> {ac.grad}, tensor<16x16xf32> {ac.grad}, tensor<16x16xf32> {ac.grad}) attributes {ac.joint} {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %x, %c0 : tensor<?x?x16xf32>
  %sq = tensor.dim %x, %c1 : tensor<?x?x16xf32>
  %q_z_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %q_z = linalg.fill ins(%zero : f32) outs(%q_z_e : tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wq : tensor<?x?x16xf32>, tensor<16x16xf32>) outs(%q_z : tensor<?x?x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x16xf32>
  %k_z_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %k_z = linalg.fill ins(%zero : f32) outs(%k_z_e : tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wk : tensor<?x?x16xf32>, tensor<16x16xf32>) outs(%k_z : tensor<?x?x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x16xf32>
  %v_z_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %v_z = linalg.fill ins(%zero : f32) outs(%v_z_e : tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %v = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wv : tensor<?x?x16xf32>, tensor<16x16xf32>) outs(%v_z : tensor<?x?x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x16xf32>
  %sc_z_e = tensor.empty(%b, %sq, %sq) : tensor<?x?x?xf32>
  %sc_z = linalg.fill ins(%zero : f32) outs(%sc_z_e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<?x?x16xf32>, tensor<?x?x16xf32>) outs(%sc_z : tensor<?x?x?xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x?xf32>
  %p_e = tensor.empty(%b, %sq, %sq) : tensor<?x?x?xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sc : tensor<?x?x?xf32>) outs(%p_e : tensor<?x?x?xf32>) {
  ^bb0(%a0: f32, %ob: f32):
    %k8 = arith.constant 0.125 : f32
    %t = arith.mulf %a0, %k8 : f32
    %e = math.exp %t : f32
    linalg.yield %e : f32
  } -> tensor<?x?x?xf32>
  %o_z_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %o_z = linalg.fill ins(%zero : f32) outs(%o_z_e : tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<?x?x?xf32>, tensor<?x?x16xf32>) outs(%o_z : tensor<?x?x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x16xf32>
  %y_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<?x?x16xf32>) outs(%y_e : tensor<?x?x16xf32>) {
  ^bb0(%a0: f32, %ob: f32):
    %t = math.tanh %a0 : f32
    linalg.yield %t : f32
  } -> tensor<?x?x16xf32>
  %go_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %go = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%dy, %y : tensor<?x?x16xf32>, tensor<?x?x16xf32>) outs(%go_e : tensor<?x?x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %ob: f32):
    %t2 = arith.mulf %a1, %a1 : f32
    %one = arith.constant 1.0 : f32
    %d = arith.subf %one, %t2 : f32
    %r = arith.mulf %a0, %d : f32
    linalg.yield %r : f32
  } -> tensor<?x?x16xf32>
  %gp_z_e = tensor.empty(%b, %sq, %sq) : tensor<?x?x?xf32>
  %gp_z = linalg.fill ins(%zero : f32) outs(%gp_z_e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %gp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%go, %v : tensor<?x?x16xf32>, tensor<?x?x16xf32>) outs(%gp_z : tensor<?x?x?xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x?xf32>
  %gv_z_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %gv_z = linalg.fill ins(%zero : f32) outs(%gv_z_e : tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %gv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %go : tensor<?x?x?xf32>, tensor<?x?x16xf32>) outs(%gv_z : tensor<?x?x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x16xf32>
  %gs_e = tensor.empty(%b, %sq, %sq) : tensor<?x?x?xf32>
  %gs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%gp, %p : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%gs_e : tensor<?x?x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %ob: f32):
    %m = arith.mulf %a0, %a1 : f32
    %k8 = arith.constant 0.125 : f32
    %r = arith.mulf %m, %k8 : f32
    linalg.yield %r : f32
  } -> tensor<?x?x?xf32>
  %gq_z_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %gq_z = linalg.fill ins(%zero : f32) outs(%gq_z_e : tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %gq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%gs, %k : tensor<?x?x?xf32>, tensor<?x?x16xf32>) outs(%gq_z : tensor<?x?x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x16xf32>
  %gk_z_e = tensor.empty(%b, %sq) : tensor<?x?x16xf32>
  %gk_z = linalg.fill ins(%zero : f32) outs(%gk_z_e : tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %gk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%gs, %q : tensor<?x?x?xf32>, tensor<?x?x16xf32>) outs(%gk_z : tensor<?x?x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x?x16xf32>
  %gwq_z_e = tensor.empty() : tensor<16x16xf32>
  %gwq_z = linalg.fill ins(%zero : f32) outs(%gwq_z_e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %gwq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %gq : tensor<?x?x16xf32>, tensor<?x?x16xf32>) outs(%gwq_z : tensor<16x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %gwk_z_e = tensor.empty() : tensor<16x16xf32>
  %gwk_z = linalg.fill ins(%zero : f32) outs(%gwk_z_e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %gwk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %gk : tensor<?x?x16xf32>, tensor<?x?x16xf32>) outs(%gwk_z : tensor<16x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %gwv_z_e = tensor.empty() : tensor<16x16xf32>
  %gwv_z = linalg.fill ins(%zero : f32) outs(%gwv_z_e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %gwv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3, d0)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x, %gv : tensor<?x?x16xf32>, tensor<?x?x16xf32>) outs(%gwv_z : tensor<16x16xf32>) {
  ^bb0(%xa: f32, %ya: f32, %acc: f32):
    %m = arith.mulf %xa, %ya : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  return %y, %gwq, %gwk, %gwv : tensor<?x?x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}
