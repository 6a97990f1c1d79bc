func.func @step(%x: !torch.vtensor<[256,256],f32>, %w: !torch.vtensor<[256,256],f32> {ac.param}, %dy: !torch.vtensor<[],f32> {ac.tangent}) -> (!torch.vtensor<[],f32> {ac.output}, !torch.vtensor<[256,256],f32> {ac.grad}) attributes {ac.joint} {
  %h = "torch.aten.mm"(%x, %w) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %a = "torch.aten.relu"(%h) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %none = "torch.constant.none"() : () -> !torch.none
  %s = "torch.aten.sum"(%a, %none) : (!torch.vtensor<[256,256],f32>, !torch.none) -> !torch.vtensor<[],f32>
  %i = "torch.constant.int"() {value = 256 : i64} : () -> !torch.int
  %l = "torch.prim.ListConstruct"(%i, %i) : (!torch.int, !torch.int) -> !torch.list<int>
  %f = "torch.constant.bool"() {value = false} : () -> !torch.bool
  %g = "torch.aten.expand"(%dy, %l, %f) : (!torch.vtensor<[],f32>, !torch.list<int>, !torch.bool) -> !torch.vtensor<[256,256],f32>
  %z = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
  %ga = "torch.aten.threshold_backward"(%g, %a, %z) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>, !torch.int) -> !torch.vtensor<[256,256],f32>
  %xt = "torch.aten.t"(%x) : (!torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  %gw = "torch.aten.mm"(%xt, %ga) : (!torch.vtensor<[256,256],f32>, !torch.vtensor<[256,256],f32>) -> !torch.vtensor<[256,256],f32>
  return %s, %gw : !torch.vtensor<[],f32>, !torch.vtensor<[256,256],f32>
}
