"""Offload through the bindings (docs/planner.md, "Offload"): the options
`offload=` and `host_budget=`, the report's offload keys, and the PyTorch
door's offload (copies to host memory in the forward, back before the
first use in the backward)."""
import json
import os

import pytest

import autoac

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# a = exp(x) is ac.save, 256 bytes, read by the backward; the forward's peak
# (17160 B) is after its last forward use: offloaded, 16904 B.
GRAPH = os.path.join(ROOT, "test", "lit", "exec", "offload.mlir")


@pytest.fixture
def fast_link(tmp_path):
    path = tmp_path / "link.json"
    path.write_text(json.dumps({"@device": {"host_bandwidth": 1e30, "host_latency": 0}}))
    return str(path)


def test_offload_auto_meets_a_budget_recomputing_cannot(fast_link):
    r = autoac.plan_file(GRAPH, budget=16904, cost_table=fast_link)
    rep = r.report
    assert rep["feasible"] and rep["peak_bytes"] == 16904
    assert rep["offloaded_bytes"] == 256 and rep["host_peak_bytes"] == 256
    assert rep["stall_seconds"] == 0 and rep["copy_seconds"] > 0
    assert [e["value"] for e in rep["functions"][0]["offloaded"]] == ["%1"]
    assert "{ac.offload}" in r.ir and "{ac.prefetch}" in r.ir


def test_offload_off_and_host_budget(fast_link):
    off = autoac.plan_file(GRAPH, budget=16904, cost_table=fast_link, offload="off")
    small = autoac.plan_file(GRAPH, budget=16904, cost_table=fast_link, host_budget=255)
    for r in (off, small):
        assert r.report["peak_bytes"] == 17160 and r.report["offloaded_bytes"] == 0
        assert r.report["functions"][0]["offloaded"] == []
    with pytest.raises(autoac.AutoacError, match="bad value for option 'offload'"):
        autoac.plan_file(GRAPH, offload="sometimes")
    with pytest.raises(autoac.AutoacError, match="bad value for option 'host-budget'"):
        autoac.plan_file(GRAPH, host_budget="lots")


def _door_run(offload, budget, link=None):
    """One step through the door: dropout's mask (a random op, never
    recomputed under rng="keep") is saved for the backward, then the forward
    makes a 1024x1024 transient (outer(x, x), 4 MiB) after the mask's last
    forward use, so the mask on the host lowers the forward's peak."""
    torch = pytest.importorskip("torch")
    from autoac import pytorch as act
    torch.manual_seed(0)
    w = torch.randn(32, 32, requires_grad=True)

    def f(x, w):
        a = torch.nn.functional.dropout(x @ w, p=0.5, training=True)
        t = torch.outer(x.flatten(), x.flatten())
        return a.sum() + t.sum()

    x = torch.randn(32, 32)
    options = {"cost_table": link} if link else {}
    compiled = act.aot_function(f, budget=budget, device="h100", offload=offload, **options)
    torch.manual_seed(1)
    loss = compiled(x, w)
    loss.backward()
    return loss.detach(), [w.grad.clone()], compiled.partition.last


def test_door_offloads_and_gradients_stay_bit_equal(fast_link):
    torch = pytest.importorskip("torch")
    # The lowest peak recomputing reaches, then offload at an unreachable
    # budget: lower, with a on the host.
    _, ref_grads, off = _door_run("off", 1, fast_link)
    loss, grads, on = _door_run("auto", 1, fast_link)
    assert off.report["offloaded_bytes"] == 0 and off.offloaded == []
    assert on.report["offloaded_bytes"] > 0 and on.offloaded
    assert on.report["peak_bytes"] < off.report["peak_bytes"]
    assert sorted(on.offloaded) == sorted(
        on.exported.node_of(e["value"]).name for e in on.report["functions"][0]["offloaded"])
    # Same values, bit for bit: a copy to host memory and back changes none.
    for a, b in zip(grads, ref_grads):
        assert torch.equal(a, b)
    # The forward returns a host copy of each offloaded save, made right
    # after it; the backward copies each back right before its first user.
    to_copy = torch.ops.aten._to_copy.default
    fw_copies = [n for n in on.fw_module.graph.nodes if n.target is to_copy]
    assert sorted(n.args[0].name for n in fw_copies) == sorted(on.offloaded)
    out = next(n for n in on.fw_module.graph.nodes if n.op == "output")
    for n in fw_copies:
        assert n.kwargs["device"] == torch.device("cpu") and n.kwargs["non_blocking"]
        assert n.kwargs["pin_memory"] is False  # CPU tensors: nothing to pin
        assert n in out.args[0] and n.args[0] not in out.args[0]
        assert n.prev is n.args[0]
    bw_copies = [n for n in on.bw_module.graph.nodes if n.target is to_copy]
    assert len(bw_copies) == len(fw_copies)
    for n in bw_copies:
        assert n.args[0].op == "placeholder" and n.kwargs["device"] == torch.device("cpu")
        assert n.next in n.users
        assert list(n.args[0].users) == [n]


def test_door_offload_off_by_default():
    _, _, res = _door_run(None, 1)
    assert res.report["offloaded_bytes"] == 0 and res.offloaded == []
