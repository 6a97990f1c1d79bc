"""The budget holds where PyTorch runs the plan: autoac.pytorch.measure_step
runs one training step through the door's default runtime and measures the
real peak (CPU: torch.profiler's allocation events), and the pieces that
make the two agree: the boxed runtime that frees inputs at their last use,
getitems emitted with their producer, and the gradient mode.

Bars (issue 21): at three budgets per model (below the lowest reachable
peak, between, none) the measured peak is within 2 % of autoac's planned
peak, at most the budget where the report says feasible, and every gradient
is bit-equal to functorch's default_partition (test_torch_partition.py's
exactness argument: same ATen ops, same inputs, deterministic CPU kernels).
Models are small so the file runs in well under a minute.
"""
import operator
import subprocess
import sys
import os
import weakref

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("functorch")
import torch.fx as fx  # noqa: E402
import torch.nn as nn  # noqa: E402
from functorch.compile import make_boxed_func, nop  # noqa: E402

import autoac  # noqa: E402
import autoac.pytorch as act  # noqa: E402
from torch_versions import TORCH2, torch1_only  # noqa: E402


def wide_mlp():
    """Activations (256 KiB each) above the parameters (66 KiB in all), so
    the plans differ."""
    torch.manual_seed(0)
    return nn.Sequential(*[nn.Sequential(nn.Linear(64, 64), nn.GELU()) for _ in range(4)]), \
        (torch.randn(1024, 64),)


def gpt_block():
    """Two encoder layers with dropout: layer norms (multi-result ops),
    attention, dropout replayed."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(64, 4, 128, dropout=0.1, batch_first=True)
    return nn.TransformerEncoder(layer, 2), (torch.randn(8, 32, 64),)


def _check(m, budget):
    assert m.grads_equal, f"gradients differ from default_partition: {m.unequal}"
    assert abs(m.error_percent) <= 2.0, \
        f"budget {budget}: planned {m.planned_peak}, measured {m.measured_peak} ({m.error_percent:+.2f} %)"
    if m.feasible:
        assert m.within_budget
    assert m.measured_no_scratch <= m.measured_peak


@pytest.mark.parametrize("factory,rng", [(wide_mlp, "keep"), pytest.param(
    gpt_block, "replay", marks=pytest.mark.xfail(
        TORCH2, strict=True,
        reason="torch 2.x: the lowest budget's step measures +2.3 % over the plan with "
               "rng=replay (native_dropout's replay); open, issue 35"))])
def test_measured_peak_matches_plan_at_three_budgets(factory, rng):
    model, inputs = factory()
    low = act.measure_step(model, inputs, 1, rng=rng)        # below the lowest reachable
    assert not low.feasible and low.budget == 1
    _check(low, 1)
    mincut = low.report["baseline_peak_bytes"]["mincut"]
    assert low.planned_peak < mincut, "the lowest plan should be below the min-cut plan"
    mid = (low.planned_peak + mincut) // 2
    between = act.measure_step(model, inputs, mid, rng=rng)
    assert between.feasible and between.budget == mid
    _check(between, mid)
    free = act.measure_step(model, inputs, None, rng=rng)     # the starting set
    _check(free, None)
    # No budget: the planner's starting set, the min cut with values saved
    # back where that lowers the peak (docs/planner.md): never above it.
    assert free.planned_peak <= mincut
    assert low.planned_peak <= between.planned_peak <= free.planned_peak
    assert low.measured_peak < free.measured_peak


def small_cnn():
    """A CNN whose last stage runs on 2x2 maps: oneDNN's weight gradients of
    its 3x3 and depthwise convolutions there fall back to gemm, whose
    scratchpad (4 x the weight per thread, docs/cost-model.md) is the
    biggest thing at its step; a strided 1x1 shortcut (per-thread gather)."""
    torch.manual_seed(0)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            def cbr(i, o, s=1, g=1):
                return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, groups=g, bias=False),
                                     nn.BatchNorm2d(o), nn.ReLU())
            self.stem = nn.Sequential(cbr(3, 16), cbr(16, 32, 2), cbr(32, 48, 2), cbr(48, 64, 2))
            self.short = nn.Conv2d(48, 64, 1, 2)
            self.last = nn.Sequential(cbr(64, 64), cbr(64, 64, g=64), cbr(64, 64))
            self.head = nn.Linear(64, 10)

        def forward(self, x):
            h = self.stem[:3](x)
            h = self.stem[3](h) + self.short(h)
            return self.head(self.last(h).mean((2, 3)))

    return Net(), (torch.randn(2, 3, 16, 16),)


@pytest.mark.parametrize("threads", [1, 2])
def test_conv_gemm_scratch_measured_as_planned(threads):
    """oneDNN's gemm weight-gradient scratchpad on 2x2 maps: planned (the
    door plans for cpu<threads>) and measured agree within 2 % at three
    budgets; without it in the model the plans were 1.5 MiB (one thread)
    to 3 MiB (two) under the measured peak."""
    saved = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        model, inputs = small_cnn()
        low = act.measure_step(model, inputs, 1)
        assert not low.feasible
        _check(low, 1)
        assert low.report["device"] == autoac.cpu_profile(threads)
        mincut = low.report["baseline_peak_bytes"]["mincut"]
        mid = (low.planned_peak + mincut) // 2
        for budget in (mid, None):
            m = act.measure_step(model, inputs, budget)
            _check(m, budget)
            assert m.planned_peak >= low.planned_peak
        # The plan has gemm's scratchpad (4 x a 64x64x3x3 weight per thread
        # and more), and op scratch is a real part of the measured peak.
        ws = max(s.get("workspace_bytes", 0) for s in low.report["timeline"]
                 if s["op"] == "torch.aten.convolution_backward")
        assert ws >= threads * 4 * 64 * 64 * 9 * 4
        assert low.measured_peak - low.measured_no_scratch > 0.1 * low.measured_peak
    finally:
        torch.set_num_threads(saved)


def test_assign_mode_has_no_static_gradients():
    """grads="assign" (zero_grad(set_to_none=True)): the plan's static part
    is the parameters alone, gradients count from their op to the end of
    the backward; measured as planned."""
    model, inputs = wide_mlp()
    params = sum(p.numel() * p.element_size() for p in model.parameters())
    m = act.measure_step(model, inputs, None, grads="assign")
    assert m.static_bytes == params + m.reserve
    _check(m, None)
    acc = act.measure_step(model, inputs, None, grads="accumulate", compare=False)
    assert acc.static_bytes == 2 * params + acc.reserve
    assert acc.planned_peak > m.planned_peak


def test_grads_option_passes_through_and_bad_value_is_an_error():
    model, inputs = wide_mlp()
    assert act.default_grads() == ("accumulate" if torch.__version__.startswith("1.") else "assign")
    with pytest.raises(autoac.AutoacError, match="grads 'sum'.*accumulate, assign, buffers"):
        act.aot_module(model, None, grads="sum")
    compiled = act.aot_module(model, None, grads="buffers")
    compiled(*inputs).sum().backward()
    params = sum(p.numel() * p.element_size() for p in model.parameters())
    assert compiled.partition.last.report["static_bytes"] == 2 * params


_ALIVE = []
_REF = []


@fx.wrap
def _probe(x):
    _ALIVE.append(_REF[0]() is not None)
    return x


def _probe_fn(a, b):
    c = a * 2            # a's last use
    d = _probe(c)
    return d + b


@pytest.mark.parametrize("runtime,freed", [(act.boxed_runtime, True),
                                           (lambda gm: make_boxed_func(gm.forward), False)])
def test_boxed_runtime_frees_each_input_at_its_last_use(runtime, freed):
    gm = fx.symbolic_trace(_probe_fn)
    run = runtime(gm)
    args = [torch.ones(4), torch.ones(4)]
    _REF[:] = [weakref.ref(args[0])]
    _ALIVE.clear()
    out = run(args)
    assert torch.equal(out, torch.full((4,), 3.0))
    assert _ALIVE == [not freed]
    assert (args == []) == freed


def test_wrap_compiler_gives_the_runtime_to_eager_compilers_only():
    gm = fx.symbolic_trace(_probe_fn)
    for eager in (nop, lambda g, _: g, lambda g, _: g.forward, lambda g, _: make_boxed_func(g.forward)):
        f = act.wrap_compiler(eager)(gm, None)
        assert hasattr(f, "graph_module"), eager
    own = make_boxed_func(lambda *a: a)
    assert act.wrap_compiler(lambda g, _: own)(gm, None) is own


def test_backward_takes_each_result_right_after_its_producer():
    """Every multi-result op of the backward (layer-norm backward, the
    recomputed layer norms, ...) is followed by its getitems, so no tuple
    holds a result longer than the simulator counts it."""
    model, inputs = gpt_block()
    compiled = act.aot_module(model, 1, rng="replay")
    compiled(*inputs).sum().backward()
    bw = compiled.partition.last.bw_module.graph
    nodes = list(bw.nodes)
    tuples = 0
    for i, n in enumerate(nodes):
        if n.op == "call_function" and n.target is operator.getitem:
            j = i - 1
            while nodes[j].op == "call_function" and nodes[j].target is operator.getitem and \
                    nodes[j].args[0] is n.args[0]:
                j -= 1
            assert nodes[j] is n.args[0], f"%{n.name} is not right after %{n.args[0].name}"
            tuples += nodes[j + 1] is n
    assert tuples >= 4


def test_measure_torch_command(tmp_path):
    user = tmp_path / "mymodel.py"
    user.write_text("import torch, torch.nn as nn\n"
                    "def build():\n"
                    "    torch.manual_seed(0)\n"
                    "    return nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 64)), "
                    "(torch.randn(512, 64),)\n")
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = here + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-m", "autoac", "measure-torch", f"{user}:build",
                        "--budget", "none", "--budget", "1", "--tolerance", "2"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["budget", "planned", "measured", "error", "%", "feasible", "<=",
                                "budget", "grads", "equal", "no", "scratch"]
    rows = [line.split() for line in lines[1:3]]
    assert rows[0][0] == "none" and rows[1][0] == "1"
    for row in rows:
        assert abs(float(row[3])) <= 2.0 and row[6] == "yes"
    assert rows[1][4] == "false"          # 1 byte is below the lowest peak
    bad = subprocess.run([sys.executable, "-m", "autoac", "measure-torch", f"{user}:nothing"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert bad.returncode == 1 and "has no function 'nothing'" in bad.stderr


class _PatchEmbed(nn.Module):
    """A ViT's patch embedding: an 8x8/8 convolution whose output is
    flattened and transposed into tokens, so the gradient reaching its
    convolution_backward is channels-last while its input is not."""

    def __init__(self, d=64):
        super().__init__()
        self.p = nn.Conv2d(3, d, 8, 8)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, 4, 128, dropout=0.0, batch_first=True), 1)
        self.h = nn.Linear(d, 10)

    def forward(self, x):
        return self.h(self.enc(self.p(x).flatten(2).transpose(1, 2)).mean(1))


def test_convolution_backward_copies_are_planned():
    """convolution_backward copies a grad_output laid out otherwise than it
    computes (here channels-last against an NCHW input: 4x64x4x4 f32 =
    16384 bytes inside the op, which made the step measure 1.5 % over its
    plan).  The door puts that copy in the graph as a clone, so the plan
    counts it: the measured peak equals the planned one exactly, at every
    budget, and the gradients are bit-equal."""
    torch.manual_seed(0)
    model, x = _PatchEmbed(), torch.randn(4, 3, 32, 32)
    for budget in (None, 1):
        m = act.measure_step(model, (x,), budget)
        assert m.grads_equal, m.unequal
        assert m.measured_peak == m.planned_peak, (budget, m.planned_peak, m.measured_peak)
    g = fx.Graph()
    go, inp, w = g.placeholder("go"), g.placeholder("inp"), g.placeholder("w")
    go.meta["val"] = torch.empty(4, 16, 64).transpose(1, 2).unflatten(2, (4, 4))
    inp.meta["val"] = torch.empty(4, 3, 32, 32)
    w.meta["val"] = torch.empty(64, 3, 8, 8)
    cb = g.call_function(torch.ops.aten.convolution_backward.default,
                         (go, inp, w, [64], [8, 8], [0, 0], [1, 1], False, [0, 0], 1,
                          [False, True, True]))
    g.output(cb)
    assert act._make_operands_contiguous(g) == 1
    clone = cb.args[0]
    assert clone.target is torch.ops.aten.clone.default and clone.args[0] is go
    assert clone.kwargs["memory_format"] is torch.contiguous_format
    # Laid out as the kernel computes (both NCHW): nothing to copy.
    assert act._make_operands_contiguous(g) == 0


def small_unet():
    """A small U-Net: strided convolutions down, transposed convolutions up
    (2x2/2 and 4x4/2, with biases), skip connections by concatenation, a
    batch norm; its input requires grad."""
    torch.manual_seed(0)

    class UNet(nn.Module):
        def __init__(self, c=8):
            super().__init__()
            self.d1 = nn.Conv2d(3, c, 3, padding=1)
            self.d2 = nn.Conv2d(c, 2 * c, 3, stride=2, padding=1)
            self.d3 = nn.Conv2d(2 * c, 4 * c, 3, stride=2, padding=1)
            self.u2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2)
            self.u1 = nn.ConvTranspose2d(4 * c, c, 4, stride=2, padding=1)
            self.bn = nn.BatchNorm2d(2 * c)
            self.out = nn.Conv2d(2 * c, 2, 1)

        def forward(self, x):
            a = torch.relu(self.d1(x))
            b = torch.relu(self.bn(self.d2(a)))
            u = torch.relu(self.u2(torch.relu(self.d3(b))))
            u = torch.relu(self.u1(torch.cat([u, b], 1)))
            return self.out(torch.cat([u, a], 1))

    return UNet(), (torch.randn(4, 3, 16, 16, requires_grad=True),)


def test_small_output_weight_gradients_are_said():
    """On two threads oneDNN's weight gradients into at most 8 output
    channels book per-thread space the model lacks: a CPU plan says so, on
    one thread it does not (they are exact there)."""
    saved = torch.get_num_threads()
    try:
        for threads, said in ((2, True), (1, False)):
            torch.set_num_threads(threads)
            torch.manual_seed(0)
            net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3))
            f = act.aot_module(net, None)
            f(torch.randn(2, 3, 8, 8)).sum().backward()
            assert ("1 convolution weight gradient(s) with at most 8 output channels"
                    in f.partition.last.warnings) == said
    finally:
        torch.set_num_threads(saved)


@torch1_only("oneDNN 3.12's transposed-convolution workspaces (torch 2.14) are not modelled yet")
def test_transposed_convolutions_measured_as_planned():
    """Transposed convolutions run ATen's column kernels (one column buffer
    per call, a row of ones for the bias: docs/cost-model.md): the U-Net's
    step measures its plan within 2 % at three budgets (one thread; before
    the model, 40 % below to 6 % above), and the .grad its input keeps
    from the first step is counted on both sides."""
    saved = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model, inputs = small_unet()
        low = act.measure_step(model, inputs, 1)
        assert not low.feasible
        _check(low, 1)
        ws = [s.get("workspace_bytes", 0) for s in low.report["timeline"]
              if s["op"] == "torch.aten.convolution"]
        # u1's columns: 8 outputs x 4x4 kernel x 8x8 input positions x 4 B
        # (and its row of ones, 16x16 x 4 B).
        assert 8 * 16 * 64 * 4 + 256 * 4 in ws
        mincut = low.report["baseline_peak_bytes"]["mincut"]
        for budget in ((low.planned_peak + mincut) // 2, None):
            _check(act.measure_step(model, inputs, budget), budget)
    finally:
        torch.set_num_threads(saved)


@pytest.mark.parametrize("loss_name", ["mse_loss", "smooth_l1_loss", "binary_cross_entropy"])
def test_user_loss_storage_is_reserved(loss_name):
    """A loss given to measure_step lives outside the graph through the
    backward, with its whole storage: on the CPU mse_loss and its kin return
    a 0-d view of their elementwise buffer.  The plan reserves what the
    loss holds, so the measured step is the plan's at three budgets and
    under a feasible one (an 8-layer MLP measured +5 % to +8 % before)."""
    import torch.nn.functional as F
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Sequential(nn.Linear(96, 96), nn.ReLU()) for _ in range(8)],
                          nn.Sigmoid())
    x, y = torch.randn(192, 96), torch.rand(192, 96)
    fn = getattr(F, loss_name)

    def loss(out):
        return fn(out, y)
    free = act.measure_step(model, (x,), budget=None, loss=loss, compare=False)
    low = act.measure_step(model, (x,), budget=1, loss=loss, compare=False)
    mid = (free.planned_peak + low.planned_peak) // 2
    for budget in (None, mid, 1):
        m = act.measure_step(model, (x,), budget=budget, loss=loss, compare=budget == mid)
        assert abs(m.measured_peak - m.planned_peak) <= 0.02 * m.planned_peak, m
        if budget == mid:
            assert m.feasible and m.measured_peak <= mid, m
            assert m.grads_equal, m.unequal


class _WithConstant(nn.Module):
    """A tensor made in forward becomes a graph constant (`_tensor_constant0`,
    a get_attr node; the export's torch.vtensor.literal) that recomputed ops
    read, as swin_t's relative position index is."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(64, 64)
        self.b = nn.Linear(64, 64)

    def forward(self, x):
        idx = torch.tensor([(7 * i) % 64 for i in range(64)])
        h = torch.relu(self.a(x))
        return self.b(torch.tanh(h[:, idx]) * h)


@pytest.mark.parametrize("budget", [None, 1])
def test_graph_constants_map_back_when_recomputed(budget):
    """swin_t on torch 2.x failed at every budget below none with 'report
    value ... is torch.vtensor.literal but FX node %_tensor_constant0 ...:
    name mapping out of step'; the constant is read under AOT autograd's fake
    mode.  Planned, split and measured, gradients bit-equal."""
    torch.manual_seed(0)
    m = act.measure_step(_WithConstant(), (torch.randn(128, 64),), budget=budget)
    assert m.grads_equal, m.unequal
    assert abs(m.measured_peak - m.planned_peak) <= 0.02 * m.planned_peak, m
