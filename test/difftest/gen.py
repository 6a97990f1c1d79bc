"""Random valid, executable joint programs in autoac's contract form.

A program is a list of forward *steps* (`Step`), each a kind and a few
random integers.  `emit(steps, opts)` turns any list of steps (any sublist
too: that is what the shrinker relies on) into a module with one or more
`ac.joint` functions: every step picks its operands among the values that
exist when it runs (random integer modulo the candidates), so removing a
step never makes a later one invalid.  The backward is derived by a small
reverse-mode pass over the forward steps (not exact calculus: every rule
has the right shapes and reads the forward values a real gradient reads,
which is what makes save candidates), so every parameter used gets a
gradient.

What the forward covers: linalg.generic (unary, binary, broadcast bias,
row reduction), linalg.matmul and named elementwise ops, linalg.transpose,
tensor.extract_slice / tensor.pad / tensor.insert_slice (into a value read
later or a fresh fill: the in-place rule), views (collapse_shape +
expand_shape), dropout with linalg.fill_rng_2d (a replayable draw),
the same unary and binary ops on whole tensors as `math`/`arith` ops and
as TOSA ops, views as tosa.reshape (the shape back read by the backward), func.call to private helpers (forward and backward), scf.for and scf.if
holding tensors (a loop body writing into its iter_arg or passing on a new
tensor), relu with a saved i1 mask (`arith.cmpf`/`arith.select` on tensors); `ac.save` / `ac.recompute` requests on some ops.  The
driver may run `mlir-opt --cse` on the module (shared `tensor.empty` and
fills) before planning.  With `nfuncs` > 1 the module holds several joint
functions chained like pipeline stages, with an `ac.schedule`.

Pure Python, no dependency: `python3 gen.py SEED` prints one program.
"""
import random
import sys

DIMS = [4, 8, 12, 16, 24, 32]

KINDS = ["unary", "unary", "binary", "named", "matmul", "matmul", "bias",
         "slice", "pad", "insert", "view", "transpose", "rowsum", "dropout",
         "call", "for", "if", "rng", "mask"]


class Step:
    __slots__ = ("kind", "r", "attr")

    def __init__(self, kind, r, attr=None):
        self.kind = kind
        self.r = r          # random integers the step draws from
        self.attr = attr    # None | "save" | "recompute"

    def to_json(self):
        return [self.kind, self.r, self.attr]

    @staticmethod
    def from_json(j):
        return Step(j[0], list(j[1]), j[2])


def random_program(rng, nsteps=None, nfuncs=None):
    """Steps per function and module options, drawn from rng."""
    if nfuncs is None:
        nfuncs = 1 if rng.random() < 0.8 else rng.randint(2, 3)
    funcs = []
    for _ in range(nfuncs):
        n = nsteps if nsteps is not None else rng.randint(3, 14)
        steps = []
        for _ in range(n):
            k = rng.choice(KINDS)
            attr = None
            x = rng.random()
            if x < 0.05:
                attr = "save"
            elif x < 0.10:
                attr = "recompute"
            steps.append(Step(k, [rng.randrange(1 << 30) for _ in range(8)], attr))
        funcs.append(steps)
    opts = {
        "in_shape": [rng.choice(DIMS), rng.choice(DIMS)],
        "x2": rng.random() < 0.3,
        "dx": rng.random() < 0.5,  # (unused: every input's gradient is returned)
        "bwd_call": rng.random() < 0.25,
        "bwd_for": rng.random() < 0.2,
        "grad_copy": rng.random() < 0.5,
        "schedule": "nested" if rng.random() < 0.5 else "default",
    }
    return funcs, opts


def T(shape, et="f32"):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), et)


ID2 = "affine_map<(i, j) -> (i, j)>"
PAR2 = '["parallel", "parallel"]'


class Emitter:
    """Writes one function body; names are unique in the module."""

    def __init__(self, mod, prefix):
        self.mod = mod
        self.p = prefix
        self.lines = []

    def fresh(self, base="v"):
        self.mod.counter += 1
        return "%%%s%s%d" % (self.p, base, self.mod.counter)

    def emit(self, s):
        self.lines.append("    " + s)

    def const_f32(self, v):
        n = self.fresh("c")
        self.emit("%s = arith.constant %r : f32" % (n, float(v)))
        return n

    def empty(self, shape):
        n = self.fresh("e")
        self.emit("%s = tensor.empty() : %s" % (n, T(shape)))
        return n

    def zeros(self, shape):
        e = self.empty(shape)
        n = self.fresh("z")
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (
            n, self.mod.zero(self), e, T(shape), T(shape)))
        return n

    def generic(self, ins, shape, body, maps=None, iters=None, init=None, attr=None):
        """ins: [(name, shape)]; body(args, out) -> (lines, yielded)."""
        rank = len(shape)
        if maps is None:
            idm = "affine_map<(%s) -> (%s)>" % (", ".join("d%d" % i for i in range(rank)),
                                                ", ".join("d%d" % i for i in range(rank)))
            maps = [idm] * (len(ins) + 1)
        if iters is None:
            iters = "[%s]" % ", ".join(['"parallel"'] * rank)
        if init is None:
            init = self.empty(shape)
        n = self.fresh()
        args = [self.fresh("a") for _ in ins]
        out = self.fresh("o")
        ins_s = ""
        if ins:
            ins_s = " ins(%s : %s)" % (", ".join(a for a, _ in ins), ", ".join(T(s) for _, s in ins))
        at = ""
        if attr:
            at = ", ac.%s" % attr
        self.emit("%s = linalg.generic {indexing_maps = [%s], iterator_types = %s%s}%s outs(%s : %s) {" % (
            n, ", ".join(maps), iters, at, ins_s, init, T(shape)))
        self.emit("^bb0(%s):" % ", ".join(["%s: f32" % a for a in args] + ["%s: f32" % out]))
        bl, y = body(args, out)
        for ln in bl:
            self.emit("  " + ln)
        self.emit("  linalg.yield %s : f32" % y)
        self.emit("} -> %s" % T(shape))
        return n


class Module:
    def __init__(self):
        self.counter = 0
        self.helpers = []   # text of private helper functions
        self.nhelpers = 0

    def zero(self, em):
        # One constant per use: CSE merges them; fine either way.
        n = em.fresh("zero")
        em.emit("%s = arith.constant 0.0 : f32" % n)
        return n


def unary_body(which, em):
    """Returns body(args, out) for an elementwise op of one input."""
    def body(a, o):
        v = a[0]
        t = em.fresh("t")
        u = em.fresh("t")
        if which == 0:
            return ["%s = math.tanh %s : f32" % (t, v)], t
        if which == 1:
            return ["%s = math.sin %s : f32" % (t, v)], t
        if which == 2:
            return ["%s = arith.constant 0.0 : f32" % u,
                    "%s = arith.maximumf %s, %s : f32" % (t, v, u)], t
        if which == 3:
            return ["%s = arith.constant 0.5 : f32" % u,
                    "%s = arith.mulf %s, %s : f32" % (t, v, u)], t
        w = em.fresh("t")
        return ["%s = math.absf %s : f32" % (u, v),
                "%s = arith.constant 1.0 : f32" % w,
                "%s = arith.addf %s, %s : f32" % (t, u, w),
                "%s = arith.divf %s, %s : f32" % (u + "d", v, t)], u + "d"
    return body


def binary_body(which, em):
    def body(a, o):
        t = em.fresh("t")
        op = ["arith.addf", "arith.mulf", "arith.subf"][which % 3]
        return ["%s = %s %s, %s : f32" % (t, op, a[0], a[1])], t
    return body


def loop_body(em, with_b):
    """t = 0.5 * (t + b) or t = tanh(t), reading t as the out argument."""
    def body(a, o):
        t, u, c = em.fresh("t"), em.fresh("t"), em.fresh("t")
        if with_b:
            return ["%s = arith.addf %s, %s : f32" % (t, a[0], o),
                    "%s = arith.constant 0.5 : f32" % c,
                    "%s = arith.mulf %s, %s : f32" % (u, t, c)], u
        return ["%s = math.tanh %s : f32" % (t, o)], t
    return body


def temps_body(em, n):
    """t = 0.5 * (t + sum of the n inputs), reading t as the out argument."""
    def body(a, o):
        lines, acc = [], o
        for x in a[:n]:
            t = em.fresh("t")
            lines.append("%s = arith.addf %s, %s : f32" % (t, acc, x))
            acc = t
        c, u = em.fresh("t"), em.fresh("t")
        lines += ["%s = arith.constant 0.5 : f32" % c, "%s = arith.mulf %s, %s : f32" % (u, acc, c)]
        return lines, u
    return body


def mul_body(em):
    return binary_body(1, em)


class Value:
    __slots__ = ("name", "shape", "kind", "grad_of")

    def __init__(self, name, shape, kind):
        self.name, self.shape, self.kind = name, tuple(shape), kind


class Func:
    """One joint function: forward steps, then the derived backward."""

    def __init__(self, mod, fname, steps, opts, in_shape, fidx):
        self.mod = mod
        self.fname = fname
        self.steps = steps
        self.opts = opts
        self.em = Emitter(mod, "f%d_" % fidx)
        self.args = []      # (Value, attrs)
        self.values = []    # forward values in order (inputs first)
        self.params = []
        self.tape = []      # (kind, out Value, info) for the backward
        self.views = set()  # backward values that are views of another
        self.sliced = set()  # forward values that are strided views
        self.uses = {}
        x = Value("%%f%d_x" % fidx, in_shape, "in")
        self.args.append((x, ""))
        self.values.append(x)
        if opts.get("x2"):
            x2 = Value("%%f%d_x2" % fidx, (in_shape[1], in_shape[0]), "in")
            self.args.append((x2, ""))
            self.values.append(x2)
        self.fidx = fidx

    # -- helpers ------------------------------------------------------------
    def new_param(self, shape):
        p = Value("%%f%d_p%d" % (self.fidx, len(self.params)), shape, "param")
        self.params.append(p)
        return p

    def pick(self, r, pred=lambda v: True):
        c = [v for v in self.values if pred(v)]
        if not c:
            return None
        # Prefer recent values: the pick is biased to the last few.
        if r % 3 != 0 and len(c) > 3:
            c = c[-3:]
        return c[r % len(c)]

    def use(self, v):
        self.uses[v.name] = self.uses.get(v.name, 0) + 1

    def add(self, name, shape, kind, info):
        v = Value(name, shape, "fwd")
        self.values.append(v)
        self.tape.append((kind, v, info))
        return v

    # -- forward ------------------------------------------------------------
    def forward(self):
        em = self.em
        for st in self.steps:
            r = st.r
            k = st.kind
            at = st.attr
            a = self.pick(r[0], lambda v: len(v.shape) == 2)
            R, C = a.shape
            if k == "unary":
                w = r[1] % 5
                form = r[2] % 4 if w < 2 else 0
                if form == 2:
                    # The same op on the whole tensor: math, or TOSA.
                    n = em.fresh()
                    em.emit("%s = %s %s%s : %s" % (n, ["math.tanh", "math.sin"][w], a.name,
                                                    " {ac.%s}" % at if at else "", T(a.shape)))
                elif form == 3:
                    n = em.fresh()
                    em.emit("%s = %s %s%s : (%s) -> %s" % (
                        n, ["tosa.tanh", "tosa.sin"][w], a.name,
                        " {ac.%s}" % at if at else "", T(a.shape), T(a.shape)))
                else:
                    n = em.generic([(a.name, a.shape)], a.shape, unary_body(w, em), attr=at)
                self.use(a)
                self.add(n, a.shape, "unary", dict(a=a, w=w))
            elif k in ("binary", "named"):
                b = self.pick(r[1], lambda v: v.shape == a.shape and v is not a)
                if b is None:
                    b = a
                w = r[2] % 3
                form = r[3] % 4 if k == "named" else 0
                if k == "binary":
                    n = em.generic([(a.name, a.shape), (b.name, b.shape)], a.shape,
                                   binary_body(w, em), attr=at)
                elif form == 2:
                    # arith on whole tensors (auto-ac-lower-cpu makes each a
                    # linalg.generic into a fresh tensor.empty).
                    n = em.fresh()
                    em.emit("%s = %s %s, %s%s : %s" % (
                        n, ["arith.addf", "arith.mulf", "arith.subf"][w], a.name, b.name,
                        " {ac.%s}" % at if at else "", T(a.shape)))
                elif form == 3:
                    # TOSA (tosa.mul's shift: a tosa.const; lowered by the
                    # tosa-to-linalg passes of auto-ac-lower-cpu).
                    n = em.fresh()
                    extra, types = "", "%s, %s" % (T(a.shape), T(a.shape))
                    if w == 1:
                        sh = em.fresh("sh")
                        em.emit('%s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>' % sh)
                        extra, types = ", " + sh, types + ", tensor<1xi8>"
                    em.emit("%s = %s %s, %s%s%s : (%s) -> %s" % (
                        n, ["tosa.add", "tosa.mul", "tosa.sub"][w], a.name, b.name, extra,
                        " {ac.%s}" % at if at else "", types, T(a.shape)))
                else:
                    e = em.empty(a.shape)
                    n = em.fresh()
                    op = ["linalg.add", "linalg.mul", "linalg.sub"][w]
                    em.emit("%s = %s ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                        n, op, a.name, b.name, T(a.shape), T(a.shape), e, T(a.shape), T(a.shape)))
                self.use(a)
                self.use(b)
                self.add(n, a.shape, "binary", dict(a=a, b=b, w=w))
            elif k == "mask":
                # relu keeping a boolean mask for the backward (what torch
                # saves for dropout, masked_fill, where): an i1 tensor, one
                # byte an element, made and read by arith on whole tensors.
                z = em.zeros(a.shape)
                m, n = em.fresh("m"), em.fresh()
                em.emit("%s = arith.cmpf ogt, %s, %s : %s" % (m, a.name, z, T(a.shape)))
                em.emit("%s = arith.select %s, %s, %s : %s, %s" % (
                    n, m, a.name, z, T(a.shape, "i1"), T(a.shape)))
                self.use(a)
                self.add(n, a.shape, "mask", dict(a=a, m=m))
            elif k == "matmul":
                Cn = DIMS[r[1] % len(DIMS)]
                b = None
                if r[2] % 4 == 0:
                    b = self.pick(r[3], lambda v: len(v.shape) == 2 and v.shape[0] == C and v is not a)
                if b is None:
                    b = self.new_param((C, Cn))
                else:
                    Cn = b.shape[1]
                z = em.zeros((R, Cn))
                n = em.fresh()
                em.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                    n, a.name, b.name, T(a.shape), T(b.shape), z, T((R, Cn)), T((R, Cn))))
                # Scale down, so values stay small.
                s = em.generic([(n, (R, Cn))], (R, Cn), unary_body(0, em), attr=at)
                self.use(a)
                self.use(b)
                mm = self.add(n, (R, Cn), "matmul", dict(a=a, b=b))
                self.values.pop()  # the raw product is not picked by later steps
                self.uses[n] = 1
                self.add(s, (R, Cn), "unary", dict(a=mm, w=0))
            elif k == "bias":
                p = self.new_param((C,))
                row = "affine_map<(i, j) -> (j)>"
                n = em.generic([(a.name, a.shape), (p.name, p.shape)], a.shape,
                               binary_body(0, em), maps=[ID2, row, ID2], attr=at)
                self.use(a)
                self.add(n, a.shape, "bias", dict(a=a, p=p))
            elif k == "slice":
                if R < 2 and C < 2:
                    continue
                r0 = 1 + r[1] % R
                c0 = 1 + r[2] % C
                o0 = r[3] % (R - r0 + 1)
                o1 = r[4] % (C - c0 + 1)
                n = em.fresh()
                em.emit("%s = tensor.extract_slice %s[%d, %d] [%d, %d] [1, 1] : %s to %s" % (
                    n, a.name, o0, o1, r0, c0, T(a.shape), T((r0, c0))))
                self.use(a)
                self.add(n, (r0, c0), "slice", dict(a=a, off=(o0, o1)))
                if c0 < C or a.name in self.sliced:
                    self.sliced.add(n)
            elif k == "pad":
                l0, h0, l1, h1 = r[1] % 3, r[2] % 3, r[3] % 3, r[4] % 3
                shp = (R + l0 + h0, C + l1 + h1)
                n = em.fresh()
                z = self.mod.zero(em)
                i, j = em.fresh("i"), em.fresh("j")
                em.emit("%s = tensor.pad %s low[%d, %d] high[%d, %d] {" % (n, a.name, l0, l1, h0, h1))
                em.emit("^bb0(%s: index, %s: index):" % (i, j))
                em.emit("  tensor.yield %s : f32" % z)
                em.emit("} : %s to %s" % (T(a.shape), T(shp)))
                self.use(a)
                self.add(n, shp, "pad", dict(a=a, low=(l0, l1)))
            elif k == "insert":
                b = None
                if r[1] % 2 == 0:
                    b = self.pick(r[2], lambda v: len(v.shape) == 2 and v.shape[0] >= R
                                  and v.shape[1] >= C and v is not a and v.kind == "fwd")
                if b is None:
                    # Into a fresh fill, bigger than a.
                    shp = (R + r[3] % 5, C + r[4] % 5)
                    dest = em.zeros(shp)
                    bshape = shp
                    bval = None
                else:
                    dest = b.name
                    bshape = b.shape
                    bval = b
                o0 = r[5] % (bshape[0] - R + 1)
                o1 = r[6] % (bshape[1] - C + 1)
                n = em.fresh()
                em.emit("%s = tensor.insert_slice %s into %s[%d, %d] [%d, %d] [1, 1] : %s into %s" % (
                    n, a.name, dest, o0, o1, R, C, T(a.shape), T(bshape)))
                self.use(a)
                if bval is not None:
                    self.use(bval)
                self.add(n, bshape, "insert", dict(a=a, b=bval, off=(o0, o1)))
            elif k == "view":
                if a.name in self.sliced and self.opts.get("view_copy"):
                    # A collapse of a strided slice is no view: it copies
                    # (test/lit/difftest/noncontiguous-collapse.mlir).
                    n0 = em.generic([(a.name, a.shape)], a.shape, unary_body(3, em))
                    a = Value(n0, a.shape, "fwd")
                tot = R * C
                divs = [d for d in range(1, tot + 1) if tot % d == 0 and d <= 64 and tot // d <= 64]
                divs = divs or [R]  # no factoring within 64 (seed 40188): same shape
                R2 = divs[r[1] % len(divs)]
                C2 = tot // R2
                c = em.fresh()
                n = em.fresh()
                back = None
                if r[2] % 4 == 3 and a.name not in self.sliced:
                    # TOSA: tosa.reshape with constant shapes; the shape
                    # back is made here and read by the backward (a
                    # forward constant the backward needs in sight).
                    back = em.fresh("shp")
                    em.emit("%s = tosa.const_shape {values = dense<[%d, %d]> : tensor<2xindex>} : () -> !tosa.shape<2>" % (
                        c, R2, C2))
                    em.emit("%s = tosa.const_shape {values = dense<[%d, %d]> : tensor<2xindex>} : () -> !tosa.shape<2>" % (
                        back, R, C))
                    em.emit("%s = tosa.reshape %s, %s : (%s, !tosa.shape<2>) -> %s" % (
                        n, a.name, c, T(a.shape), T((R2, C2))))
                else:
                    em.emit("%s = tensor.collapse_shape %s [[0, 1]] : %s into tensor<%dxf32>" % (c, a.name, T(a.shape), tot))
                    em.emit("%s = tensor.expand_shape %s [[0, 1]] output_shape [%d, %d] : tensor<%dxf32> into %s" % (
                        n, c, R2, C2, tot, T((R2, C2))))
                self.use(a)
                self.add(n, (R2, C2), "view", dict(a=a, back=back))
                if a.name in self.sliced:
                    self.sliced.add(n)
            elif k == "transpose":
                e = em.empty((C, R))
                n = em.fresh()
                em.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0]" % (
                    n, a.name, T(a.shape), e, T((C, R))))
                self.use(a)
                self.add(n, (C, R), "transpose", dict(a=a))
            elif k == "rowsum":
                z = em.zeros((R, 1))

                def body(x, o):
                    t = em.fresh("t")
                    return ["%s = arith.addf %s, %s : f32" % (t, x[0], o)], t
                n = em.generic([(a.name, a.shape)], (R, 1), body,
                               maps=[ID2, "affine_map<(i, j) -> (i, 0)>"],
                               iters='["parallel", "reduction"]', init=z, attr=at)
                self.use(a)
                self.add(n, (R, 1), "rowsum", dict(a=a))
            elif k in ("dropout", "rng"):
                seed = r[1] % 1000
                p = [0.25, 0.5, 0.75][r[2] % 3]
                u = em.fresh("u")
                if k == "dropout":
                    # A replayable draw: a pure function of its seed.
                    lo, hi, sd = em.fresh("lo"), em.fresh("hi"), em.fresh("sd")
                    em.emit("%s = arith.constant 0.0 : f64" % lo)
                    em.emit("%s = arith.constant 1.0 : f64" % hi)
                    em.emit("%s = arith.constant %d : i32" % (sd, seed))
                    e = em.empty(a.shape)
                    em.emit("%s = linalg.fill_rng_2d ins(%s, %s, %s : f64, f64, i32) outs(%s : %s) -> %s" % (
                        u, lo, hi, sd, e, T(a.shape), T(a.shape)))
                else:
                    # An implicit draw from the program's generator
                    # (StableHLO): never recomputed under rng=keep,
                    # rewritten into a seed and autoac.rng.uniform under
                    # rng=replay.  The driver lowers both (lower_rng).
                    lo, hi, sh = em.fresh("lo"), em.fresh("hi"), em.fresh("sh")
                    if self.opts.get("no_tensor_const"):
                        # Bounds made by fills, not tensor constants (see
                        # test/lit/difftest/tensor-constant.mlir).
                        lo = em.zeros(())
                        one = em.fresh("one")
                        em.emit("%s = arith.constant 1.0 : f32" % one)
                        e1 = em.empty(())
                        em.emit("%s = linalg.fill ins(%s : f32) outs(%s : tensor<f32>) -> tensor<f32>" % (hi, one, e1))
                    else:
                        em.emit("%s = arith.constant dense<0.0> : tensor<f32>" % lo)
                        em.emit("%s = arith.constant dense<1.0> : tensor<f32>" % hi)
                    em.emit("%s = arith.constant dense<[%d, %d]> : tensor<2xi64>" % (sh, R, C))
                    em.emit('%s = "stablehlo.rng"(%s, %s, %s) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}'
                            ' : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> %s' % (u, lo, hi, sh, T(a.shape)))
                uval = Value(u, a.shape, "fwd")

                def body(x, o, p=p):
                    t, c, s, z, m = (em.fresh("t") for _ in range(5))
                    return ["%s = arith.constant %r : f32" % (c, p),
                            "%s = arith.constant %r : f32" % (s, 1.0 / (1.0 - p) if p < 1 else 0.0),
                            "%s = arith.constant 0.0 : f32" % z,
                            "%s = arith.cmpf oge, %s, %s : f32" % (t, x[1], c),
                            "%s = arith.select %s, %s, %s : f32" % (m, t, s, z),
                            "%s = arith.mulf %s, %s : f32" % (m + "y", x[0], m)], m + "y"
                n = em.generic([(a.name, a.shape), (u, a.shape)], a.shape, body, attr=at)
                self.use(a)
                self.add(n, a.shape, "dropout", dict(a=a, u=uval, p=p))
            elif k == "call":
                h = self.helper(a.shape, r[1] % 5)
                n = em.fresh()
                em.emit("%s = func.call @%s(%s) : (%s) -> %s" % (n, h, a.name, T(a.shape), T(a.shape)))
                self.use(a)
                self.add(n, a.shape, "call", dict(a=a))
            elif k == "for":
                trip = 1 + r[1] % 3
                lb, ub, s1 = em.fresh("lb"), em.fresh("ub"), em.fresh("s1")
                em.emit("%s = arith.constant 0 : index" % lb)
                em.emit("%s = arith.constant %d : index" % (ub, trip))
                em.emit("%s = arith.constant 1 : index" % s1)
                n, iv, t = em.fresh(), em.fresh("iv"), em.fresh("it")
                init = a.name
                if a.kind == "in" and self.opts.get("loop_init_copy"):
                    # Not the argument itself: a loop writing its iter_arg
                    # in place writes into a function argument (see
                    # test/lit/difftest/loop-inplace-arg.mlir).
                    init = em.generic([(a.name, a.shape)], a.shape, unary_body(3, em))
                em.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {" % (
                    n, iv, lb, ub, s1, t, init, T(a.shape)))
                b = self.pick(r[2], lambda v: v.shape == a.shape)
                fb = None
                # The body writes into the iter_arg (outs), so the yield is
                # equivalent to it, as one-shot bufferization requires.
                if b is not None and r[3] % 2 == 0:
                    self.use(b)
                    fb = b
                if r[5] % 8 == 1:
                    # The body passes on a new tensor, not its iter_arg
                    # written in place (auto-ac-copy-before-write copies it
                    # into the iter_arg before the yield): a math/arith op
                    # on the whole tensor or a generic into a fresh empty.
                    y = em.fresh()
                    if r[6] % 2 and fb is None:
                        em.emit("%s = math.sin %s : %s" % (y, t, T(a.shape)))
                    elif r[6] % 2:
                        em.emit("%s = arith.addf %s, %s : %s" % (y, t, fb.name, T(a.shape)))
                    elif fb is None:
                        y = em.generic([(t, a.shape)], a.shape, unary_body(r[7] % 5, em))
                    else:
                        sm = em.fresh("t")
                        y = em.generic([(t, a.shape), (fb.name, a.shape)], a.shape,
                                       lambda x, o: (["%s = arith.addf %s, %s : f32" % (sm, x[0], x[1])], sm))
                elif r[5] % 4 == 0:
                    # Temporaries made and freed inside the body, one or
                    # two live at once (import/bodies.h counts them).
                    src = fb.name if fb is not None else t
                    tmps = [em.generic([(src, a.shape)], a.shape, unary_body(r[6] % 5, em))]
                    if r[6] % 2:
                        tmps.append(em.generic([(tmps[0], a.shape)], a.shape, unary_body(r[7] % 5, em)))
                    y = em.generic([(n_, a.shape) for n_ in tmps], a.shape,
                                   temps_body(em, len(tmps)), init=t)
                elif fb is not None:
                    y = em.generic([(fb.name, a.shape)], a.shape, loop_body(em, True), init=t)
                else:
                    y = em.generic([], a.shape, loop_body(em, False), init=t)
                em.emit("scf.yield %s : %s" % (y, T(a.shape)))
                em.emit("}")
                self.use(a)
                self.add(n, a.shape, "for", dict(a=a, b=fb))
            elif k == "if":
                c = em.fresh("cond")
                if r[1] % 4 == 2:
                    # Decided at run time (by the sign of a's first element):
                    # the import folds constant branches, this keeps real
                    # conditional code under test.
                    zi, e, z = em.fresh("ci"), em.fresh("e"), em.fresh("z")
                    em.emit("%s = arith.constant 0 : index" % zi)
                    em.emit("%s = tensor.extract %s[%s] : %s" % (
                        e, a.name, ", ".join([zi] * len(a.shape)), T(a.shape)))
                    em.emit("%s = arith.constant 0.0 : f32" % z)
                    em.emit("%s = arith.cmpf ogt, %s, %s : f32" % (c, e, z))
                elif r[1] % 2:
                    em.emit("%s = arith.constant %s" % (c, "true" if r[2] % 2 else "false"))
                else:
                    i1, i2 = em.fresh("ci"), em.fresh("ci")
                    em.emit("%s = arith.constant %d : index" % (i1, r[2] % 4))
                    em.emit("%s = arith.constant 2 : index" % i2)
                    em.emit("%s = arith.cmpi ult, %s, %s : index" % (c, i1, i2))
                n = em.fresh()
                em.emit("%s = scf.if %s -> (%s) {" % (n, c, T(a.shape)))
                for k, w in enumerate((r[3], r[4])):
                    if k:
                        em.emit("} else {")
                    src = a.name
                    if (r[5] >> k) % 4 == 0:
                        # A temporary made and freed inside the branch.
                        src = em.generic([(a.name, a.shape)], a.shape, unary_body(r[6] % 5, em))
                    y = em.generic([(src, a.shape)], a.shape, unary_body(w % 5, em))
                    em.emit("scf.yield %s : %s" % (y, T(a.shape)))
                em.emit("}")
                self.use(a)
                self.add(n, a.shape, "if", dict(a=a))

    def helper(self, shape, w, nin=1):
        self.mod.nhelpers += 1
        name = "helper%d" % self.mod.nhelpers
        em = Emitter(self.mod, "h%d_" % self.mod.nhelpers)
        args = ["%%h%d_in%d" % (self.mod.nhelpers, i) for i in range(nin)]
        if nin == 1:
            y = em.generic([(args[0], shape)], shape, unary_body(w, em))
        else:
            y = em.generic([(a, shape) for a in args], shape, binary_body(w, em))
        self.mod.helpers.append(
            "  func.func private @%s(%s) -> %s {\n%s\n    return %s : %s\n  }\n" % (
                name, ", ".join("%s: %s" % (a, T(shape)) for a in args), T(shape),
                "\n".join(em.lines), y, T(shape)))
        return name

    # -- loss and backward --------------------------------------------------
    def sinks(self):
        s = [v for v in self.values if v.kind == "fwd" and self.uses.get(v.name, 0) == 0]
        if not s:
            s = [self.values[-1]]
        return s

    def loss_and_backward(self, dl, out_extra=None):
        """Emits the loss (sum of squares of the sinks) and the backward.
        dl: name of the tensor<f32> tangent.  Returns (loss, grads)."""
        em = self.em
        acc = em.zeros(())
        sc = "affine_map<(i, j) -> ()>"
        sinks = self.sinks()
        for v in sinks:
            if len(v.shape) != 2:
                continue

            def body(x, o):
                t, s = em.fresh("t"), em.fresh("t")
                return ["%s = arith.mulf %s, %s : f32" % (t, x[0], x[0]),
                        "%s = arith.addf %s, %s : f32" % (s, o, t)], s
            acc = em.generic([(v.name, v.shape)], (), body, maps=[ID2, sc],
                             iters='["reduction", "reduction"]', init=acc)
        loss = acc
        grads = {}

        def addg(v, g):
            if v.kind == "param" and len(v.shape) == 1 and False:
                pass
            if v.name in grads:
                old = grads[v.name]
                grads[v.name] = em.generic([(old, v.shape), (g, v.shape)], v.shape, binary_body(0, em))
            else:
                grads[v.name] = g
        # Seeds: g = 2 * v * dl for each sink.
        for v in sinks:
            if len(v.shape) != 2:
                continue

            def body(x, o):
                t, s, c = em.fresh("t"), em.fresh("t"), em.fresh("t")
                return ["%s = arith.constant 2.0 : f32" % c,
                        "%s = arith.mulf %s, %s : f32" % (t, x[0], c),
                        "%s = arith.mulf %s, %s : f32" % (s, t, x[1])], s
            g = em.generic([(v.name, v.shape), (dl, ())], v.shape, body, maps=[ID2, sc, ID2])
            addg(v, g)
        nb = 0
        for kind, out, info in reversed(self.tape):
            g = grads.get(out.name)
            if g is None:
                continue
            nb += 1
            a = info.get("a")
            S = out.shape
            if kind in ("unary", "dropout", "call", "for", "if"):
                # da = g * (a or out or the mask)
                if kind == "dropout":
                    other = info["u"].name
                elif kind == "unary":
                    other = a.name if info["w"] % 2 else out.name
                else:
                    other = out.name if nb % 2 else a.name
                if kind == "call" and self.opts.get("bwd_call"):
                    h = self.helper(S, 1, nin=2)
                    d = em.fresh()
                    em.emit("%s = func.call @%s(%s, %s) : (%s, %s) -> %s" % (
                        d, h, g, other, T(S), T(S), T(S)))
                elif kind == "for" and self.opts.get("bwd_for"):
                    d = self.bwd_loop(g, other, S)
                else:
                    d = em.generic([(g, S), (other, S)], S, mul_body(em))
                addg(a, d)
                if info.get("b") is not None:
                    addg(info["b"], em.generic([(g, S), (out.name, S)], S, mul_body(em)))
            elif kind == "mask":
                z = em.zeros(S)
                d = em.fresh()
                em.emit("%s = arith.select %s, %s, %s : %s, %s" % (
                    d, info["m"], g, z, T(S, "i1"), T(S)))
                addg(a, d)
            elif kind == "binary":
                b = info["b"]
                w = info["w"]
                if w == 1:
                    addg(a, em.generic([(g, S), (b.name, S)], S, mul_body(em)))
                    addg(b, em.generic([(g, S), (a.name, S)], S, mul_body(em)))
                else:
                    addg(a, g)
                    if w == 2:
                        g2 = em.generic([(g, S)], S, unary_body(3, em))
                        addg(b, g2)
                    else:
                        addg(b, g)
            elif kind == "matmul":
                b = info["b"]
                R, K = a.shape
                Cn = b.shape[1]

                def body(x, o):
                    t, s = em.fresh("t"), em.fresh("t")
                    return ["%s = arith.mulf %s, %s : f32" % (t, x[0], x[1]),
                            "%s = arith.addf %s, %s : f32" % (s, o, t)], s
                z = em.zeros((R, K))
                da = em.generic([(g, (R, Cn)), (b.name, b.shape)], (R, K), body,
                                maps=["affine_map<(i, j, k) -> (i, k)>", "affine_map<(i, j, k) -> (j, k)>",
                                      "affine_map<(i, j, k) -> (i, j)>"],
                                iters='["parallel", "parallel", "reduction"]', init=z)
                addg(a, da)
                z = em.zeros((K, Cn))
                db = em.generic([(a.name, a.shape), (g, (R, Cn))], (K, Cn), body,
                                maps=["affine_map<(i, j, k) -> (k, i)>", "affine_map<(i, j, k) -> (k, j)>",
                                      "affine_map<(i, j, k) -> (i, j)>"],
                                iters='["parallel", "parallel", "reduction"]', init=z)
                addg(b, db)
            elif kind == "bias":
                p = info["p"]
                addg(a, g)
                z = em.zeros(p.shape)

                def body(x, o):
                    t = em.fresh("t")
                    return ["%s = arith.addf %s, %s : f32" % (t, x[0], o)], t
                dp = em.generic([(g, S)], p.shape, body,
                                maps=[ID2, "affine_map<(i, j) -> (j)>"],
                                iters='["reduction", "parallel"]', init=z)
                addg(p, dp)
            elif kind == "slice":
                (o0, o1) = info["off"]
                R, C = a.shape
                n = em.fresh()
                z = self.mod.zero(em)
                i, j = em.fresh("i"), em.fresh("j")
                em.emit("%s = tensor.pad %s low[%d, %d] high[%d, %d] {" % (
                    n, g, o0, o1, R - S[0] - o0, C - S[1] - o1))
                em.emit("^bb0(%s: index, %s: index):" % (i, j))
                em.emit("  tensor.yield %s : f32" % z)
                em.emit("} : %s to %s" % (T(S), T(a.shape)))
                addg(a, n)
            elif kind == "pad":
                (l0, l1) = info["low"]
                n = em.fresh()
                self.views.add(n)
                em.emit("%s = tensor.extract_slice %s[%d, %d] [%d, %d] [1, 1] : %s to %s" % (
                    n, g, l0, l1, a.shape[0], a.shape[1], T(S), T(a.shape)))
                addg(a, n)
            elif kind == "insert":
                (o0, o1) = info["off"]
                n = em.fresh()
                self.views.add(n)
                em.emit("%s = tensor.extract_slice %s[%d, %d] [%d, %d] [1, 1] : %s to %s" % (
                    n, g, o0, o1, a.shape[0], a.shape[1], T(S), T(a.shape)))
                addg(a, n)
                if info["b"] is not None:
                    z = em.zeros(a.shape)
                    m = em.fresh()
                    em.emit("%s = tensor.insert_slice %s into %s[%d, %d] [%d, %d] [1, 1] : %s into %s" % (
                        m, z, g, o0, o1, a.shape[0], a.shape[1], T(a.shape), T(S)))
                    addg(info["b"], m)
            elif kind == "view":
                R, C = a.shape
                c = em.fresh()
                n = em.fresh()
                tot = R * C
                if info.get("back"):
                    em.emit("%s = tosa.reshape %s, %s : (%s, !tosa.shape<2>) -> %s" % (
                        n, g, info["back"], T(S), T(a.shape)))
                else:
                    em.emit("%s = tensor.collapse_shape %s [[0, 1]] : %s into tensor<%dxf32>" % (c, g, T(S), tot))
                    em.emit("%s = tensor.expand_shape %s [[0, 1]] output_shape [%d, %d] : tensor<%dxf32> into %s" % (
                        n, c, R, C, tot, T(a.shape)))
                self.views.add(n)
                addg(a, n)
            elif kind == "transpose":
                e = em.empty(a.shape)
                n = em.fresh()
                em.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0]" % (
                    n, g, T(S), e, T(a.shape)))
                addg(a, n)
            elif kind == "rowsum":
                d = em.generic([(g, S), (a.name, a.shape)], a.shape, mul_body(em),
                               maps=["affine_map<(i, j) -> (i, 0)>", ID2, ID2])
                addg(a, d)
        return loss, grads

    def bwd_loop(self, g, other, S):
        em = self.em
        lb, ub, s1 = em.fresh("lb"), em.fresh("ub"), em.fresh("s1")
        em.emit("%s = arith.constant 0 : index" % lb)
        em.emit("%s = arith.constant 2 : index" % ub)
        em.emit("%s = arith.constant 1 : index" % s1)
        n, iv, t = em.fresh(), em.fresh("iv"), em.fresh("it")
        em.emit("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {" % (
            n, iv, lb, ub, s1, t, g, T(S)))
        def body(a, o):
            m = em.fresh("t")
            return ["%s = arith.mulf %s, %s : f32" % (m, a[0], o)], m
        y = em.generic([(other, S)], S, body, init=t)
        em.emit("scf.yield %s : %s" % (y, T(S)))
        em.emit("}")
        return n


def emit(funcs, opts):
    """The module text for funcs (a list of step lists) and opts."""
    mod = Module()
    fns = []
    text = []
    in_shape = tuple(opts["in_shape"])
    for fi, steps in enumerate(funcs):
        name = "f%d" % fi
        f = Func(mod, name, steps, opts, in_shape, fi)
        f.forward()
        dl = "%%f%d_dl" % fi
        loss, grads = f.loss_and_backward(dl)
        args = []
        for v, _ in f.args:
            args.append("%s: %s" % (v.name, T(v.shape)))
        used_params = [p for p in f.params if p.name in grads]
        for p in f.params:
            args.append("%s: %s {ac.param}" % (p.name, T(p.shape)))
        args.append("%s: tensor<f32> {ac.tangent}" % dl)
        res = [(loss, "tensor<f32>", "ac.output")]
        # Every input's gradient is returned: no backward op is dead.
        # With grad_copy, a gradient that is a view (a slice of a bigger
        # tensor) is returned through a copy (bufferization copies a
        # returned non-identity view at the function boundary, which the
        # simulator does not count: test/lit/difftest/returned-view-copy.mlir).
        for v in [v for v, _ in f.args] + used_params:
            if v.name in grads:
                g = grads[v.name]
                if opts.get("grad_copy") and g in f.views:
                    g = f.em.generic([(g, v.shape)], v.shape, unary_body(3, f.em))
                    # (a scale, not a copy: a pure copy could be folded)
                res.append((g, T(v.shape), "ac.grad"))
        body = "\n".join(f.em.lines)  # (after the gradient copies above)
        text.append("  func.func @%s(%s)\n      -> (%s)\n      attributes {ac.joint} {\n%s\n    return %s : %s\n  }\n" % (
            name, ", ".join(args), ", ".join("%s {%s}" % (t, a) for _, t, a in res), body,
            ", ".join(n for n, _, _ in res), ", ".join(t for _, t, _ in res)))
        fns.append(name)
    attrs = ""
    if len(fns) > 1:
        if opts.get("schedule") == "nested":
            sched = ["%s.fwd" % n for n in fns] + ["%s.bwd" % n for n in reversed(fns)]
        else:
            sched = ["%s.fwd" % n for n in fns] + ["%s.bwd" % n for n in fns]
        attrs = " attributes {ac.schedule = [%s]}" % ", ".join('"%s"' % s for s in sched)
    return "module%s {\n%s%s}\n" % (attrs, "".join(text), "".join(mod.helpers))


def program(seed, nfuncs=None):
    rng = random.Random(seed)
    return random_program(rng, nfuncs=nfuncs)


if __name__ == "__main__":
    funcs, opts = program(int(sys.argv[1]))
    sys.stdout.write(emit(funcs, opts))
