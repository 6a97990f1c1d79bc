"""The door and oneDNN's instruction set (autoac/pytorch/_onednn.py, docs/python.md
"CPU kernels"): the cpu profiles model oneDNN's AVX2 kernels, so importing
autoac.pytorch limits oneDNN to AVX2 before any convolution runs; where it
cannot (a convolution ran first) or must not (AUTOAC_ONEDNN_ISA=native), a
CPU plan says its convolution workspaces may differ.  Each scenario runs in
its own process: oneDNN fixes its instruction set once per process."""
import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("functorch")
act = pytest.importorskip("autoac.pytorch")

AVX2_OR_LESS = {"sse41", "avx", "avx2"}

# Runs a convolution (or not) before importing the door, then a CPU plan
# through aot_function; prints what the door did and what the plan says.
SCENARIO = r"""
import json, sys, warnings, torch
conv = lambda: torch.nn.functional.conv2d(torch.randn(2, 16, 8, 8), torch.randn(16, 16, 3, 3))
if sys.argv[1] == "conv-first":
    conv()
import autoac.pytorch as act
conv()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    w = torch.randn(8, 8, requires_grad=True)
    f = act.aot_function(lambda x, w: torch.tanh(x @ w).sum(), budget=None)
    f(torch.randn(4, 8), w).backward()
isa = act.onednn_isa()
print(json.dumps({"status": isa.status, "effective": isa.effective, "matches": isa.matches_model,
                  "warnings": f.partition.last.warnings,
                  "runtime_warnings": [str(c.message) for c in caught
                                       if issubclass(c.category, RuntimeWarning)]}))
"""

# oneDNN's own choice on this CPU: a convolution, then its effective ISA.
# The module is loaded by its path: importing autoac.pytorch (its package)
# would limit oneDNN first.
NATIVE = r"""
import importlib.util, os, sys, torch, autoac
path = os.path.join(os.path.dirname(autoac.__file__), "pytorch", "_onednn.py")
spec = importlib.util.spec_from_file_location("autoac_onednn_alone", path)
_onednn = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(_onednn)
torch.nn.functional.conv2d(torch.randn(2, 16, 8, 8), torch.randn(16, 16, 3, 3))
print(_onednn.effective_isa() or "")
"""


def run(script, *args, env=None):
    full = dict(os.environ, **(env or {}))
    full.pop("ONEDNN_MAX_CPU_ISA", None)
    full.pop("DNNL_MAX_CPU_ISA", None)
    out = subprocess.run([sys.executable, "-c", script, *args], env=full, check=True,
                         capture_output=True, text=True, timeout=300).stdout
    return out.strip().splitlines()[-1] if out.strip() else ""


@pytest.fixture(scope="module")
def native():
    """oneDNN's ISA here when nobody limits it ("" when unreadable)."""
    return run(NATIVE)


def test_this_session_runs_the_modelled_kernels():
    """conftest imports the door first, as users do: every convolution the
    workspace tests measure runs AVX2 kernels or less."""
    isa = act.onednn_isa()
    assert isa.matches_model, isa
    assert isa.warning == ""
    if isa.effective is not None:
        assert isa.effective in AVX2_OR_LESS, isa


def test_door_imported_first_pins_and_plans_without_warning(native):
    got = json.loads(run(SCENARIO, "door-first"))
    assert got["matches"] and got["status"] in ("pinned", "requested"), got
    if got["effective"] is not None:
        assert got["effective"] in AVX2_OR_LESS
    assert "oneDNN" not in got["warnings"] and got["runtime_warnings"] == []


def test_convolution_before_the_door_is_said(native):
    """Too late to limit oneDNN: on a CPU with more than AVX2 the status says
    so and the CPU plan carries a warning naming the kernels and the fix;
    on an AVX2 CPU the kernels are the modelled ones anyway."""
    got = json.loads(run(SCENARIO, "conv-first"))
    if native and native not in AVX2_OR_LESS:
        assert got["status"] == "too-late" and not got["matches"], got
        assert got["effective"] == native
        assert f"oneDNN runs {native} kernels" in got["warnings"]
        assert "import autoac.pytorch before running any convolution" in got["warnings"]
        assert len(got["runtime_warnings"]) == 1
    else:
        # torch 2.x cannot tell an AVX2 CPU from its own limit: either says so
        assert got["status"] in ("avx2", "pinned") and got["matches"], got
        assert "oneDNN" not in got["warnings"]


def test_native_keeps_onednn_choice_and_says_so(native):
    got = json.loads(run(SCENARIO, "door-first", env={"AUTOAC_ONEDNN_ISA": "native"}))
    if native and native not in AVX2_OR_LESS:
        assert got["status"] == "native" and got["effective"] == native, got
        assert "AUTOAC_ONEDNN_ISA=native" in got["warnings"]
    else:
        assert got["matches"] and "oneDNN" not in got["warnings"], got


def test_a_failing_query_is_said_not_raised(monkeypatch):
    """Asking oneDNN must never break the door's import: a failure becomes
    status "unknown", and CPU plans carry a warning saying why."""
    from autoac.pytorch import _onednn

    def broken():
        raise OSError("no oneDNN here")

    monkeypatch.setattr(_onednn, "pin", broken)
    monkeypatch.setattr(_onednn, "STATE", None)
    isa = _onednn.state()
    assert isa.status == "unknown" and not isa.matches_model
    assert "could not limit oneDNN to AVX2 (OSError: no oneDNN here)" in isa.warning
