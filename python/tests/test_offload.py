"""Offload through the bindings (docs/planner.md, "Offload"): the options
`offload=` and `host_budget=`, the report's offload keys, and the PyTorch
door's refusal (it does not move saves to the host yet)."""
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


def test_door_refuses_offload():
    torch = pytest.importorskip("torch")
    from autoac import pytorch as act

    def f(x):
        return torch.tanh(torch.exp(x)).sum()

    compiled = act.aot_function(f, offload="auto")
    x = torch.randn(8, requires_grad=True)
    with pytest.raises(autoac.AutoacError, match="offload is not supported by the PyTorch door"):
        compiled(x).backward()
    # The door's default plans without offload and trains as before.
    plain = act.aot_function(f)
    plain(x).backward()
    assert x.grad is not None
