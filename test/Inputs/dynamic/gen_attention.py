# gen_attention.py: prints test/lit/fidelity/dynamic-attention.mlir's function, an
# attention-like block with dynamic batch (B) and sequence (S), hidden 16.
D = 16
L = []
def emit(s): L.append("  " + s)
T3 = "tensor<?x?x%dxf32>" % D
TS = "tensor<?x?x?xf32>"
TW = "tensor<%dx%dxf32>" % (D, D)
maps_cnt = [0]
def empty(name, ty, dyn):
    emit("%%%s = tensor.empty(%s) : %s" % (name, ", ".join(dyn), ty))
def zeros(name, ty, dyn):
    empty(name + "_e", ty, dyn)
    emit("%%%s = linalg.fill ins(%%zero : f32) outs(%%%s_e : %s) -> %s" % (name, name, ty, ty))
def contract(name, a, ta, b, tb, ty, dyn, maps, iters):
    zeros(name + "_z", ty, dyn)
    emit("%%%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%%%s, %%%s : %s, %s) outs(%%%s_z : %s) {" % (
        name, ", ".join(maps), ", ".join('"%s"' % i for i in iters), a, b, ta, tb, name, ty))
    emit("^bb0(%xa: f32, %ya: f32, %acc: f32):")
    emit("  %m = arith.mulf %xa, %ya : f32")
    emit("  %s = arith.addf %acc, %m : f32")
    emit("  linalg.yield %s : f32")
    emit("} -> %s" % ty)
def ew(name, ins, ty, dyn, body, rank=3):
    empty(name + "_e", ty, dyn)
    idm = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
    emit("%%%s = linalg.generic {indexing_maps = [%s], iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} ins(%s : %s) outs(%%%s_e : %s) {" % (
        name, ", ".join([idm] * (len(ins) + 1)), ", ".join("%" + i for i in ins), ", ".join([ty] * len(ins)), name, ty))
    emit("^bb0(%s, %%ob: f32):" % ", ".join("%%a%d: f32" % i for i in range(len(ins))))
    for ln in body:
        emit("  " + ln)
    emit("} -> %s" % ty)
M4 = lambda r: "affine_map<(d0, d1, d2, d3) -> (%s)>" % r
proj_maps = [M4("d0, d1, d3"), M4("d3, d2"), M4("d0, d1, d2")]
proj_it = ["parallel", "parallel", "parallel", "reduction"]
L.append("func.func @attn(%%x: %s {ac.max_shape = array<i64: 4, 16, -1>}, %%wq: %s {ac.param}, %%wk: %s {ac.param}, %%wv: %s {ac.param}, %%dy: %s {ac.tangent}) -> (%s {ac.output}, %s {ac.grad}, %s {ac.grad}, %s {ac.grad}) attributes {ac.joint} {" % (T3, TW, TW, TW, T3, T3, TW, TW, TW))
emit("%zero = arith.constant 0.0 : f32")
emit("%c0 = arith.constant 0 : index")
emit("%c1 = arith.constant 1 : index")
emit("%b = tensor.dim %x, %c0 : " + T3)
emit("%sq = tensor.dim %x, %c1 : " + T3)
BS = ["%b", "%sq"]
BSS = ["%b", "%sq", "%sq"]
for n, w in (("q", "wq"), ("k", "wk"), ("v", "wv")):
    contract(n, "x", T3, w, TW, T3, BS, proj_maps, proj_it)
# scores s(b,i,j) = sum_d q(b,i,d) k(b,j,d)
contract("sc", "q", T3, "k", T3, TS, BSS, [M4("d0, d1, d3"), M4("d0, d2, d3"), M4("d0, d1, d2")], proj_it)
ew("p", ["sc"], TS, BSS, ["%k8 = arith.constant 0.125 : f32", "%t = arith.mulf %a0, %k8 : f32", "%e = math.exp %t : f32", "linalg.yield %e : f32"])
# o(b,i,d) = sum_j p(b,i,j) v(b,j,d)   loops (b,i,d,j)
contract("o", "p", TS, "v", T3, T3, BS, [M4("d0, d1, d3"), M4("d0, d3, d2"), M4("d0, d1, d2")], proj_it)
ew("y", ["o"], T3, BS, ["%t = math.tanh %a0 : f32", "linalg.yield %t : f32"])
# backward
ew("go", ["dy", "y"], T3, BS, ["%t2 = arith.mulf %a1, %a1 : f32", "%one = arith.constant 1.0 : f32", "%d = arith.subf %one, %t2 : f32", "%r = arith.mulf %a0, %d : f32", "linalg.yield %r : f32"])
# gp(b,i,j) = sum_d go(b,i,d) v(b,j,d)
contract("gp", "go", T3, "v", T3, TS, BSS, [M4("d0, d1, d3"), M4("d0, d2, d3"), M4("d0, d1, d2")], proj_it)
# gv(b,j,d) = sum_i p(b,i,j) go(b,i,d)   loops (b,j,d,i)
contract("gv", "p", TS, "go", T3, T3, BS, [M4("d0, d3, d1"), M4("d0, d3, d2"), M4("d0, d1, d2")], proj_it)
ew("gs", ["gp", "p"], TS, BSS, ["%m = arith.mulf %a0, %a1 : f32", "%k8 = arith.constant 0.125 : f32", "%r = arith.mulf %m, %k8 : f32", "linalg.yield %r : f32"])
# gq(b,i,d) = sum_j gs(b,i,j) k(b,j,d)
contract("gq", "gs", TS, "k", T3, T3, BS, [M4("d0, d1, d3"), M4("d0, d3, d2"), M4("d0, d1, d2")], proj_it)
# gk(b,j,d) = sum_i gs(b,i,j) q(b,i,d)
contract("gk", "gs", TS, "q", T3, T3, BS, [M4("d0, d3, d1"), M4("d0, d3, d2"), M4("d0, d1, d2")], proj_it)
# gw(e,d) = sum_{b,s} x(b,s,e) g(b,s,d)   loops (e,d,b,s)
wmaps = [M4("d2, d3, d0"), M4("d2, d3, d1"), M4("d0, d1")]
for n, g in (("gwq", "gq"), ("gwk", "gk"), ("gwv", "gv")):
    contract(n, "x", T3, g, T3, TW, [], wmaps, ["parallel", "parallel", "reduction", "reduction"])
emit("return %%y, %%gwq, %%gwk, %%gwv : %s, %s, %s, %s" % (T3, TW, TW, TW))
L.append("}")
print("\n".join(L))
