#!/usr/bin/python3
"""Generates the fidelity suite: joint forward+backward functions in
linalg on tensors, with the real backward math, at sizes where activations
matter (docs/fidelity.md).

    gen.py mlp [--layers 8 --width 1024 --batch 256] > mlp.mlir
    gen.py transformer [--blocks 2 --seq 512 --dim 128 --heads 4 --ffn 256 --batch 1]
    gen.py conv [--layers 3 --batch 8 --size 34 --cin 16 --ch 32]
    gen.py all DIR        writes the suite files (and the small ones) to DIR

Every op writes a fresh `tensor.empty` (contractions and reductions a
`linalg.fill` of it), the style torch-mlir's linalg lowering produces.  The
functions take no @main: tools/ac-measure adds the harness.
"""
import argparse
import os
import re
import sys


class Emitter:
    """Builds one func body: SSA names, shapes, linalg ops from einsum-like
    specs."""

    def __init__(self, dtype="f32"):
        self.lines = []
        self.n = 0
        self.shape = {}          # ssa name -> tuple of dims
        self.dtype = dtype
        self.consts = {}

    def fresh(self, hint="v"):
        self.n += 1
        return "%%%s%d" % (hint, self.n)

    def ty(self, shape):
        if not shape:
            return "tensor<%s>" % self.dtype
        return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), self.dtype)

    def emit(self, line):
        self.lines.append("    " + line)

    def const(self, value):
        if value in self.consts:
            return self.consts[value]
        name = self.fresh("c")
        lit = value if isinstance(value, str) else "%.9e" % float(value)
        self.emit("%s = arith.constant %s : %s" % (name, lit, self.dtype))
        self.consts[value] = name
        return name

    def empty(self, shape):
        e = self.fresh("e")
        self.emit("%s = tensor.empty() : %s" % (e, self.ty(shape)))
        self.shape[e] = tuple(shape)
        return e

    def filled(self, shape, value):
        e = self.empty(shape)
        c = self.const(value)
        f = self.fresh("z")
        self.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (
            f, c, self.dtype, e, self.ty(shape), self.ty(shape)))
        self.shape[f] = tuple(shape)
        return f

    # --- specs: "bic,cn->bin"; a dim may be a parenthesised affine
    # expression of loop letters: "n(i+p)(j+q)c".
    @staticmethod
    def dims(s):
        out, i = [], 0
        while i < len(s):
            if s[i] == "(":
                j = s.index(")", i)
                out.append(s[i + 1:j])
                i = j + 1
            else:
                out.append(s[i])
                i += 1
        return out

    def parse(self, spec):
        lhs, rhs = spec.split("->")
        ins = [self.dims(x) for x in lhs.split(",")] if lhs else []
        return ins, self.dims(rhs)

    def sizes(self, ins_dims, operands, extra=None):
        size = dict(extra or {})
        for dims, v in zip(ins_dims, operands):
            for d, n in zip(dims, self.shape[v]):
                if len(d) == 1:
                    if d in size and size[d] != n:
                        raise ValueError("size mismatch for %s" % d)
                    size[d] = n
        return size

    @staticmethod
    def amap(loops, dims):
        names = {l: "d%d" % i for i, l in enumerate(loops)}
        res = []
        for d in dims:
            res.append(re.sub(r"[a-z]", lambda m: names[m.group(0)], d))
        return "affine_map<(%s) -> (%s)>" % (
            ", ".join(names[l] for l in loops), ", ".join(res))

    def generic(self, spec, operands, body, loops=None, init=None,
                reduce=False, extra=None):
        """One linalg.generic.  body(args, acc) -> list of lines and the
        yielded scalar, args the scalar block args of the inputs, acc that
        of the init.  Loops default to output letters then the others in
        order of appearance.  init: None (fresh tensor.empty), a number (a
        fill of it), or an SSA tensor."""
        ins_dims, out_dims = self.parse(spec)
        size = self.sizes(ins_dims, operands, extra)
        letters = []
        for dims in [out_dims] + ins_dims:
            for d in dims:
                for ch in re.findall(r"[a-z]", d):
                    if ch not in letters:
                        letters.append(ch)
        if loops is None:
            loops = [l for l in letters if l in out_dims] + \
                    [l for l in letters if l not in out_dims]
        else:
            loops = list(loops)
        oshape = tuple(size[d] for d in out_dims)
        if init is None:
            outv = self.empty(oshape)
        elif isinstance(init, str) and init.startswith("%"):
            outv = init
        else:
            outv = self.filled(oshape, init)
        maps = [self.amap(loops, d) for d in ins_dims] + [self.amap(loops, out_dims)]
        iters = ", ".join('"parallel"' if l in out_dims else '"reduction"'
                          for l in loops)
        r = self.fresh("t")
        ins_part = ""
        if operands:
            ins_part = " ins(%s : %s)" % (", ".join(operands), ", ".join(
                self.ty(self.shape[v]) for v in operands))
        self.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]}%s outs(%s : %s) {" % (
            r, ", ".join(maps), iters, ins_part, outv, self.ty(oshape)))
        args = ["%%a%d" % i for i in range(len(operands))]
        self.emit("^bb0(%s):" % ", ".join(
            ["%s: %s" % (a, self.dtype) for a in args] + ["%%o: %s" % self.dtype]))
        blines, y = body(args, "%o")
        for bl in blines:
            self.emit("  " + bl)
        self.emit("  linalg.yield %s : %s" % (y, self.dtype))
        self.emit("} -> %s" % self.ty(oshape))
        self.shape[r] = oshape
        return r

    # --- common bodies
    def einsum(self, spec, a, b, loops=None, scale=None, extra=None):
        """out = sum over the other letters of a*b (*scale)."""
        t = self.dtype
        sc = self.const(scale) if scale is not None else None

        def body(args, acc):
            ls = ["%%p = arith.mulf %s, %s : %s" % (args[0], args[1], t)]
            y = "%p"
            if sc:
                ls.append("%%q = arith.mulf %%p, %s : %s" % (sc, t))
                y = "%q"
            ls.append("%%s = arith.addf %s, %s : %s" % (acc, y, t))
            return ls, "%s"
        return self.generic(spec, [a, b], body, loops=loops, init=0.0,
                            extra=extra)

    def ew(self, spec, operands, fn):
        """Elementwise: fn(args) -> (lines, result)."""
        return self.generic(spec, operands, lambda a, o: fn(a))

    def relu(self, spec, x):
        z = self.const(0.0)
        return self.ew(spec, [x], lambda a: (
            ["%%r = arith.maximumf %s, %s : %s" % (a[0], z, self.dtype)], "%r"))

    def relu_grad(self, spec, g, h):
        """select(h > 0, g, 0); spec "x,x->x" over (g, h)."""
        z = self.const(0.0)
        return self.ew(spec, [g, h], lambda a: ([
            "%%c = arith.cmpf ogt, %s, %s : %s" % (a[1], z, self.dtype),
            "%%r = arith.select %%c, %s, %s : %s" % (a[0], z, self.dtype)], "%r"))

    def binop(self, spec, x, y, op):
        return self.ew(spec, [x, y], lambda a: (
            ["%%r = arith.%s %s, %s : %s" % (op, a[0], a[1], self.dtype)], "%r"))

    def sumsq(self, spec, x):
        t = self.dtype
        return self.generic(spec, [x], lambda a, acc: ([
            "%%m = arith.mulf %s, %s : %s" % (a[0], a[0], t),
            "%%s = arith.addf %s, %%m : %s" % (acc, t)], "%s"), init=0.0)

    def rowsum(self, spec, x, scale=None):
        t = self.dtype
        sc = self.const(scale) if scale is not None else None

        def body(a, acc):
            if sc:
                return ["%%m = arith.mulf %s, %s : %s" % (a[0], sc, t),
                        "%%s = arith.addf %s, %%m : %s" % (acc, t)], "%s"
            return ["%%s = arith.addf %s, %s : %s" % (acc, a[0], t)], "%s"
        return self.generic(spec, [x], body, init=0.0)

    def dloss(self, spec, out, dy):
        """2 * dy * out, dy a scalar tensor."""
        two = self.const(2.0)
        return self.ew(spec, [out, dy], lambda a: ([
            "%%m = arith.mulf %s, %s : %s" % (a[0], two, self.dtype),
            "%%r = arith.mulf %%m, %s : %s" % (a[1], self.dtype)], "%r"))


def function(name, args, results, body_lines, ret):
    """args: [(name, type, attr or None)], results: [(type, attr)]."""
    def a(x):
        return "%s: %s%s" % (x[0], x[1], " {%s}" % x[2] if x[2] else "")
    out = ["func.func @%s(%s)" % (name, ",\n    ".join(a(x) for x in args))]
    out.append("    -> (%s)" % ", ".join(
        "%s {%s}" % (t, at) if at else t for t, at in results))
    out.append("    attributes {ac.joint} {")
    out += body_lines
    out.append("    return %s : %s" % (", ".join(ret), ", ".join(t for t, _ in results)))
    out.append("}")
    return "\n".join(out) + "\n"


def header(what):
    return ("// Generated by test/Inputs/fidelity/gen.py %s; do not edit.\n"
            "// A joint forward+backward function for tools/ac-measure "
            "(docs/fidelity.md).\n" % what)


# ---------------------------------------------------------------------------
def mlp(layers=8, width=1024, batch=256):
    E = Emitter()
    B, W, L = batch, width, layers
    x = "%x"
    E.shape[x] = (B, W)
    ws = ["%%w%d" % (l + 1) for l in range(L)]
    for w in ws:
        E.shape[w] = (W, W)
    dy = "%dy"
    E.shape[dy] = ()
    E.emit("// ---- forward")
    a, hs, acts = x, [], [x]
    for l in range(L):
        # h = a W: loops (b, k, n), n innermost.
        h = E.einsum("bk,kn->bn", a, ws[l], loops="bkn")
        hs.append(h)
        if l < L - 1:
            a = E.relu("bn->bn", h)
            acts.append(a)
    loss = E.sumsq("bn->", hs[-1])
    E.emit("// ---- backward")
    dh = E.dloss("bn,->bn", hs[-1], dy)
    grads = [None] * L
    for l in reversed(range(L)):
        grads[l] = E.einsum("bk,bn->kn", acts[l], dh, loops="bkn")
        if l > 0:
            da = E.einsum("bn,kn->bk", dh, ws[l], loops="bkn")
            dh = E.relu_grad("bk,bk->bk", da, hs[l - 1])
    args = [(x, E.ty((B, W)), None)] + [(w, E.ty((W, W)), "ac.param") for w in ws] + \
           [(dy, E.ty(()), "ac.tangent")]
    res = [(E.ty(()), "ac.output")] + [(E.ty((W, W)), "ac.grad")] * L
    return header("mlp --layers %d --width %d --batch %d" % (L, W, B)) + \
        function("mlp", args, res, E.lines, [loss] + grads)


# ---------------------------------------------------------------------------
def layernorm_fwd(E, x, g, b, eps=1e-5):
    """Rows of x [B,S,D]; returns (y, xh, rstd)."""
    t = E.dtype
    D = E.shape[x][2]
    mu = E.rowsum("bic->bi", x, scale=1.0 / D)
    xc = E.binop("bic,bi->bic", x, mu, "subf")
    var = E.sumsq("bic->bi", xc)
    epsc, invd = E.const(eps), E.const(1.0 / D)
    rstd = E.ew("bi->bi", [var], lambda a: ([
        "%%m = arith.mulf %s, %s : %s" % (a[0], invd, t),
        "%%e = arith.addf %%m, %s : %s" % (epsc, t),
        "%%r = math.rsqrt %%e : %s" % t], "%r"))
    xh = E.binop("bic,bi->bic", xc, rstd, "mulf")
    y = E.ew("bic,c,c->bic", [xh, g, b], lambda a: ([
        "%%m = arith.mulf %s, %s : %s" % (a[0], a[1], t),
        "%%r = arith.addf %%m, %s : %s" % (a[2], t)], "%r"))
    return y, xh, rstd


def layernorm_bwd(E, dy, xh, rstd, g):
    """Returns (dx, dg, db)."""
    t = E.dtype
    D = E.shape[xh][2]
    dg = E.einsum("bic,bic->c", dy, xh)
    db = E.rowsum("bic->c", dy)
    dxh = E.binop("bic,c->bic", dy, g, "mulf")
    m1 = E.rowsum("bic->bi", dxh, scale=1.0 / D)
    m2 = E.einsum("bic,bic->bi", dxh, xh, scale=1.0 / D)
    dx = E.ew("bic,bi,bic,bi,bi->bic", [dxh, m1, xh, m2, rstd], lambda a: ([
        "%%u = arith.subf %s, %s : %s" % (a[0], a[1], t),
        "%%v = arith.mulf %s, %s : %s" % (a[2], a[3], t),
        "%%w = arith.subf %%u, %%v : %s" % t,
        "%%r = arith.mulf %%w, %s : %s" % (a[4], t)], "%r"))
    return dx, dg, db


def transformer(blocks=2, seq=512, dim=128, heads=4, ffn=256, batch=1):
    E = Emitter()
    t = E.dtype
    B, S, D, H, F = batch, seq, dim, heads, ffn
    Eh = D // H
    scale = 1.0 / (Eh ** 0.5)
    x = "%x"
    E.shape[x] = (B, S, D)
    dy = "%dy"
    E.shape[dy] = ()
    params = []

    def param(name, shape):
        E.shape[name] = shape
        params.append((name, shape))
        return name

    P = []
    for k in range(blocks):
        P.append(dict(
            g1=param("%%ln1g_%d" % k, (D,)), b1=param("%%ln1b_%d" % k, (D,)),
            wq=param("%%wq_%d" % k, (D, D)), wk=param("%%wk_%d" % k, (D, D)),
            wv=param("%%wv_%d" % k, (D, D)), wo=param("%%wo_%d" % k, (D, D)),
            g2=param("%%ln2g_%d" % k, (D,)), b2=param("%%ln2b_%d" % k, (D,)),
            w1=param("%%w1_%d" % k, (D, F)), w2=param("%%w2_%d" % k, (F, D))))

    def expand(v):
        r = E.fresh("x")
        E.emit("%s = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [%d, %d, %d, %d] : %s into %s" % (
            r, v, B, S, H, Eh, E.ty((B, S, D)), E.ty((B, S, H, Eh))))
        E.shape[r] = (B, S, H, Eh)
        return r

    def collapse(v):
        r = E.fresh("x")
        E.emit("%s = tensor.collapse_shape %s [[0], [1], [2, 3]] : %s into %s" % (
            r, v, E.ty((B, S, H, Eh)), E.ty((B, S, D))))
        E.shape[r] = (B, S, D)
        return r

    E.emit("// ---- forward")
    saved = []
    h = x
    ninf = "0xFF800000"
    for k in range(blocks):
        p = P[k]
        c = {}
        c["in"] = h
        y, c["xh1"], c["rstd1"] = layernorm_fwd(E, h, p["g1"], p["b1"])
        c["y"] = y
        q = E.einsum("bic,cn->bin", y, p["wq"], loops="bicn")
        kk = E.einsum("bic,cn->bin", y, p["wk"], loops="bicn")
        v = E.einsum("bic,cn->bin", y, p["wv"], loops="bicn")
        c["q4"], c["k4"], c["v4"] = expand(q), expand(kk), expand(v)
        s = E.einsum("bihe,bjhe->bhij", c["q4"], c["k4"], loops="bhije", scale=scale)
        m = E.generic("bhij->bhi", [s], lambda a, acc: (
            ["%%m = arith.maximumf %s, %s : %s" % (acc, a[0], t)], "%m"),
            init=ninf)
        ex = E.ew("bhij,bhi->bhij", [s, m], lambda a: ([
            "%%d = arith.subf %s, %s : %s" % (a[0], a[1], t),
            "%%r = math.exp %%d : %s" % t], "%r"))
        z = E.rowsum("bhij->bhi", ex)
        c["p"] = E.binop("bhij,bhi->bhij", ex, z, "divf")
        o4 = E.einsum("bhij,bjhe->bihe", c["p"], c["v4"], loops="bhije")
        c["o"] = collapse(o4)
        att = E.einsum("bic,cn->bin", c["o"], p["wo"], loops="bicn")
        r = E.binop("bic,bic->bic", h, att, "addf")
        c["r"] = r
        y2, c["xh2"], c["rstd2"] = layernorm_fwd(E, r, p["g2"], p["b2"])
        c["y2"] = y2
        c["f"] = E.einsum("bic,cf->bif", y2, p["w1"], loops="bicf")
        c["ga"] = E.relu("bif->bif", c["f"])
        f2 = E.einsum("bif,fn->bin", c["ga"], p["w2"], loops="bifn")
        h = E.binop("bic,bic->bic", r, f2, "addf")
        saved.append(c)
    loss = E.sumsq("bic->", h)
    E.emit("// ---- backward")
    grads = {}
    dh = E.dloss("bic,->bic", h, dy)
    for k in reversed(range(blocks)):
        p, c = P[k], saved[k]
        # FFN
        grads["w2", k] = E.einsum("bif,bin->fn", c["ga"], dh, loops="bifn")
        dga = E.einsum("bin,fn->bif", dh, p["w2"], loops="bifn")
        df = E.relu_grad("bif,bif->bif", dga, c["f"])
        grads["w1", k] = E.einsum("bic,bif->cf", c["y2"], df, loops="bicf")
        dy2 = E.einsum("bif,cf->bic", df, p["w1"], loops="bicf")
        dr_ln, grads["g2", k], grads["b2", k] = layernorm_bwd(E, dy2, c["xh2"], c["rstd2"], p["g2"])
        dr = E.binop("bic,bic->bic", dh, dr_ln, "addf")
        # attention output projection
        grads["wo", k] = E.einsum("bic,bin->cn", c["o"], dr, loops="bicn")
        do = E.einsum("bin,cn->bic", dr, p["wo"], loops="bicn")
        do4 = expand(do)
        dp = E.einsum("bihe,bjhe->bhij", do4, c["v4"], loops="bhije")
        dv4 = E.einsum("bhij,bihe->bjhe", c["p"], do4, loops="bhjie")
        # softmax backward: ds = p * (dp - sum_j dp p)
        tt = E.einsum("bhij,bhij->bhi", dp, c["p"])
        ds = E.ew("bhij,bhij,bhi->bhij", [c["p"], dp, tt], lambda a: ([
            "%%d = arith.subf %s, %s : %s" % (a[1], a[2], t),
            "%%r = arith.mulf %s, %%d : %s" % (a[0], t)], "%r"))
        dq4 = E.einsum("bhij,bjhe->bihe", ds, c["k4"], loops="bhije", scale=scale)
        dk4 = E.einsum("bhij,bihe->bjhe", ds, c["q4"], loops="bhjie", scale=scale)
        dq, dk, dv = collapse(dq4), collapse(dk4), collapse(dv4)
        grads["wq", k] = E.einsum("bic,bin->cn", c["y"], dq, loops="bicn")
        grads["wk", k] = E.einsum("bic,bin->cn", c["y"], dk, loops="bicn")
        grads["wv", k] = E.einsum("bic,bin->cn", c["y"], dv, loops="bicn")
        dyl = E.generic("bin,cn,bin,cn,bin,cn->bic",
                        [dq, p["wq"], dk, p["wk"], dv, p["wv"]],
                        lambda a, acc: ([
                            "%%m1 = arith.mulf %s, %s : %s" % (a[0], a[1], t),
                            "%%m2 = arith.mulf %s, %s : %s" % (a[2], a[3], t),
                            "%%m3 = arith.mulf %s, %s : %s" % (a[4], a[5], t),
                            "%%s1 = arith.addf %%m1, %%m2 : %s" % t,
                            "%%s2 = arith.addf %%s1, %%m3 : %s" % t,
                            "%%s = arith.addf %s, %%s2 : %s" % (acc, t)], "%s"),
                        loops="bicn", init=0.0)
        dx_ln, grads["g1", k], grads["b1", k] = layernorm_bwd(E, dyl, c["xh1"], c["rstd1"], p["g1"])
        if k > 0:
            dh = E.binop("bic,bic->bic", dr, dx_ln, "addf")
    names = ["g1", "b1", "wq", "wk", "wv", "wo", "g2", "b2", "w1", "w2"]
    args = [(x, E.ty((B, S, D)), None)] + \
        [(nm, E.ty(sh), "ac.param") for nm, sh in params] + [(dy, E.ty(()), "ac.tangent")]
    res = [(E.ty(()), "ac.output")]
    rets = [loss]
    for k in range(blocks):
        for nm in names:
            res.append((E.ty(E.shape[P[k][nm]]), "ac.grad"))
            rets.append(grads[nm, k])
    return header("transformer --blocks %d --seq %d --dim %d --heads %d --ffn %d --batch %d"
                  % (blocks, S, D, H, F, B)) + \
        function("transformer", args, res, E.lines, rets)


# ---------------------------------------------------------------------------
def conv(layers=3, batch=8, size=34, cin=16, ch=32):
    E = Emitter()
    t = E.dtype
    N = batch
    x = "%x"
    E.shape[x] = (N, size, size, cin)
    dy = "%dy"
    E.shape[dy] = ()
    ws, chans = [], [cin] + [ch] * layers
    for l in range(layers):
        w = "%%f%d" % (l + 1)
        E.shape[w] = (3, 3, chans[l], chans[l + 1])
        ws.append(w)

    def conv2d(a, w):
        n, hh, ww, _ = E.shape[a]
        f = E.shape[w][3]
        oshape = (n, hh - 2, ww - 2, f)
        init = E.filled(oshape, 0.0)
        r = E.fresh("t")
        E.emit("%s = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
            r, a, w, E.ty(E.shape[a]), E.ty(E.shape[w]), init, E.ty(oshape), E.ty(oshape)))
        E.shape[r] = oshape
        return r

    E.emit("// ---- forward")
    acts, hs, a = [x], [], x
    for l in range(layers):
        h = conv2d(a, ws[l])
        hs.append(h)
        a = E.relu("nijc->nijc", h)
        acts.append(a)
    loss = E.sumsq("nijc->", a)
    E.emit("// ---- backward")
    da = E.dloss("nijc,->nijc", a, dy)
    grads = [None] * layers
    for l in reversed(range(layers)):
        dh = E.relu_grad("nijc,nijc->nijc", da, hs[l])
        # dW[p,q,c,f] = sum_{n,i,j} a[n,i+p,j+q,c] dh[n,i,j,f]
        grads[l] = E.einsum("n(i+p)(j+q)c,nijf->pqcf", acts[l], dh, loops="pqcfnij",
                            extra={"p": 3, "q": 3})
        if l > 0:
            # da_prev = conv(pad(dh, 2), flip(W) with c and f swapped)
            n, hh, ww, f = E.shape[dh]
            pshape = (n, hh + 4, ww + 4, f)
            pd = E.fresh("pad")
            zero = E.const(0.0)
            E.emit("%s = tensor.pad %s low[0, 2, 2, 0] high[0, 2, 2, 0] {" % (pd, dh))
            E.emit("^bb0(%i0: index, %i1: index, %i2: index, %i3: index):")
            E.emit("  tensor.yield %s : %s" % (zero, t))
            E.emit("} : %s to %s" % (E.ty(E.shape[dh]), E.ty(pshape)))
            E.shape[pd] = pshape
            c_in = E.shape[ws[l]][2]
            wf = E.generic("(2-p)(2-q)cf->pqfc", [ws[l]],
                           lambda a_, o: ([], a_[0]),
                           extra={"p": 3, "q": 3})
            da = conv2d(pd, wf)
            assert E.shape[da][3] == c_in
    args = [(x, E.ty(E.shape[x]), None)] + \
        [(w, E.ty(E.shape[w]), "ac.param") for w in ws] + [(dy, E.ty(()), "ac.tangent")]
    res = [(E.ty(()), "ac.output")] + [(E.ty(E.shape[w]), "ac.grad") for w in ws]
    return header("conv --layers %d --batch %d --size %d --cin %d --ch %d"
                  % (layers, batch, size, cin, ch)) + \
        function("convnet", args, res, E.lines, [loss] + grads)


SUITE = {
    # name: (generator, kwargs)
    "mlp": (mlp, dict(layers=8, width=1024, batch=1024)),
    "transformer": (transformer, dict(blocks=2, seq=512, dim=128, heads=4, ffn=256, batch=1)),
    "conv": (conv, dict(layers=3, batch=8, size=66, cin=16, ch=32)),
    "small-mlp": (mlp, dict(layers=4, width=64, batch=32)),
    "small-transformer": (transformer, dict(blocks=1, seq=32, dim=16, heads=2, ffn=32, batch=1)),
    "small-conv": (conv, dict(layers=2, batch=2, size=10, cin=4, ch=8)),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["mlp", "transformer", "conv", "all"])
    ap.add_argument("dir", nargs="?")
    for k in ["layers", "width", "batch", "blocks", "seq", "dim", "heads", "ffn",
              "size", "cin", "ch"]:
        ap.add_argument("--" + k, type=int)
    args = ap.parse_args()
    if args.what == "all":
        d = args.dir or os.path.dirname(os.path.abspath(__file__))
        for name, (fn, kw) in SUITE.items():
            with open(os.path.join(d, name + ".mlir"), "w") as f:
                f.write(fn(**kw))
        return
    fn, kw = SUITE[args.what]
    kw = dict(kw)
    for k in list(vars(args)):
        v = getattr(args, k)
        if v is not None and k not in ("what", "dir"):
            if k not in fn.__code__.co_varnames:
                sys.exit("gen.py: --%s does not apply to %s" % (k, args.what))
            kw[k] = v
    sys.stdout.write(fn(**kw))


if __name__ == "__main__":
    main()
