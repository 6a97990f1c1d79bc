"""Op workspaces on the cpu profiles (docs/cost-model.md, "Workspaces") against
what torch 1.13's CPU kernels really allocate: each op runs standalone under
torch.profiler with profile_memory=True, its scratch is the peak of the memory
events inside it less what it returns, and autoac's report (device cpu1 or
cpu2, the threads torch runs with) must give that op the same workspace.
Small shapes: the whole file takes a few seconds."""
import pytest

torch = pytest.importorskip("torch")
from torch.profiler import ProfilerActivity, profile  # noqa: E402

import autoac  # noqa: E402
from torch_versions import TORCH2, torch1_only  # noqa: E402,F401

ONEDNN_3 = ("the cpu profiles model the workspaces of oneDNN 2.6's AVX2 kernels, as torch 1.13 runs them; torch 2.14 bundles oneDNN 3.12, whose transposed-convolution and some backward-weight workspaces differ (18 of these cases): a profile of it is open work")
# Before the cases below run their convolutions: the door limits oneDNN to
# the AVX2 kernels the model describes (autoac/pytorch/_onednn.py).
act = pytest.importorskip("autoac.pytorch")

aten = torch.ops.aten

# The profiler also sees the 0-dim scalars some kernels make (mse_loss's
# mean divides by a 0-dim count: 8 + 4 bytes); the model leaves them out.
SCALARS = 16


def measured_scratch(fn):
    fn()  # warm-up: first-call caches are not the op's
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        out = fn()
    live = peak = 0
    for e in prof.profiler.kineto_results.events():
        if e.name() == "[memory]":
            live += e.nbytes()
            peak = max(peak, live)
    del out
    return peak - live


def ttype(shape, dtype="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


class Case:
    """One op: its MLIR (operand and result shapes) and its torch call.  An
    operand given as ("list", [ints]) is a torch.prim.ListConstruct of
    torch.constant.int (a convolution's stride, padding, dilation), as the
    door exports them; ("bool", b), ("int", n) and ("none", None) are
    torch.constant.bool / .int / .none (a convolution's `transposed`, its
    groups, no bias)."""

    def __init__(self, name, op, operands, results, call, threads=1, result_dtype="f32"):
        self.name, self.op, self.operands, self.results = name, op, operands, results
        self.call, self.threads, self.result_dtype = call, threads, result_dtype

    def mlir(self):
        consts = {"bool": ("torch.constant.bool", "!torch.bool", lambda v: "true" if v else "false"),
                  "int": ("torch.constant.int", "!torch.int", lambda v: f"{v} : i64"),
                  "none": ("torch.constant.none", "!torch.none", None)}
        tensors = [(i, s, d) for i, (s, d) in enumerate(self.operands)
                   if s != "list" and s not in consts]
        args = ", ".join(f"%a{i}: {ttype(s, d)}" for i, s, d in tensors)
        rets = ", ".join(f"{ttype(s, self.result_dtype)} {{ac.output}}" for s in self.results)
        body, ins, in_t = [], [], []
        for i, (s, d) in enumerate(self.operands):
            if s in consts:
                name, ty, val = consts[s]
                attr = f" {{value = {val(d)}}}" if val else ""
                body.append(f"  %a{i} = \"{name}\"(){attr} : () -> {ty}\n")
                ins.append(f"%a{i}")
                in_t.append(ty)
                continue
            if s != "list":
                ins.append(f"%a{i}")
                in_t.append(ttype(s, d))
                continue
            for j, v in enumerate(d):
                body.append(f"  %k{i}_{j} = \"torch.constant.int\"() {{value = {v} : i64}} : () -> !torch.int\n")
            ks = ", ".join(f"%k{i}_{j}" for j in range(len(d)))
            kt = ", ".join("!torch.int" for _ in d)
            body.append(f"  %a{i} = \"torch.prim.ListConstruct\"({ks}) : ({kt}) -> !torch.list<int>\n")
            ins.append(f"%a{i}")
            in_t.append("!torch.list<int>")
        out_t = ", ".join(ttype(s, self.result_dtype) for s in self.results)
        lhs = f"%r:{len(self.results)}" if len(self.results) > 1 else "%r0"
        use = ", ".join(f"%r#{i}" for i in range(len(self.results))) if len(self.results) > 1 else "%r0"
        return (f"func.func @step({args}) -> ({rets}) attributes {{ac.joint}} {{\n" + "".join(body) +
                f"  {lhs} = \"{self.op}\"({', '.join(ins)}) : ({', '.join(in_t)}) -> ({out_t})\n"
                f"  return {use} : {out_t}\n}}\n")


def conv(n, c, h, o, k, s, p):
    x, w = torch.randn(n, c, h, h), torch.randn(o, c, k, k)
    y = aten.convolution(x, w, None, [s, s], [p, p], [1, 1], False, [0, 0], 1)
    return x, w, y, torch.randn_like(y)


def conv_cases():
    out = []
    for (n, c, h, o, k, s, p) in [(2, 16, 14, 32, 3, 1, 1), (2, 16, 14, 32, 3, 2, 1),
                                   (2, 64, 4, 128, 3, 1, 1), (2, 3, 32, 16, 7, 2, 3),
                                   (1, 64, 4, 128, 3, 1, 1), (4, 12, 9, 24, 3, 1, 1),
                                   (2, 3, 64, 16, 3, 1, 1)]:
        x, w, y, dy = conv(n, c, h, o, k, s, p)
        shapes = [(tuple(x.shape), "f32"), (tuple(w.shape), "f32")]
        tag = f"{n}x{c}x{h}x{h}->{o} k{k} s{s}"
        out.append(Case("convolution " + tag, "torch.aten.convolution", shapes, [tuple(y.shape)],
                        lambda x=x, w=w, s=s, p=p: aten.convolution(
                            x, w, None, [s, s], [p, p], [1, 1], False, [0, 0], 1)))
        out.append(Case("convolution_backward " + tag, "torch.aten.convolution_backward",
                        [(tuple(dy.shape), "f32")] + shapes,
                        [tuple(x.shape), tuple(w.shape), (o,)],
                        lambda x=x, w=w, dy=dy, s=s, p=p, o=o: aten.convolution_backward(
                            dy, x, w, [o], [s, s], [p, p], [1, 1], False, [0, 0], 1,
                            [True, True, True])))
    # A 1x1 unstrided kernel: ATen's own kernel on one thread, oneDNN on two.
    x, w, y, _ = conv(4, 32, 8, 64, 1, 1, 0)
    for t in (1, 2):
        out.append(Case(f"convolution 1x1 threads {t}", "torch.aten.convolution",
                        [(tuple(x.shape), "f32"), (tuple(w.shape), "f32")], [tuple(y.shape)],
                        lambda x=x, w=w: aten.convolution(x, w, None, [1, 1], [0, 0], [1, 1],
                                                          False, [0, 0], 1), threads=t))
    return out


def transposed_cases():
    """Transposed convolutions: ATen's column kernels (slow_conv_transpose),
    with and without a bias, on one and two threads, 1-D to 3-D, grouped."""
    out = []
    for (n, ci, co, sp, k, s, p, op, g, bias, th) in [
            (2, 8, 16, (8, 8), 3, 2, 1, 1, 1, False, 1), (2, 8, 16, (8, 8), 3, 2, 1, 1, 1, True, 1),
            (2, 16, 8, (8, 8), 4, 2, 1, 0, 1, True, 2), (2, 8, 8, (10, 10), 3, 1, 1, 0, 1, False, 1),
            (4, 32, 16, (6, 6), 2, 2, 0, 0, 1, True, 2), (2, 8, 16, (8,), 3, 2, 1, 1, 1, True, 1),
            (2, 8, 16, (4, 4, 4), 3, 2, 1, 1, 1, False, 1), (2, 8, 16, (8, 8), 3, 2, 1, 1, 2, False, 1),
            (2, 8, 16, (8, 8), 3, 2, 1, 1, 8, False, 1)]:
        nd = len(sp)
        x, w = torch.randn(n, ci, *sp), torch.randn(ci, co // g, *([k] * nd))
        b = torch.randn(co) if bias else None
        args = ([s] * nd, [p] * nd, [1] * nd, True, [op] * nd, g)
        y = aten.convolution(x, w, b, *args)
        dy = torch.randn_like(y)
        params = [("list", [s] * nd), ("list", [p] * nd), ("list", [1] * nd), ("bool", True),
                  ("list", [op] * nd), ("int", g)]
        xw = [(tuple(x.shape), "f32"), (tuple(w.shape), "f32")]
        bo = [((co,), "f32")] if bias else [("none", None)]
        tag = f"{n}x{ci}x{'x'.join(map(str, sp))}->{co} k{k} s{s} g{g}{' bias' if bias else ''} threads {th}"
        out.append(Case("transposed convolution " + tag, "torch.aten.convolution", xw + bo + params,
                        [tuple(y.shape)],
                        lambda x=x, w=w, b=b, args=args: aten.convolution(x, w, b, *args), threads=th))
        out.append(Case("transposed convolution_backward " + tag, "torch.aten.convolution_backward",
                        [(tuple(dy.shape), "f32")] + xw + [("none", None)] + params[:5] +
                        [params[5], ("none", None)],
                        [tuple(x.shape), tuple(w.shape), (co,)],
                        lambda dy=dy, x=x, w=w, args=args, bias=bias, co=co: aten.convolution_backward(
                            dy, x, w, [co] if bias else None, *args, [True, True, bias]),
                        threads=th))
    # torch-mlir's own op for it (arguments: stride, padding, output_padding,
    # groups, dilation).
    for bias in (False, True):
        x, w = torch.randn(2, 16, 6, 6), torch.randn(16, 8, 4, 4)
        b = torch.randn(8) if bias else None
        y = aten.conv_transpose2d(x, w, b, [2, 2], [1, 1], [0, 0], 1, [1, 1])
        out.append(Case(f"conv_transpose2d 2x16x6x6->8 k4 s2{' bias' if bias else ''}",
                        "torch.aten.conv_transpose2d.input",
                        [((2, 16, 6, 6), "f32"), ((16, 8, 4, 4), "f32")] +
                        ([((8,), "f32")] if bias else [("none", None)]) +
                        [("list", [2, 2]), ("list", [1, 1]), ("list", [0, 0]), ("int", 1),
                         ("list", [1, 1])], [tuple(y.shape)],
                        lambda x=x, w=w, b=b: aten.conv_transpose2d(x, w, b, [2, 2], [1, 1], [0, 0], 1,
                                                                    [1, 1])))
    return out


def kernel_choice_cases():
    """oneDNN's weight-gradient kernel choice (workspace.c,
    acConvBwdWeightsGemm): where its jit kernels cannot run (a kernel taller
    than the input, dilation, depthwise 5x5 or too small an input, groups
    with channels per group not a multiple of 8), gemm books 4 x the weight
    per thread plus an unfolded input; strided 1x1s gather their input per
    thread.  Stride, padding and dilation come as the door exports them
    (constant int lists).  (n, c, h, o, k, stride, pad, dilation, groups,
    threads)."""
    out = []
    for (n, c, h, o, k, s, p, d, g, t) in [
            (2, 64, 2, 64, 3, 1, 1, 1, 1, 1), (2, 64, 2, 64, 3, 1, 1, 1, 1, 2),  # 2x2: gemm
            (4, 64, 1, 64, 3, 1, 1, 1, 1, 1), (2, 64, 2, 128, 3, 2, 1, 1, 1, 2),  # 1x1 outputs
            (2, 64, 4, 64, 3, 1, 1, 1, 1, 2), (2, 64, 3, 64, 3, 2, 1, 1, 1, 2),   # jit
            (2, 32, 4, 32, 5, 1, 2, 1, 1, 1), (2, 16, 6, 16, 7, 1, 3, 1, 1, 2),   # k > h: gemm
            (2, 32, 8, 32, 3, 1, 2, 2, 1, 2), (2, 32, 24, 32, 3, 1, 2, 2, 1, 2),  # dilated
            (2, 32, 2, 32, 3, 1, 1, 1, 32, 2), (2, 32, 3, 32, 3, 2, 1, 1, 32, 2),  # depthwise gemm
            (2, 32, 4, 32, 3, 2, 1, 1, 32, 2), (2, 32, 8, 32, 5, 2, 2, 1, 32, 1),  # jit_dw, gemm
            (2, 32, 8, 32, 3, 1, 1, 1, 8, 2), (1, 64, 2, 64, 3, 1, 1, 1, 4, 2),    # groups
            (1, 24, 2, 48, 3, 1, 1, 1, 2, 2), (2, 64, 8, 64, 3, 1, 1, 1, 4, 1),
            (4, 128, 8, 256, 1, 2, 0, 1, 1, 1), (4, 20, 8, 256, 1, 2, 0, 1, 1, 1),  # 1x1/2
    ]:
        x, w = torch.randn(n, c, h, h), torch.randn(o, c // g, k, k)
        y = aten.convolution(x, w, None, [s, s], [p, p], [d, d], False, [0, 0], g)
        dy = torch.randn_like(y)
        lists = [("list", [s, s]), ("list", [p, p]), ("list", [d, d])]
        tag = f"{n}x{c}x{h}x{h}->{o} k{k} s{s} p{p} d{d} g{g} threads {t}"
        xs, ws = (tuple(x.shape), "f32"), (tuple(w.shape), "f32")
        out.append(Case("convolution_backward " + tag, "torch.aten.convolution_backward",
                        [(tuple(dy.shape), "f32"), xs, ws, ("list", [o])] + lists,
                        [tuple(x.shape), tuple(w.shape), (o,)],
                        lambda x=x, w=w, dy=dy, s=s, p=p, d=d, g=g, o=o: aten.convolution_backward(
                            dy, x, w, [o], [s, s], [p, p], [d, d], False, [0, 0], g,
                            [True, True, True]), threads=t))
        if k == 1:
            out.append(Case("convolution " + tag, "torch.aten.convolution",
                            [xs, ws, ("list", [o])] + lists, [tuple(y.shape)],
                            lambda x=x, w=w, s=s: aten.convolution(
                                x, w, None, [s, s], [0, 0], [1, 1], False, [0, 0], 1), threads=t))
    return out


def other_cases():
    out = []
    x, t = torch.randn(64, 100), torch.randn(64, 100)
    out.append(Case("mse_loss mean", "torch.aten.mse_loss", [((64, 100), "f32")] * 2, [()],
                    lambda: aten.mse_loss(x, t, 1)))
    g = torch.randn(4, 32, 64)
    mask = torch.rand(4, 32, 64) > 0.1
    out.append(Case("native_dropout_backward", "torch.aten.native_dropout_backward",
                    [((4, 32, 64), "f32"), ((4, 32, 64), "i1")], [(4, 32, 64)],
                    lambda: aten.native_dropout_backward(g, mask, 1.1)))
    xb = torch.randn(4, 16, 8, 8)
    wt, bs, rm, rv = torch.randn(16), torch.randn(16), torch.zeros(16), torch.ones(16)
    _, sm, si = aten.native_batch_norm(xb, wt, bs, rm, rv, True, 0.1, 1e-5)
    gb = torch.randn_like(xb)
    out.append(Case("native_batch_norm_backward", "torch.aten.native_batch_norm_backward",
                    [((4, 16, 8, 8), "f32")] * 2 + [((16,), "f32")],
                    [(4, 16, 8, 8), (16,), (16,)],
                    lambda: aten.native_batch_norm_backward(gb, xb, wt, rm, rv, sm, si, True,
                                                            1e-5, [True, True, True])))
    out.append(Case("native_batch_norm", "torch.aten.native_batch_norm",
                    [((4, 16, 8, 8), "f32"), ((16,), "f32")], [(4, 16, 8, 8), (16,), (16,)],
                    lambda: aten.native_batch_norm(xb, wt, bs, rm, rv, True, 0.1, 1e-5)))
    d = 64
    xl, wl, bl = torch.randn(4, 32, d), torch.randn(d), torch.randn(d)
    _, mean, rstd = aten.native_layer_norm(xl, [d], wl, bl, 1e-5)
    gl = torch.randn_like(xl)
    for th in (1, 2):
        out.append(Case(f"native_layer_norm_backward threads {th}",
                        "torch.aten.native_layer_norm_backward",
                        [((4, 32, d), "f32")] * 2, [(4, 32, d), (d,), (d,)],
                        lambda: aten.native_layer_norm_backward(gl, xl, [d], mean, rstd, wl, bl,
                                                                [True, True, True]),
                        threads=th))
    ap = torch.randn(4, 16, 1, 1)
    out.append(Case("_adaptive_avg_pool2d_backward", "torch.aten._adaptive_avg_pool2d_backward",
                    [((4, 16, 1, 1), "f32"), ((4, 16, 8, 8), "f32")], [(4, 16, 8, 8)],
                    lambda: aten._adaptive_avg_pool2d_backward(ap, xb)))
    a, b = torch.randn(64, 128), torch.randn(128, 32)
    out.append(Case("mm", "torch.aten.mm", [((64, 128), "f32"), ((128, 32), "f32")], [(64, 32)],
                    lambda: aten.mm(a, b)))
    sx = torch.randn(16, 50)
    so = sx.softmax(1)
    sg = torch.randn(16, 50)
    out.append(Case("_softmax_backward_data", "torch.aten._softmax_backward_data",
                    [((16, 50), "f32")] * 2, [(16, 50)],
                    lambda: aten._softmax_backward_data(sg, so, 1, torch.float32)))
    # The .Scalar overloads wrap their scalar in 0-d tensors (8 + 4 B in f32,
    # 8 in f64, 8 + 2 in f16 and bf16).
    for op, dt, shape in (("div", "f32", (64, 64)), ("mul", "f32", (8, 300)),
                          ("add", "f64", (16, 16)), ("sub", "bf16", (32, 8)),
                          ("rsub", "f32", (4, 4))):
        tdt = {"f32": torch.float32, "f64": torch.float64, "bf16": torch.bfloat16}[dt]
        xs = torch.randn(*shape).to(tdt)
        fn = getattr(aten, op).Scalar
        out.append(Case(f"{op}.Scalar {dt}", f"torch.aten.{op}.Scalar", [(shape, dt)], [shape],
                        lambda fn=fn, xs=xs: fn(xs, 3.0), result_dtype=dt))
    return out


CASES = conv_cases() + transposed_cases() + kernel_choice_cases() + other_cases()


@torch1_only(ONEDNN_3)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_workspace_matches_torch(case):
    saved = torch.get_num_threads()
    torch.set_num_threads(case.threads)
    try:
        want = measured_scratch(case.call)
    finally:
        torch.set_num_threads(saved)
    report = autoac.plan(case.mlir(), device=f"cpu{case.threads}").report
    steps = [s for s in report["timeline"] if s["op"] == case.op]
    assert len(steps) == 1, report["timeline"]
    have = steps[0].get("workspace_bytes", 0)
    assert want - SCALARS <= have <= want, (case.name, have, want)
    # The GPU profiles model none.
    gpu = autoac.plan(case.mlir(), device="h100").report
    assert all("workspace_bytes" not in s for s in gpu["timeline"])


def test_vit_backward_ops_are_known():
    """A ViT-like model (class token: select; patch slice) exports
    select_backward and slice_backward; the cost model knows every op, and
    on cpu1 the convolution, its backward and layer norm's backward carry
    workspaces."""
    import torch.nn as nn
    import autoac.pytorch as act

    class TinyViT(nn.Module):
        def __init__(self, d=32):
            super().__init__()
            self.patch = nn.Conv2d(3, d, 4, 4)
            self.cls = nn.Parameter(torch.zeros(1, 1, d))
            self.enc = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1, batch_first=True)
            self.head = nn.Linear(d, 10)

        def forward(self, x):
            t = self.patch(x).flatten(2).transpose(1, 2)
            t = self.enc(torch.cat([self.cls.expand(x.shape[0], -1, -1), t], 1))
            return self.head(t[:, 0]).logsumexp(-1).sum() + t[:, 1:3].sum()

    torch.manual_seed(0)
    text = act.export_joint(TinyViT(), (torch.randn(2, 3, 16, 16),))
    assert '"torch.aten.select_backward"' in text and '"torch.aten.slice_backward"' in text
    report = autoac.plan(text, device="cpu1").report
    assert report["unknown_ops"] == []
    with_ws = {s["op"] for s in report["timeline"] if s.get("workspace_bytes")}
    assert {"torch.aten.convolution", "torch.aten.convolution_backward",
            "torch.aten.native_layer_norm_backward"} <= with_ws


def test_cpu_profile_names():
    """autoac.cpu_profile(threads): the smallest cpuN with N >= threads, a
    name the library knows."""
    assert [autoac.cpu_profile(t) for t in (1, 2, 3, 4, 5, 16, 17, 128, 500)] == [
        "cpu1", "cpu2", "cpu4", "cpu4", "cpu8", "cpu16", "cpu32", "cpu128", "cpu128"]
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError):
            autoac.cpu_profile(bad)
    text = Case("mm", "torch.aten.mm", [((4, 4), "f32")] * 2, [(4, 4)], None).mlir()
    for t in (1, 3, 200):
        assert autoac.plan(text, device=autoac.cpu_profile(t)).report["device"] == autoac.cpu_profile(t)
