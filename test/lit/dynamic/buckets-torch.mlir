// Size buckets on torch-mlir input (docs/contract.md, "Size buckets"): the
// graph of torch.mlir (one symbol, arg0.0, bound 8; peak 448 B per row of
// arg0.0 + 4096 B static), three buckets.  The dispatch reads the size with
// torch's own ops (torch.aten.size.int, torch_c.to_i64), then selects the
// bucket as for builtin tensors; each bucket's plan is made at its upper
// size.  torch-mlir IR is not run here (the CPU pipeline lowers builtin
// tensors only): the structure and each bucket's plan are checked.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %S/torch.mlir --ac-buckets=arg0.0:2,4,8 --ac-budget=6000 --ac-report=%t/r.json -o %t/out.mlir 2>/dev/null
// RUN: FileCheck %s < %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json buckets.0.upper buckets.0.peak_bytes buckets.0.feasible buckets.1.upper buckets.1.peak_bytes buckets.1.feasible buckets.2.upper buckets.2.peak_bytes buckets.2.feasible feasible | FileCheck %s --check-prefix=REP
//
// CHECK-LABEL: func.func @f(
// CHECK:         %[[D:.*]] = "torch.constant.int"() {value = 0 : i64}
// CHECK-NEXT:    %[[N:.*]] = "torch.aten.size.int"(%arg0, %[[D]])
// CHECK-NEXT:    %[[I:.*]] = "torch_c.to_i64"(%[[N]]) : (!torch.int) -> i64
// CHECK-NEXT:    %[[S:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK:         scf.index_switch
// CHECK:         func.call @f_b0(
// CHECK:         func.call @f_b1(
// CHECK:         func.call @f_b2(
// CHECK-DAG:   func.func @f_b0_fwd(
// CHECK-DAG:   func.func @f_b1_bwd(
// CHECK-DAG:   func.func @f_b2_fwd(
//
// 448 * 2 + 4096 = 4992; 448 * 4 + 4096 = 5888; 448 * 8 + 4096 = 7680,
// above the 6000 B budget (nothing left to drop): that bucket misses it,
// and so the whole plan is not feasible.
// REP: buckets.0.upper = 2
// REP: buckets.0.peak_bytes = 4992
// REP: buckets.0.feasible = true
// REP: buckets.1.upper = 4
// REP: buckets.1.peak_bytes = 5888
// REP: buckets.1.feasible = true
// REP: buckets.2.upper = 8
// REP: buckets.2.peak_bytes = 7680
// REP: buckets.2.feasible = false
// REP: feasible = false
