"""The door runs the backward in the order autoac simulated.

autoac's import moves backward ops that do not depend on a tangent (the
`clone`s AOT autograd inserts for an in-place ReLU6, read only by their
`hardtanh_backward`) to their first use; the simulator's peak assumes that
order, so the split must emit the backward in it (the report's timeline),
not in the joint graph's order, where every clone and the forward values it
reads would be held from the start of the backward."""
import warnings

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("functorch")
import torch.nn as nn  # noqa: E402
from functorch.compile import aot_module, default_partition, make_boxed_func  # noqa: E402

import autoac.pytorch as act  # noqa: E402

warnings.filterwarnings("ignore", message=".*boxed.*")


def relu6_net():
    torch.manual_seed(0)
    layers = []
    for _ in range(4):
        layers += [nn.Linear(32, 32), nn.ReLU6(inplace=True)]
    return nn.Sequential(*layers), torch.randn(8, 32)


def _bwd_calls(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function"]


@pytest.mark.parametrize("budget", [None, "1B"])
def test_backward_follows_simulated_order(budget):
    model, x = relu6_net()
    cm = act.aot_module(model, budget)
    cm(x).sum().backward()
    res = cm.partition.last
    calls = _bwd_calls(res.bw_module)
    clones = [n for n in calls if n.name.startswith("clone")]
    assert len(clones) == 4, [n.name for n in calls]
    for c in clones:
        # each clone is made right before its one user: nothing between
        # them allocates (getitem and views are free)
        i, users = calls.index(c), list(c.users)
        assert len(users) == 1 and "hardtanh_backward" in str(users[0].target)
        between = [n for n in calls[i + 1:calls.index(users[0])]
                   if not act._is_alias_op(n) and not n.meta.get("autoac_recomputed")]
        assert between == [], (c.name, [n.name for n in between])
    # the split's own backward nodes keep the timeline's relative order
    fname = res.report["functions"][0]["name"]
    rank = {n.name: r for n, r in act.simulated_order(res.report, fname, res.exported).items()}
    own = [rank[n.name] for n in calls if n.name in rank and not n.meta.get("autoac_recomputed")
           and not act._is_alias_op(n)]
    assert own == sorted(own)


def test_gradients_unchanged_by_order():
    model, x = relu6_net()
    ref_model, _ = relu6_net()
    ref = aot_module(ref_model, fw_compiler=lambda g, _: make_boxed_func(g.forward),
                     partition_fn=default_partition)
    ref(x).sum().backward()
    cm = act.aot_module(model, "1B")
    cm(x).sum().backward()
    for (name, p), q in zip(model.named_parameters(), ref_model.parameters()):
        assert torch.equal(p.grad, q.grad), name
