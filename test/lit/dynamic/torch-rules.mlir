// Tie rules on torch ops with literal arguments: native_layer_norm (its
// statistics keep the leading dims), embedding (the indices' dims, then
// the table's width), cat (every dim but the concatenated one),
// sum.dim_IntList (the kept dims), permute, unsqueeze, select.int, and an
// elementwise mul.Tensor tying the tangent to x.  Four symbols, each named
// after its first argument dimension; nothing else needs a bound.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ac-opt %s --ac-report=%t/r.json -o %t/out.mlir
// RUN: %python %inputs/jq.py %t/r.json symbols peak_formula | FileCheck %s
// CHECK: symbols = [{"args":["arg0.0","arg3.0"],"bound":2,"name":"arg0.0"},{"args":["arg0.1","arg3.1"],"bound":5,"name":"arg0.1"},{"args":["arg1.0"],"bound":3,"name":"arg1.0"},{"args":["arg1.1"],"bound":4,"name":"arg1.1"}]
// At the peak, per (arg0.0, arg0.1) position: x, dy, the normalized x and
// y 32 B each, the cat 64, the mean 4 and the sum 4 = 200 (the views are
// 0 B, rstd and the embedding are dead); the ids 8 B (si64) per
// (arg1.0, arg1.1); static: the table 10 x 8 x 4 = 320.
// CHECK: peak_formula = "8*arg1.0*arg1.1 + 200*arg0.0*arg0.1 + 320"
func.func @f(%x: !torch.vtensor<[?,?,8],f32> {ac.max_shape = array<i64: 2, 5, -1>},
             %ids: !torch.vtensor<[?,?],si64> {ac.max_shape = array<i64: 3, 4>},
             %emb: !torch.vtensor<[10,8],f32> {ac.param},
             %dy: !torch.vtensor<[?,?,8],f32> {ac.tangent})
    -> (!torch.vtensor<[?,?,8],f32> {ac.output}, !torch.vtensor<[?,?,16],f32>, !torch.vtensor<[?,?,1],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,8,?],f32>, !torch.vtensor<[?,1,?,8],f32>, !torch.vtensor<[?,8],f32>) attributes {ac.joint} {
  %int0 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %int1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  %int2 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
  %intm1 = "torch.constant.int"() {value = -1 : i64} : () -> !torch.int
  %true = "torch.constant.bool"() {value = true} : () -> !torch.bool
  %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %none = "torch.constant.none"() : () -> !torch.none
  %eps = "torch.constant.float"() {value = 1.0e-5 : f64} : () -> !torch.float
  %l8 = "torch.prim.ListConstruct"(%int2) : (!torch.int) -> !torch.list<int>
  %ln:3 = "torch.aten.native_layer_norm"(%x, %l8, %none, %none, %eps) : (!torch.vtensor<[?,?,8],f32>, !torch.list<int>, !torch.none, !torch.none, !torch.float) -> (!torch.vtensor<[?,?,8],f32>, !torch.vtensor<[?,?,1],f32>, !torch.vtensor<[?,?,1],f32>)
  %e = "torch.aten.embedding"(%emb, %ids, %intm1, %false, %false) : (!torch.vtensor<[10,8],f32>, !torch.vtensor<[?,?],si64>, !torch.int, !torch.bool, !torch.bool) -> !torch.vtensor<[?,?,8],f32>
  %lc = "torch.prim.ListConstruct"(%ln#0, %ln#0) : (!torch.vtensor<[?,?,8],f32>, !torch.vtensor<[?,?,8],f32>) -> !torch.list<vtensor>
  %c = "torch.aten.cat"(%lc, %int2) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[?,?,16],f32>
  %ld = "torch.prim.ListConstruct"(%intm1) : (!torch.int) -> !torch.list<int>
  %s = "torch.aten.sum.dim_IntList"(%x, %ld, %false, %none) : (!torch.vtensor<[?,?,8],f32>, !torch.list<int>, !torch.bool, !torch.none) -> !torch.vtensor<[?,?],f32>
  %lp = "torch.prim.ListConstruct"(%int0, %int2, %int1) : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %p = "torch.aten.permute"(%x, %lp) : (!torch.vtensor<[?,?,8],f32>, !torch.list<int>) -> !torch.vtensor<[?,8,?],f32>
  %u = "torch.aten.unsqueeze"(%x, %int1) : (!torch.vtensor<[?,?,8],f32>, !torch.int) -> !torch.vtensor<[?,1,?,8],f32>
  %sel = "torch.aten.select.int"(%x, %int1, %int0) : (!torch.vtensor<[?,?,8],f32>, !torch.int, !torch.int) -> !torch.vtensor<[?,8],f32>
  %y = "torch.aten.mul.Tensor"(%ln#0, %dy) : (!torch.vtensor<[?,?,8],f32>, !torch.vtensor<[?,?,8],f32>) -> !torch.vtensor<[?,?,8],f32>
  return %y, %c, %ln#1, %s, %p, %u, %sel : !torch.vtensor<[?,?,8],f32>, !torch.vtensor<[?,?,16],f32>, !torch.vtensor<[?,?,1],f32>, !torch.vtensor<[?,?],f32>, !torch.vtensor<[?,8,?],f32>, !torch.vtensor<[?,1,?,8],f32>, !torch.vtensor<[?,8],f32>
}
