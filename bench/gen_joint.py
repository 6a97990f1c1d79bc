#!/usr/bin/python3
"""gen_joint.py - synthetic AOT-autograd joint graphs in autoac's torch-mlir form.

Writes one `func.func` marked `ac.joint` in the generic torch-mlir style of
examples/corpus (tx_l2_d256.mlir, resnet34_b4_112.mlir): `!torch.vtensor`
types, `torch.constant.*` and `torch.prim.ListConstruct` operands, forward
dropout as empty_like/bernoulli_/div/mul, detach pairs (chains of four for
the in-place relus of conv nets) that AOT autograd leaves between the
forward and the backward, multi-result `native_layer_norm` /
`native_batch_norm` / `split.Tensor`, and the backward ops AOT emits for
them (`native_layer_norm_backward`, `_softmax_backward_data`,
`threshold_backward`, `convolution_backward`, transposed mm/bmm pairs,
`sum.dim_IntList` for biases, ...).

  gen_joint.py tx   --depth 12  [--width 256 --heads 4 --batch 4 --seq 128]
  gen_joint.py conv --depth 16  [--width 64 --batch 4 --image 112]
  gen_joint.py linear --depth 25 [--width 64]
  gen_joint.py tx --ops 100000          (pick the depth reaching >= N ops)

`tx` is a post-LN transformer encoder stack (attention, dropout, residuals,
layer norm, ReLU MLP) like tx_l2_d256.mlir; `conv` is a ResNet of basic
blocks (conv, batch norm, relu, residual, strided 1x1 downsampling between
four stages) with the stem and classifier head of resnet34_b4_112.mlir.
`linear` is Checkmate's published test graph (parasj/checkmate,
checkmate/core/graph_builder.py, gen_linear_graph(depth)): 2 depth + 1
nodes of unit compute and unit memory, forward node i reading node i - 1,
backward node 2 depth - i reading node 2 depth - i - 1 and forward node i;
here every node is an mm of two [width, width] tensors (the forward's
second operand a parameter, the first backward node's the tangent), so
compute and bytes are equal across nodes as in Checkmate.
The op count grows linearly with --depth (about 400 ops per transformer
layer, about 130 per basic block, 2 per linear node).  Output goes to -o FILE or stdout.
"""
import argparse
import math
import sys


def vt(shape, dtype="f32"):
    return "!torch.vtensor<[%s],%s>" % (",".join(str(d) for d in shape), dtype)


def strides(shape):
    out, acc = [], 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return list(reversed(out))


class V:
    """An SSA value: its name and type."""

    __slots__ = ("name", "type", "shape")

    def __init__(self, name, type_, shape=None):
        self.name, self.type, self.shape = name, type_, shape


class Emitter:
    def __init__(self):
        self.lines = []
        self.nc = 0  # %cN: constants and lists
        self.nv = 0  # %vN: tensor ops
        self.ops = 0

    # -- constants ---------------------------------------------------------
    def _const(self, line_fmt, type_):
        self.nc += 1
        name = "%%c%d" % self.nc
        self.lines.append("    %s = %s" % (name, line_fmt))
        self.ops += 1
        return V(name, type_)

    def int(self, v):
        return self._const('"torch.constant.int"() {value = %d : i64} : () -> !torch.int' % v,
                           "!torch.int")

    def float(self, v):
        return self._const('"torch.constant.float"() {value = %.17e : f64} : () -> !torch.float' % v,
                           "!torch.float")

    def bool(self, v):
        return self._const('"torch.constant.bool"() {value = %s} : () -> !torch.bool'
                           % ("true" if v else "false"), "!torch.bool")

    def none(self):
        return self._const('"torch.constant.none"() : () -> !torch.none', "!torch.none")

    def _list(self, items, elem_type, list_type):
        self.nc += 1
        name = "%%c%d" % self.nc
        self.lines.append('    %s = "torch.prim.ListConstruct"(%s) : (%s) -> %s' % (
            name, ", ".join(i.name for i in items), ", ".join(i.type for i in items), list_type))
        self.ops += 1
        return V(name, list_type)

    def ints(self, vals):
        return self._list([self.int(v) for v in vals], "!torch.int", "!torch.list<int>")

    def bools(self, vals):
        return self._list([self.bool(v) for v in vals], "!torch.bool", "!torch.list<any>")

    def tensors(self, vals):
        return self._list(vals, None, "!torch.list<vtensor>")

    # -- ops ---------------------------------------------------------------
    def op(self, name, operands, results):
        """results: list of (shape, dtype) or a type string ('!torch.none')."""
        self.nv += 1
        base = "%%v%d" % self.nv
        types = []
        for r in results:
            types.append(r if isinstance(r, str) else vt(*r))
        lhs = base if len(results) == 1 else "%s:%d" % (base, len(results))
        rtypes = types[0] if len(types) == 1 else "(%s)" % ", ".join(types)
        self.lines.append('    %s = "torch.aten.%s"(%s) : (%s) -> %s' % (
            lhs, name, ", ".join(o.name for o in operands),
            ", ".join(o.type for o in operands), rtypes))
        self.ops += 1
        outs = []
        for i, (r, t) in enumerate(zip(results, types)):
            n = base if len(results) == 1 else "%s#%d" % (base, i)
            outs.append(V(n, t, None if isinstance(r, str) else list(r[0])))
        return outs[0] if len(outs) == 1 else outs


def T(shape, dtype="f32"):
    return (tuple(shape), dtype)


class Joint:
    """Arguments, ops and returns of one joint function."""

    def __init__(self, name):
        self.name = name
        self.e = Emitter()
        self.args = []   # (V, attr)
        self.rets = []   # (V, attr)

    def arg(self, shape, attr=None, dtype="f32"):
        v = V("%%arg%d" % len(self.args), vt(shape, dtype), list(shape))
        self.args.append((v, attr))
        return v

    def param(self, shape, dtype="f32"):
        return self.arg(shape, "ac.param", dtype)

    def write(self, out):
        sig = []
        for v, attr in self.args:
            sig.append("%s: %s%s" % (v.name, v.type, " {%s}" % attr if attr else ""))
        rets = ", ".join("%s {%s}" % (v.type, attr) for v, attr in self.rets)
        out.write("module {\n")
        out.write("  func.func @%s(%s) -> (%s) attributes {ac.joint} {\n" % (
            self.name, ", ".join(sig), rets))
        out.write("\n".join(self.e.lines))
        out.write("\n    return %s : %s\n" % (", ".join(v.name for v, _ in self.rets),
                                           ", ".join(v.type for v, _ in self.rets)))
        out.write("  }\n}\n")


# -- helpers shared by both families ------------------------------------------

def dropout(e, x, p=0.1):
    """empty_like x2, bernoulli_, div.Scalar, mul: returns (mask, out)."""
    keep = 1.0 - p
    a = e.op("empty_like", [x, e.none(), e.none(), e.none(), e.none(), e.int(0)], [T(x.shape)])
    b = e.op("empty_like", [a, e.none(), e.none(), e.none(), e.none(), e.int(0)], [T(x.shape)])
    r = e.op("bernoulli_.float", [b, e.float(keep), e.none()], [T(x.shape)])
    m = e.op("div.Scalar", [r, e.float(keep)], [T(x.shape)])
    return m, e.op("mul.Tensor", [x, m], [T(x.shape)])


def detach_chain(e, x, n):
    for _ in range(n):
        x = e.op("detach", [x], [T(x.shape)])
    return x


def t2(e, x):
    return e.op("t", [x], [T([x.shape[1], x.shape[0]])])


def reshape_alias(e, x, shape):
    return e.op("_reshape_alias", [x, e.ints(shape), e.ints(strides(shape))], [T(shape)])


def sum_dims(e, x, dims):
    shape = [1 if i in [d % len(x.shape) for d in dims] else s for i, s in enumerate(x.shape)]
    return e.op("sum.dim_IntList", [x, e.ints(dims), e.bool(True), e.none()], [T(shape)])


def linear_bwd(e, g2d, wT, x2d, want_input=True):
    """Backward of addmm(b, x2d, wT): (grad input, grad weight [out,in], grad bias)."""
    gin = None
    if want_input:
        gin = e.op("mm", [g2d, t2(e, wT)], [T([g2d.shape[0], wT.shape[0]])])
    gT = t2(e, g2d)
    gw = e.op("mm", [gT, x2d], [T([gT.shape[0], x2d.shape[1]])])
    gwT = t2(e, gw)
    gb = sum_dims(e, g2d, [0])
    gb = e.op("view", [gb, e.ints([gb.shape[1]])], [T([gb.shape[1]])])
    return gin, gwT, gb


# -- transformer ----------------------------------------------------------------

def _tx_dims(D, H, B, S):
    return dict(D=D, H=H, B=B, S=S, F=4 * D, N=B * S, dh=D // H, BH=B * H,
                scale=math.sqrt(D // H))


def _tx_fwd_layer(e, h, p, k):
    """One encoder layer's forward on h: what its backward reads (s), and
    its output."""
    D, B, S, F, N, dh, BH, scale = (k[n] for n in ("D", "B", "S", "F", "N", "dh", "BH", "scale"))
    s = {}
    s["x"] = h
    t1 = e.op("transpose.int", [h, e.int(1), e.int(0)], [T([S, B, D])])
    s["wqkvT"] = t2(e, p["wqkv"])
    c = e.op("clone", [t1, e.int(0)], [T([S, B, D])])
    s["x2d"] = e.op("_unsafe_view", [c, e.ints([N, D])], [T([N, D])])
    qkv = e.op("mm", [s["x2d"], s["wqkvT"]], [T([N, 3 * D])])
    qkv = e.op("_unsafe_view", [qkv, e.ints([S, B, 3 * D])], [T([S, B, 3 * D])])
    qkv = e.op("add.Tensor", [qkv, p["bqkv"], e.int(1)], [T([S, B, 3 * D])])
    sp = e.op("split.Tensor", [qkv, e.int(D), e.int(-1)], [T([S, B, D])] * 3)
    heads = []
    for i in range(3):
        ci = e.op("clone", [sp[i], e.int(0)], [T([S, B, D])])
        vi = e.op("view", [ci, e.ints([S, BH, dh])], [T([S, BH, dh])])
        heads.append(e.op("transpose.int", [vi, e.int(0), e.int(1)], [T([BH, S, dh])]))
    s["qs"] = e.op("div.Tensor", [heads[0], e.float(scale)], [T([BH, S, dh])])
    s["kT"] = e.op("transpose.int", [heads[1], e.int(-2), e.int(-1)], [T([BH, dh, S])])
    s["v"] = heads[2]
    sc = e.op("bmm", [s["qs"], s["kT"]], [T([BH, S, S])])
    sm = e.op("_softmax", [sc, e.int(-1), e.bool(False)], [T([BH, S, S])])
    s["smd"] = detach_chain(e, sm, 2)
    s["pmask"], s["pd"] = dropout(e, sm)
    av = e.op("bmm", [s["pd"], s["v"]], [T([BH, S, dh])])
    av = e.op("transpose.int", [av, e.int(0), e.int(1)], [T([S, BH, dh])])
    av = e.op("clone", [av, e.int(0)], [T([S, BH, dh])])
    s["av2d"] = e.op("view", [av, e.ints([N, D])], [T([N, D])])
    s["woT"] = t2(e, p["wo"])
    o = e.op("addmm", [p["bo"], s["av2d"], s["woT"], e.int(1), e.int(1)], [T([N, D])])
    o = e.op("view", [o, e.ints([S, B, D])], [T([S, B, D])])
    o = e.op("transpose.int", [o, e.int(1), e.int(0)], [T([B, S, D])])
    s["amask"], o = dropout(e, o)
    s["r1"] = e.op("add.Tensor", [h, o, e.int(1)], [T([B, S, D])])
    s["ln1"] = e.op("native_layer_norm", [s["r1"], e.ints([D]), p["l1w"], p["l1b"], e.float(1e-5)],
                    [T([B, S, D]), T([B, S, 1]), T([B, S, 1])])
    s["w1T"] = t2(e, p["w1"])
    s["h2d"] = e.op("view", [s["ln1"][0], e.ints([N, D])], [T([N, D])])
    f = e.op("addmm", [p["b1"], s["h2d"], s["w1T"], e.int(1), e.int(1)], [T([N, F])])
    f = e.op("view", [f, e.ints([B, S, F])], [T([B, S, F])])
    f = e.op("relu", [f], [T([B, S, F])])
    s["relud"] = detach_chain(e, f, 2)
    s["hmask"], f = dropout(e, f)
    s["w2T"] = t2(e, p["w2"])
    s["f2d"] = e.op("view", [f, e.ints([N, F])], [T([N, F])])
    o2 = e.op("addmm", [p["b2"], s["f2d"], s["w2T"], e.int(1), e.int(1)], [T([N, D])])
    o2 = e.op("view", [o2, e.ints([B, S, D])], [T([B, S, D])])
    s["omask"], o2 = dropout(e, o2)
    s["r2"] = e.op("add.Tensor", [s["ln1"][0], o2, e.int(1)], [T([B, S, D])])
    s["ln2"] = e.op("native_layer_norm", [s["r2"], e.ints([D]), p["l2w"], p["l2b"], e.float(1e-5)],
                    [T([B, S, D]), T([B, S, 1]), T([B, S, 1])])
    return s, s["ln2"][0]


def _tx_bwd_layer(e, g, p, s, k, l):
    """Layer l's backward from g: the gradient of its input (g itself for
    the first layer, which has none) and its parameters' gradients."""
    D, B, S, F, N, dh, BH, scale = (k[n] for n in ("D", "B", "S", "F", "N", "dh", "BH", "scale"))
    tr = e.bools([True, True, True])
    ln2 = e.op("native_layer_norm_backward",
               [g, s["r2"], e.ints([D]), s["ln2"][1], s["ln2"][2], p["l2w"], p["l2b"], tr],
               [T([B, S, D]), T([D]), T([D])])
    g1 = e.op("mul.Tensor", [ln2[0], s["omask"]], [T([B, S, D])])
    g1 = reshape_alias(e, g1, [N, D])
    gf, gw2T, gb2 = linear_bwd(e, g1, s["w2T"], s["f2d"])
    gf = reshape_alias(e, gf, [B, S, F])
    gw2 = t2(e, gw2T)
    gf = e.op("mul.Tensor", [gf, s["hmask"]], [T([B, S, F])])
    rd = detach_chain(e, s["relud"], 2)
    gf = e.op("threshold_backward", [gf, rd, e.int(0)], [T([B, S, F])])
    gf = reshape_alias(e, gf, [N, F])
    gx, gw1T, gb1 = linear_bwd(e, gf, s["w1T"], s["h2d"])
    gx = reshape_alias(e, gx, [B, S, D])
    gx = e.op("add.Tensor", [ln2[0], gx, e.int(1)], [T([B, S, D])])
    gw1 = t2(e, gw1T)
    ln1 = e.op("native_layer_norm_backward",
               [gx, s["r1"], e.ints([D]), s["ln1"][1], s["ln1"][2], p["l1w"], p["l1b"],
                e.bools([True, True, True])],
               [T([B, S, D]), T([D]), T([D])])
    ga = e.op("mul.Tensor", [ln1[0], s["amask"]], [T([B, S, D])])
    ga = e.op("transpose.int", [ga, e.int(1), e.int(0)], [T([S, B, D])])
    ga = e.op("clone", [ga, e.int(0)], [T([S, B, D])])
    ga = e.op("_unsafe_view", [ga, e.ints([N, D])], [T([N, D])])
    gav, gwoT, gbo = linear_bwd(e, ga, s["woT"], s["av2d"])
    gwo = t2(e, gwoT)
    gav = reshape_alias(e, gav, [S, BH, dh])
    gav = e.op("transpose.int", [gav, e.int(0), e.int(1)], [T([BH, S, dh])])
    pdT = e.op("transpose.int", [s["pd"], e.int(1), e.int(2)], [T([BH, S, S])])
    gv = e.op("bmm", [pdT, gav], [T([BH, S, dh])])
    vT = e.op("transpose.int", [s["v"], e.int(1), e.int(2)], [T([BH, dh, S])])
    gp = e.op("bmm", [gav, vT], [T([BH, S, S])])
    gp = e.op("mul.Tensor", [gp, s["pmask"]], [T([BH, S, S])])
    smd = detach_chain(e, s["smd"], 2)
    gs = e.op("_softmax_backward_data", [gp, smd, e.int(-1), e.int(6)], [T([BH, S, S])])
    qT = e.op("transpose.int", [s["qs"], e.int(1), e.int(2)], [T([BH, dh, S])])
    gkT = e.op("bmm", [qT, gs], [T([BH, dh, S])])
    kTT = e.op("transpose.int", [s["kT"], e.int(1), e.int(2)], [T([BH, S, dh])])
    gq = e.op("bmm", [gs, kTT], [T([BH, S, dh])])
    gk = e.op("transpose.int", [gkT, e.int(1), e.int(2)], [T([BH, S, dh])])
    gq = e.op("div.Tensor", [gq, e.float(scale)], [T([BH, S, dh])])
    gv = e.op("transpose.int", [gv, e.int(0), e.int(1)], [T([S, BH, dh])])
    gv = e.op("clone", [gv, e.int(0)], [T([S, BH, dh])])
    gv = e.op("_unsafe_view", [gv, e.ints([S, B, D])], [T([S, B, D])])
    gk = e.op("transpose.int", [gk, e.int(0), e.int(1)], [T([S, BH, dh])])
    gk = reshape_alias(e, gk, [S, B, D])
    gq = e.op("transpose.int", [gq, e.int(0), e.int(1)], [T([S, BH, dh])])
    gq = e.op("clone", [gq, e.int(0)], [T([S, BH, dh])])
    gq = e.op("_unsafe_view", [gq, e.ints([S, B, D])], [T([S, B, D])])
    gqkv = e.op("cat", [e.tensors([gq, gk, gv]), e.int(-1)], [T([S, B, 3 * D])])
    gbq = sum_dims(e, gqkv, [0, 1])
    gbq = e.op("view", [gbq, e.ints([3 * D])], [T([3 * D])])
    gqkv = reshape_alias(e, gqkv, [N, 3 * D])
    gin, gwqT, _ = linear_bwd(e, gqkv, s["wqkvT"], s["x2d"], want_input=l > 0)
    if gin is not None:
        gin = reshape_alias(e, gin, [S, B, D])
        gin = e.op("transpose.int", [gin, e.int(1), e.int(0)], [T([B, S, D])])
        g = e.op("add.Tensor", [ln1[0], gin, e.int(1)], [T([B, S, D])])
    gwq = t2(e, gwqT)
    return g, [gwq, gbq, gwo, gbo, gw1, gb1, gw2, gb2, ln1[1], ln1[2], ln2[1], ln2[2]]


def gen_tx(depth, D, H, B, S, name):
    j = Joint(name)
    e = j.e
    k = _tx_dims(D, H, B, S)
    F = k["F"]
    x = j.arg([B, S, D])
    P = []
    for _ in range(depth):
        P.append(dict(wqkv=j.param([3 * D, D]), bqkv=j.param([3 * D]),
                      wo=j.param([D, D]), bo=j.param([D]),
                      w1=j.param([F, D]), b1=j.param([F]),
                      w2=j.param([D, F]), b2=j.param([D]),
                      l1w=j.param([D]), l1b=j.param([D]),
                      l2w=j.param([D]), l2b=j.param([D])))
    dy = j.arg([], "ac.tangent")
    saved = []
    h = x
    for l in range(depth):
        s, h = _tx_fwd_layer(e, h, P[l], k)
        saved.append(s)
    loss = e.op("sum", [h, e.none()], [T([])])
    j.rets.append((loss, "ac.output"))
    g = e.op("expand", [dy, e.ints([B, S, D]), e.bool(False)], [T([B, S, D])])
    grads = [None] * depth
    for l in reversed(range(depth)):
        g, grads[l] = _tx_bwd_layer(e, g, P[l], saved[l], k, l)
    for gl in grads:
        for gv_ in gl:
            j.rets.append((gv_, "ac.grad"))
    return j


# -- Checkmate's linear graph ---------------------------------------------------

def gen_linear(n, W, name):
    """Checkmate's gen_linear_graph(n): nodes 0..2n, node i (i >= 1) reads
    node i - 1, node 2n - i reads forward node i (i < n); node 0 reads the
    input.  Every node an mm of [W, W] tensors."""
    j = Joint(name)
    e = j.e
    x = j.arg([W, W])
    P = [j.param([W, W]) for _ in range(n)]
    dy = j.arg([W, W], "ac.tangent")
    fwd = []
    h = x
    for i in range(n):
        h = e.op("mm", [h, P[i]], [T([W, W])])
        fwd.append(h)
    j.rets.append((h, "ac.output"))
    g = e.op("mm", [dy, fwd[n - 1]], [T([W, W])])    # node n
    for k in range(1, n + 1):                         # node n + k
        g = e.op("mm", [g, fwd[n - k]], [T([W, W])])
    j.rets.append((g, "ac.grad"))
    return j


# -- conv net --------------------------------------------------------------------

def conv(e, x, w, stride, pad, out_hw):
    return e.op("convolution", [x, w, e.none(), e.ints([stride, stride]), e.ints([pad, pad]),
                                e.ints([1, 1]), e.bool(False), e.ints([0, 0]), e.int(1)],
                [T([x.shape[0], w.shape[0], out_hw, out_hw])])


def batch_norm(e, x, bn):
    C = x.shape[1]
    return e.op("native_batch_norm", [x, bn["w"], bn["b"], bn["rm"], bn["rv"], e.bool(True),
                                      e.float(0.1), e.float(1e-5)],
                [T(x.shape), T([C]), T([C])])


def batch_norm_bwd(e, g, x, bn, out):
    return e.op("native_batch_norm_backward",
                [g, x, bn["w"], bn["rm"], bn["rv"], out[1], out[2], e.bool(True), e.float(1e-5),
                 e.bools([True, True, True])],
                [T(x.shape), T([x.shape[1]]), T([x.shape[1]])])


def conv_bwd(e, g, x, w, stride, pad, want_input=True):
    return e.op("convolution_backward",
                [g, x, w, e.ints([0]), e.ints([stride, stride]), e.ints([pad, pad]), e.ints([1, 1]),
                 e.bool(False), e.ints([0, 0]), e.int(1), e.bools([want_input, True, False])],
                [T(x.shape) if want_input else "!torch.none", T(w.shape)])


def gen_conv(depth, W, B, R, name):
    j = Joint(name)
    e = j.e
    x = j.arg([B, 3, R, R])
    bns = []

    def bn(C):
        d = dict(w=j.param([C]), b=j.param([C]), C=C)
        bns.append(d)
        return d

    stem_w = j.param([W, 3, 7, 7])
    stem_bn = bn(W)
    per = [depth // 4 + (1 if i < depth % 4 else 0) for i in range(4)]
    blocks = []
    C, hw = W, (R + 1) // 2
    hw = (hw + 1) // 2  # after the max pool
    for stage in range(4):
        for i in range(per[stage]):
            stride = 2 if stage > 0 and i == 0 else 1
            Cout = W << stage
            ohw = (hw + 2 - 3) // stride + 1
            blk = dict(stride=stride, cin=C, cout=Cout, hw=hw, ohw=ohw,
                       w1=j.param([Cout, C, 3, 3]), bn1=bn(Cout),
                       w2=j.param([Cout, Cout, 3, 3]), bn2=bn(Cout))
            if stride != 1 or C != Cout:
                blk["wd"] = j.param([Cout, C, 1, 1])
                blk["bnd"] = bn(Cout)
            blocks.append(blk)
            C, hw = Cout, ohw
    fc_w = j.param([1000, C])
    fc_b = j.param([1000])
    for d in bns:  # running statistics: buffers, as AOT passes them
        d["rm"] = j.param([d["C"]])
        d["rv"] = j.param([d["C"]])
        j.param([], "si64")
    dy = j.arg([], "ac.tangent")
    grads = []

    s_hw = (R + 1) // 2
    c0 = conv(e, x, stem_w, 2, 3, s_hw)
    b0 = batch_norm(e, c0, stem_bn)
    r0 = e.op("relu", [b0[0]], [T(b0[0].shape)])
    mp = e.op("max_pool2d_with_indices", [r0, e.ints([3, 3]), e.ints([2, 2]), e.ints([1, 1]),
                                         e.ints([1, 1]), e.bool(False)],
              [T([B, W, (s_hw + 1) // 2, (s_hw + 1) // 2]),
               T([B, W, (s_hw + 1) // 2, (s_hw + 1) // 2], "si64")])
    h = mp[0]
    for blk in blocks:
        blk["x"] = h
        blk["c1"] = conv(e, h, blk["w1"], blk["stride"], 1, blk["ohw"])
        blk["b1"] = batch_norm(e, blk["c1"], blk["bn1"])
        blk["r1"] = e.op("relu", [blk["b1"][0]], [T(blk["b1"][0].shape)])
        blk["c2"] = conv(e, blk["r1"], blk["w2"], 1, 1, blk["ohw"])
        blk["b2"] = batch_norm(e, blk["c2"], blk["bn2"])
        sc = h
        if "wd" in blk:
            blk["cd"] = conv(e, h, blk["wd"], blk["stride"], 0, blk["ohw"])
            blk["bd"] = batch_norm(e, blk["cd"], blk["bnd"])
            sc = blk["bd"][0]
        a = e.op("add.Tensor", [blk["b2"][0], sc, e.int(1)], [T(sc.shape)])
        blk["out"] = e.op("relu", [a], [T(a.shape)])
        h = blk["out"]
    pooled = e.op("mean.dim", [h, e.ints([-1, -2]), e.bool(True), e.none()], [T([B, C, 1, 1])])
    p2d = reshape_alias(e, pooled, [B, C])
    fcT = t2(e, fc_w)
    logits = e.op("addmm", [fc_b, p2d, fcT, e.int(1), e.int(1)], [T([B, 1000])])
    loss = e.op("sum", [logits, e.none()], [T([])])
    j.rets.append((loss, "ac.output"))
    g = e.op("expand", [dy, e.ints([B, 1000]), e.bool(False)], [T([B, 1000])])
    gp, gfT, gfb = linear_bwd(e, g, fcT, p2d)
    grads += [t2(e, gfT), gfb]
    gp = reshape_alias(e, gp, [B, C, 1, 1])
    gp = e.op("expand", [gp, e.ints([B, C, hw, hw]), e.bool(False)], [T([B, C, hw, hw])])
    g = e.op("div.Scalar", [gp, e.int(hw * hw)], [T([B, C, hw, hw])])
    for blk in reversed(blocks):
        d = detach_chain(e, blk["out"], 4)
        ga = e.op("threshold_backward", [g, d, e.int(0)], [T(g.shape)])
        bb2 = batch_norm_bwd(e, ga, blk["c2"], blk["bn2"], blk["b2"])
        cb2 = conv_bwd(e, bb2[0], blk["r1"], blk["w2"], 1, 1)
        d1 = detach_chain(e, blk["r1"], 4)
        g1 = e.op("threshold_backward", [cb2[0], d1, e.int(0)], [T(cb2[0].shape)])
        bb1 = batch_norm_bwd(e, g1, blk["c1"], blk["bn1"], blk["b1"])
        cb1 = conv_bwd(e, bb1[0], blk["x"], blk["w1"], blk["stride"], 1)
        gsc = ga
        if "wd" in blk:
            bbd = batch_norm_bwd(e, ga, blk["cd"], blk["bnd"], blk["bd"])
            cbd = conv_bwd(e, bbd[0], blk["x"], blk["wd"], blk["stride"], 0)
            gsc = cbd[0]
            grads += [cbd[1], bbd[1], bbd[2]]
        g = e.op("add.Tensor", [gsc, cb1[0], e.int(1)], [T(gsc.shape)])
        grads += [cb2[1], bb2[1], bb2[2], cb1[1], bb1[1], bb1[2]]
    g = e.op("max_pool2d_with_indices_backward",
             [g, r0, e.ints([3, 3]), e.ints([2, 2]), e.ints([1, 1]), e.ints([1, 1]), e.bool(False),
              mp[1]], [T(r0.shape)])
    d0 = detach_chain(e, r0, 4)
    g = e.op("threshold_backward", [g, d0, e.int(0)], [T(g.shape)])
    bb0 = batch_norm_bwd(e, g, c0, stem_bn, b0)
    cb0 = conv_bwd(e, bb0[0], x, stem_w, 2, 3, want_input=False)
    grads += [cb0[1], bb0[1], bb0[2]]
    for gv_ in grads:
        j.rets.append((gv_, "ac.grad"))
    return j


def build(kind, depth, a):
    if kind == "linear":
        return gen_linear(depth, a.width, a.name or "checkmate_linear_%d" % depth)
    if kind == "tx":
        name = a.name or "tx_l%d_d%d" % (depth, a.width)
        return gen_tx(depth, a.width, a.heads, a.batch, a.seq, name)
    name = a.name or "resnet_b%d_w%d_%d" % (depth, a.width, a.image)
    return gen_conv(depth, a.width, a.batch, a.image, name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=["tx", "conv", "linear"])
    ap.add_argument("--depth", type=int, default=None,
                    help="transformer layers / residual basic blocks")
    ap.add_argument("--ops", type=int, default=None,
                    help="pick the smallest depth with at least this many ops")
    ap.add_argument("--width", type=int, default=None,
                    help="model width (tx, default 256) or base channels (conv, default 64)")
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--image", type=int, default=112)
    ap.add_argument("--name", default=None, help="function name")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    if a.width is None:
        a.width = {"tx": 256, "conv": 64, "linear": 64}[a.kind]
    if a.kind == "tx" and a.width % a.heads:
        ap.error("--width must be a multiple of --heads")
    depth = a.depth
    if a.ops is not None:
        # Ops grow linearly in depth (from 4 on, the conv net's downsampling
        # blocks are all there): extrapolate from depths 4 and 8, then step.
        n4, n8 = build(a.kind, 4, a).e.ops, build(a.kind, 8, a).e.ops
        per = max(1, (n8 - n4) // 4)
        depth = max(1, 4 + (a.ops - n4 + per - 1) // per)
        ops = build(a.kind, depth, a).e.ops
        while ops < a.ops:
            depth += 1
            ops = build(a.kind, depth, a).e.ops
        while depth > 1:
            prev = build(a.kind, depth - 1, a).e.ops
            if prev < a.ops:
                break
            depth -= 1
    if depth is None:
        ap.error("give --depth or --ops")
    j = build(a.kind, depth, a)
    if a.output == "-":
        j.write(sys.stdout)
    else:
        with open(a.output, "w") as f:
            j.write(f)
    sys.stderr.write("%s: depth %d, %d ops\n" % (j.name, depth, j.e.ops))


if __name__ == "__main__":
    main()
