"""The torch-mlir and IREE flows run for real (docs/flows.md): torch 2.x's
joint graph imported by torch-mlir's FX importer, lowered by torch-mlir-opt,
planned by autoac, then (a) compiled by auto-ac-lower-cpu and run by
ac-measure, (b) compiled by iree-compile for llvm-cpu and run by
iree.runtime.  Skipped, with the reason, where torch-mlir or IREE is not
installed (scripts/mlir-env.sh makes the Python that has them)."""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("AUTOAC_BUILD") or os.path.join(ROOT, "build")

torch = pytest.importorskip("torch", reason="torch is not installed")
if not torch.__version__.startswith("2"):
    pytest.skip("the torch-mlir flows need torch 2.x", allow_module_level=True)
pytest.importorskip("torch_mlir.fx", reason="torch-mlir is not installed (scripts/mlir-env.sh)")

from autoac.export.torch_mlir import export_joint_torch_mlir  # noqa: E402
from autoac.flows.models import flow_model  # noqa: E402

TORCH_MLIR_OPT = os.path.join(os.path.dirname(sys.executable), "torch-mlir-opt")


def _export(tmp_path, name):
    model, inputs = flow_model(name)
    im = export_joint_torch_mlir(model, inputs, name=name.replace("-", "_"))
    p = tmp_path / f"{name}.mlir"
    p.write_text(im.text)
    return p, im


def test_names_map_back_to_fx_nodes(tmp_path):
    """Every tensor value the report names maps to the FX node whose op the
    importer made there."""
    from autoac import plan
    from autoac.export.torch_mlir import check_plan_names
    p, im = _export(tmp_path, "gpt-block")
    r = plan(im.text, source_name=str(p), budget="1.22MB")
    nodes = check_plan_names(im, r.report)
    assert nodes["saved"], "the plan saves something"
    assert nodes["recomputed"], "the plan recomputes something at 1.22 MB"
    for n in nodes["saved"] + nodes["recomputed"]:
        assert n.op == "call_function"
    assert r.report["unknown_ops"] == []


@pytest.mark.parametrize("name,budget", [("mlp", "5.26MB"), ("cnn", "416KB"), ("gpt-block", "1.22MB")])
def test_cpu_flow_exact(tmp_path, name, budget):
    """torch-mlir-opt to linalg, autoac, auto-ac-lower-cpu, run: the planned
    program prints the unplanned one's results and peaks at the plan's
    figure (within 2 %; to the byte here)."""
    if not os.path.exists(TORCH_MLIR_OPT):
        pytest.skip("no torch-mlir-opt next to this Python")
    p, _ = _export(tmp_path, name)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ac-measure"), str(p),
                          "--build", BUILD, "--torch-mlir-opt", TORCH_MLIR_OPT, "--budget", budget,
                          "--bytes", "--max-error", "2"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "results equal: yes" in out.stdout
    rows = re.findall(r"^  (original|planned) .*?(\d+)\s+(\d+)\s+([+-][\d.]+)%", out.stdout, re.M)
    assert len(rows) == 2, out.stdout
    for _, sim, meas, err in rows:
        assert abs(float(err)) <= 2.0, out.stdout
    assert int(rows[1][2]) < int(rows[0][2]), "the plan lowers the measured peak"


def test_iree_flow_gpt_block(tmp_path):
    """IREE: gradients equal PyTorch's at every budget, and IREE's measured
    peak (local-sync allocator statistics) falls with the budget, below the
    unplanned (save-all) program's."""
    pytest.importorskip("iree.runtime", reason="iree-base-runtime is not installed")
    from autoac.flows import iree_flow
    out = iree_flow("gpt-block", ["1.35MB", "1.29MB", "1.22MB"], work=str(tmp_path), log=lambda *a: None)
    rows = out["rows"]
    assert [r["plan"] for r in rows] == ["save-all", "greedy @ 1.35MB", "greedy @ 1.29MB",
                                         "greedy @ 1.22MB"]
    assert all(r["grads_ok"] for r in rows), rows
    peaks = [r["iree_peak"] for r in rows]
    assert peaks == sorted(peaks, reverse=True) and len(set(peaks)) == len(peaks), peaks
    plans = [r["plan_peak"] for r in rows]
    assert plans == sorted(plans, reverse=True), plans


def test_importer_error_without_torch_mlir(tmp_path):
    """`--importer torch-mlir` under a Python without torch-mlir: one error
    line naming what to install (run with Debian's python3, which lacks it)."""
    if subprocess.run(["/usr/bin/python3", "-c", "import torch_mlir"], capture_output=True).returncode == 0:
        pytest.skip("/usr/bin/python3 has torch-mlir")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    out = subprocess.run(["/usr/bin/python3", "-m", "autoac", "export", "mlp", "--layers", "1",
                          "--d-model", "8", "--importer", "torch-mlir", "-o", str(tmp_path / "x.mlir")],
                         capture_output=True, text=True, env=env)
    assert out.returncode != 0
    assert "--importer torch-mlir: torch-mlir is not importable" in out.stderr
    assert "scripts/mlir-env.sh" in out.stderr
    assert not (tmp_path / "x.mlir").exists()


@pytest.mark.parametrize("name,budget", [("mlp", "5.26MB"), ("cnn", "416KB")])
def test_iree_flow_gradients(tmp_path, name, budget):
    """IREE on the MLP and the CNN (batch norm: its running statistics, the
    forward's first outputs, checked against PyTorch's buffers too): every
    output equal to PyTorch's, the plan's saved set smaller than save-all's.
    IREE's peak is recorded, not asserted: on these two it does not fall
    with the plan (docs/flows.md)."""
    pytest.importorskip("iree.runtime", reason="iree-base-runtime is not installed")
    from autoac.flows import iree_flow
    out = iree_flow(name, [budget], work=str(tmp_path), log=lambda *a: None)
    save_all, planned = out["rows"]
    assert save_all["grads_ok"] and planned["grads_ok"], out["rows"]
    assert planned["saved_bytes"] < save_all["saved_bytes"]
    assert planned["iree_peak"] > 0 and save_all["iree_peak"] > 0


def test_choose_measured_never_above_save_all_and_monotone():
    """The flow's choice by measurement (flows.choose_measured): at each
    budget, the lowest measured IREE peak among save-all and the plans made
    at that budget or a larger one."""
    from autoac.flows import choose_measured
    rows = [dict(plan="save-all", budget=None, iree_peak=600, grads_ok=True, vmfb="s"),
            dict(plan="greedy @ 2KB", budget="2KB", iree_peak=700, grads_ok=True, vmfb="a"),
            dict(plan="greedy @ 1KB", budget="1KB", iree_peak=500, grads_ok=True, vmfb="b"),
            dict(plan="greedy @ 1.5KB", budget="1.5KB", iree_peak=550, grads_ok=False, vmfb="c"),
            dict(plan="greedy @ 0.5KB", budget="0.5KB", iree_peak=500, grads_ok=True, vmfb="e"),
            dict(plan="greedy @ 1B", budget="1B", iree_peak=520, grads_ok=True, vmfb="d")]
    choose_measured(rows)
    got = {r["plan"]: (r["chosen"], r["chosen_iree_peak"], r["fallback"]) for r in rows}
    assert got["greedy @ 2KB"] == ("save-all", 600, True)
    assert got["greedy @ 1.5KB"] == ("save-all", 600, True)    # its gradients differ: never chosen
    assert got["greedy @ 1KB"] == ("greedy @ 1KB", 500, False)
    assert got["greedy @ 0.5KB"] == ("greedy @ 0.5KB", 500, False)    # a tie: its own
    assert got["greedy @ 1B"] == ("greedy @ 0.5KB", 500, True)
    assert rows[-1]["chosen_vmfb"] == "e"


USER_MODEL = '''
import torch, torch.nn as nn

class Block(nn.Module):
    """Not one of autoac.flows.models: layer norm, tanh, a sigmoid gate."""
    def __init__(self, d):
        super().__init__()
        self.a = nn.Linear(d, d)
        self.n = nn.LayerNorm(d)
        self.b = nn.Linear(d, d)

    def forward(self, x):
        h = torch.tanh(self.n(self.a(x)))
        return torch.sigmoid(self.b(h)) * h + x

class Net(nn.Module):
    def __init__(self, d=64, depth=4):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(d) for _ in range(depth)])

    def forward(self, x):
        return self.blocks(x)

def make():
    torch.manual_seed(1)
    return Net(), (torch.randn(256, 64),)
'''


def test_iree_flow_user_model_three_budgets(tmp_path):
    """A model given as FILE.py:NAME, at no budget, a middle one and the
    lowest: every program's outputs equal to PyTorch's, the plan's saved set
    falls with the budget, and the program the flow hands over peaks (as
    IREE measures it) never above save-all's and never higher at a lower
    budget."""
    pytest.importorskip("iree.runtime", reason="iree-base-runtime is not installed")
    from autoac.flows import iree_flow, lower_to_linalg, plan_split, resolve_model
    src = tmp_path / "user_net.py"
    src.write_text(USER_MODEL)
    spec = f"{src}:make"
    model, inputs, name = resolve_model(spec)
    im = export_joint_torch_mlir(model, inputs, name="probe")
    (tmp_path / "t.mlir").write_text(im.text)
    lower_to_linalg(str(tmp_path / "t.mlir"), str(tmp_path / "l.mlir"))
    start = plan_split(str(tmp_path / "l.mlir"), str(tmp_path / "p0.mlir"), None)
    low = plan_split(str(tmp_path / "l.mlir"), str(tmp_path / "p1.mlir"), "1B")
    assert low["peak_bytes"] < start["peak_bytes"], (start["peak_bytes"], low["peak_bytes"])
    mid = str((start["peak_bytes"] + low["peak_bytes"]) // 2)
    out = iree_flow(spec, [None, mid, "1B"], work=str(tmp_path / "w"), log=lambda *a: None)
    rows = out["rows"]
    assert [r["plan"] for r in rows] == ["save-all", "greedy", f"greedy @ {mid}", "greedy @ 1B"]
    assert all(r["grads_ok"] for r in rows), [(r["plan"], r["worst_grad_error"]) for r in rows]
    saved = [r["saved_bytes"] for r in rows]
    assert saved == sorted(saved, reverse=True) and saved[-1] < saved[0]
    chosen = [r["chosen_iree_peak"] for r in rows]
    assert chosen == sorted(chosen, reverse=True), chosen
    for r in rows[1:]:
        assert r["chosen_iree_peak"] <= rows[0]["iree_peak"]
        assert r["chosen_iree_peak"] == min(x["iree_peak"] for x in rows[:rows.index(r) + 1]
                                            if x["grads_ok"])
