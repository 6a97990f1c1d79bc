"""Tests of autoac.pytorch.partition_fn: training with autoac's plans inside
functorch's AOT autograd, against functorch's default_partition.

Tolerances.  Against default_partition the comparison is exact
(torch.equal): both run the same joint graph's ATen ops on the CPU with the
same inputs; a recomputed op sees bit-identical inputs and the CPU kernels
are deterministic, so the recomputed activations, hence every gradient and
updated weight, are bit-identical.  Dropout stays on (p=0.1): the RNG op
(bernoulli_) is never recomputed, so seeding before each step gives both the
same masks.  Against eager PyTorch (no AOT) the comparison allows
rtol=1e-5/atol=1e-6: eager autograd may order gradient accumulation
differently, which changes float rounding, not results.
"""
import copy
import warnings

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("functorch")
import torch.nn as nn  # noqa: E402
from functorch.compile import aot_module, default_partition, make_boxed_func  # noqa: E402

import autoac  # noqa: E402
import autoac.pytorch as act  # noqa: E402

warnings.filterwarnings("ignore", message=".*boxed.*")


def mlp():
    return nn.Sequential(*[nn.Sequential(nn.Linear(64, 64), nn.GELU()) for _ in range(4)]), \
        (torch.randn(16, 64),)


def transformer():
    return nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1), (torch.randn(10, 3, 32),)


def cnn():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10)), \
        (torch.randn(4, 3, 16, 16),)


def _boxed(gm, _):
    return make_boxed_func(gm.forward)


class _CaptureForward:
    """A forward compiler that keeps the last forward's inputs and outputs."""

    def __init__(self):
        self.args, self.outs = None, None

    def __call__(self, gm, _inputs):
        f = gm.forward

        def run(args):
            self.args = list(args)
            self.outs = f(*args)
            return self.outs
        run._boxed_call = True
        return run


def _train(factory, budget=None, steps=3, lr=0.05, **options):
    torch.manual_seed(0)
    model, inputs = factory()
    reference = copy.deepcopy(model)
    eager = copy.deepcopy(model)
    cap = _CaptureForward()
    ours = act.aot_module(model, budget, fw_compiler=cap, bw_compiler=_boxed, **options)
    theirs = aot_module(reference, fw_compiler=_boxed, bw_compiler=_boxed, partition_fn=default_partition)
    # One call each compiles (plans) before the compared steps: torch 2.x's
    # tracing of the reference draws from the global generator, ours does
    # not, so the streams are compared on compiled steps only.  Same seed,
    # same model state on both sides; the gradients are dropped.
    for compiled, m in ((ours, model), (theirs, reference)):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(99)
            compiled(*inputs).sum().backward()
        for p in m.parameters():
            p.grad = None
    for step in range(steps):
        torch.manual_seed(100 + step)
        loss = ours(*inputs).sum()
        loss.backward()
        after = torch.rand(16)
        torch.manual_seed(100 + step)
        ref_loss = theirs(*inputs).sum()
        ref_loss.backward()
        # The random stream after the step is eager PyTorch's: torch 2.x's
        # default_partition draws more than eager does (it reruns a random
        # op), ours never does (nor does torch 1.13's).
        torch.manual_seed(100 + step)
        eager(*inputs).sum().backward()
        eager.zero_grad(set_to_none=True)
        assert torch.equal(after, torch.rand(16)), f"step {step}: the global random stream differs"
        assert torch.equal(loss, ref_loss)
        for (name, p), q in zip(model.named_parameters(), reference.parameters()):
            assert torch.equal(p.grad, q.grad), f"step {step}: gradient of {name} differs"
        with torch.no_grad():
            for p in list(model.parameters()) + list(reference.parameters()):
                p -= lr * p.grad
                p.grad = None
    for (name, b), c in zip(model.named_buffers(), reference.buffers()):
        assert torch.equal(b, c), f"buffer {name} differs"
    return model, eager, inputs, ours.partition, cap


def _saved_bytes(cap, n_outputs=1):
    """Bytes of what the forward returns for the backward, each storage once,
    primal inputs (parameters, buffers, data) excluded: the contract's
    saved_bytes."""
    return act.saved_tensor_bytes(cap.outs[n_outputs:], exclude=cap.args)


@pytest.mark.parametrize("factory", [mlp, transformer, cnn])
def test_default_budget_matches_default_partition_and_saved_bytes(factory):
    model, _, _, part, cap = _train(factory)
    res = part.last
    assert len(part.results) == 1
    assert res.unplanned_recomputed == []
    assert _saved_bytes(cap, res.exported.num_fwd_outputs) == res.report["saved_bytes"] > 0
    # the report's saved values are what the forward returns, in order
    n_act = len(res.saved) - len([s for s in res.saved if s.startswith("primals_")])
    assert [e["value"] for e in res.report["functions"][0]["saved"]] == res.saved_values[:n_act]


@pytest.mark.parametrize("factory", [mlp, transformer, cnn])
def test_tight_budget_recomputes_more_and_still_matches(factory):
    _, _, _, free_part, _ = _train(factory, steps=1)
    free = free_part.last.report
    budget = free["static_bytes"] + (free["peak_bytes"] - free["static_bytes"]) // 2
    _, _, _, part, cap = _train(factory, budget=budget, steps=2)
    res = part.last
    assert res.report["budget_bytes"] == budget
    assert res.unplanned_recomputed == []
    assert _saved_bytes(cap, res.exported.num_fwd_outputs) == res.report["saved_bytes"]
    assert res.report["saved_bytes"] <= free["saved_bytes"]
    assert res.report["peak_bytes"] <= free["peak_bytes"]
    if res.report["saved_bytes"] < free["saved_bytes"]:
        assert len(res.recomputed) > len(free_part.last.recomputed)


def test_transformer_budget_drops_saves():
    """On the encoder layer a budget between the static part and the min-cut
    peak makes greedy drop saves; the backward recomputes them."""
    _, _, _, free_part, _ = _train(transformer, steps=1)
    free = free_part.last.report
    budget = free["peak_bytes"] - 8 * 1024
    _, _, _, part, cap = _train(transformer, budget=budget, steps=2)
    res = part.last
    assert res.report["saved_bytes"] < free["saved_bytes"]
    assert _saved_bytes(cap, res.exported.num_fwd_outputs) == res.report["saved_bytes"]
    compute = [n for n in res.recomputed if not n.startswith(("t", "view", "detach", "transpose", "getitem",
                                                              "_reshape", "expand", "permute"))]
    assert compute, res.recomputed


@pytest.mark.parametrize("strategy", ["save-all", "mincut", "knapsack", "greedy"])
def test_strategies_pass_through(strategy):
    _, _, _, part, cap = _train(transformer, steps=1, strategy=strategy)
    res = part.last
    assert res.report["strategy"] == strategy
    assert _saved_bytes(cap, res.exported.num_fwd_outputs) == res.report["saved_bytes"]
    assert res.unplanned_recomputed == []


def test_matches_eager_within_tolerance():
    torch.manual_seed(0)
    model, inputs = cnn()
    eager = copy.deepcopy(model)
    compiled = act.aot_module(model, budget=1)   # as little saved as possible
    loss = compiled(*inputs).sum()
    loss.backward()
    eager_loss = eager(*inputs).sum()
    eager_loss.backward()
    torch.testing.assert_close(loss, eager_loss, rtol=1e-5, atol=1e-6)
    for p, q in zip(model.parameters(), eager.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-5, atol=1e-6)


def test_backward_recomputes_right_before_first_use():
    _, _, _, part, _ = _train(mlp, steps=1)
    res = part.last
    bw = res.bw_module.graph
    nodes = list(bw.nodes)
    recomputed = [n for n in nodes if n.meta.get("autoac_recomputed")]
    assert {"gelu", "gelu_1", "gelu_2"} <= {n.name for n in recomputed}
    pos = {n: i for i, n in enumerate(nodes)}
    for n in recomputed:
        first_use = min(pos[u] for u in n.users)
        # nothing but other recomputed or alias nodes between a copy and its first use
        between = nodes[pos[n] + 1:first_use]
        assert all(b.meta.get("autoac_recomputed") or act._is_alias_op(b) for b in between), \
            (n.name, [b.name for b in between])
    # the forward no longer computes activations only the backward needs
    fw_ops = {n.name for n in res.fw_module.graph.nodes}
    assert not any(name.startswith("detach") for name in fw_ops)


def test_partition_fn_with_aot_function_on_a_plain_function():
    from functorch.compile import aot_function
    w1 = nn.Parameter(torch.randn(32, 32) / 6)
    w2 = nn.Parameter(torch.randn(32, 32) / 6)
    x = torch.randn(8, 32)

    def f(x, w1, w2):
        return torch.tanh(torch.tanh(x @ w1) @ w2).sum()
    # torch 2.x hands a partitioner fake tensors (no nn.Parameter): say which
    pf = act.partition_fn(budget=None, params=(1, 2))
    compiled = aot_function(f, fw_compiler=_boxed, bw_compiler=_boxed, partition_fn=pf)
    loss = compiled(x, w1, w2)
    loss.backward()
    g1, g2 = w1.grad.clone(), w2.grad.clone()
    w1.grad = w2.grad = None
    f(x, w1, w2).backward()
    torch.testing.assert_close(g1, w1.grad, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(g2, w2.grad, rtol=1e-5, atol=1e-6)
    head = next(line for line in pf.last.mlir.splitlines() if "func.func" in line)
    assert head.count("{ac.param}") == 2          # the nn.Parameter arguments


def test_unreachable_budget_warns_and_strict_raises():
    _, _, _, part, _ = _train(mlp, budget="1KB", steps=1)
    assert "below the lowest peak autoac" in part.last.warnings
    assert not part.last.report["feasible"]
    torch.manual_seed(0)
    model, inputs = mlp()
    compiled = act.aot_module(model, "1KB", strict=True)
    with pytest.raises(autoac.AutoacError, match="below the lowest peak autoac"):
        compiled(*inputs)


def test_split_joint_rejects_a_backward_value():
    from functorch.compile import aot_function
    captured = {}

    def grab(joint, inputs, **kwargs):
        captured["g"] = joint
        captured["kw"] = kwargs
        return default_partition(joint, inputs, **kwargs)
    w = torch.randn(4, 4, requires_grad=True)
    aot_function(lambda w: (w * w).sum(), fw_compiler=_boxed, partition_fn=grab)(w)
    joint = captured["g"]
    tangent_user = next(n for n in joint.graph.nodes if n.op == "call_function"
                        and any(a.op == "placeholder" and "tangents" in a.name for a in n.all_input_nodes))
    with pytest.raises(autoac.AutoacError, match="is not a forward value"):
        act.split_joint(joint, [tangent_user])
