"""Tests of `python3 -m autoac export`."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("functorch")
import autoac  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-W", "ignore", "-m", "autoac", *args], env=env,
                          capture_output=True, text=True)


@pytest.mark.parametrize("model,extra,expect", [
    ("transformer", ["--layers", "2", "--d-model", "64", "--heads", "4", "--ffn", "128", "--seq", "16"],
     '"torch.aten.native_layer_norm"'),
    ("transformer-lm", ["--layers", "1", "--d-model", "32", "--heads", "2", "--ffn", "64", "--seq", "8"],
     '_softmax"'),   # torch.aten._softmax (1.13) or _safe_softmax (2.x)
    ("mlp", ["--layers", "3", "--d-model", "64"], '"torch.aten.addmm"'),
    ("resnet18", ["--image-size", "32"], '"torch.aten.convolution_backward"'),
    ("mobilenet_v2", ["--image-size", "32", "--eval"], '"torch.aten.hardtanh_backward"'),
])
def test_export_command_writes_plannable_mlir(tmp_path, model, extra, expect):
    out = tmp_path / "m.mlir"
    r = _run("export", model, "--batch", "2", "--out", str(out), *extra)
    assert r.returncode == 0, r.stderr
    assert f"autoac: wrote {out}" in r.stderr
    text = out.read_text()
    assert f"func.func @{model.replace('-', '_')}(" in text and "attributes {ac.joint}" in text
    assert expect in text
    rep = autoac.plan(text).report
    assert rep["saved_bytes"] > 0


def test_export_batch_sets_the_input_shape(tmp_path):
    out = tmp_path / "m.mlir"
    r = _run("export", "mlp", "--batch", "7", "--d-model", "16", "--layers", "1", "--out", str(out),
             "--plan", "--budget", "1GB")
    assert r.returncode == 0, r.stderr
    assert "%arg0: !torch.vtensor<[7,16],f32>" in out.read_text()
    assert "autoac: peak " in r.stderr


def test_export_bf16(tmp_path):
    out = tmp_path / "m.mlir"
    r = _run("export", "transformer", "--batch", "1", "--layers", "1", "--d-model", "32", "--heads", "2",
             "--ffn", "64", "--seq", "8", "--dtype", "bf16", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "%arg0: !torch.vtensor<[1,8,32],bf16>" in out.read_text()


def test_unknown_model_is_a_clean_error(tmp_path):
    r = _run("export", "no_such_model", "--out", str(tmp_path / "x.mlir"))
    assert r.returncode == 1
    assert r.stderr.startswith("autoac: error: unknown model 'no_such_model'")
    assert "Traceback" not in r.stderr


def test_models_lists_builtin_and_torchvision():
    r = _run("models")
    assert r.returncode == 0
    names = r.stdout.split()
    assert {"transformer", "mlp", "resnet18", "mobilenet_v2"} <= set(names)
