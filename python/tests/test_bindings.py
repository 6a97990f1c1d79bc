"""Tests of the ctypes bindings over libautoac.so."""
import os

import pytest

import autoac

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "examples", "corpus")
MLP = os.path.join(CORPUS, "mlp_relu_8.mlir")


def test_plan_mlp_report_and_ir():
    r = autoac.plan_file(MLP, strategy="mincut")
    assert r.report["version"] == 1
    assert r.report["strategy"] == "mincut"
    fn = r.report["functions"][0]
    assert fn["name"] == "mlp_relu_8"
    # 42 forward and 163 backward ops, counted by hand (test/lit/corpus).
    assert fn["phases"] == {"fwd": 42, "bwd": 163}
    # 8 relu-sized activations of 256*2048*4 bytes.
    assert r.report["saved_bytes"] == 8 * 256 * 2048 * 4
    assert "func.func @mlp_relu_8_fwd" in r.ir
    assert "func.func @mlp_relu_8_bwd" in r.ir


def test_budget_lowers_peak_and_reports_feasibility():
    free = autoac.plan_file(MLP)
    tight = autoac.plan_file(MLP, budget=free.report["peak_bytes"] - 4 * 2**20)
    assert tight.report["budget_bytes"] == free.report["peak_bytes"] - 4 * 2**20
    assert tight.report["peak_bytes"] <= free.report["peak_bytes"]
    assert tight.report["feasible"] == (tight.report["peak_bytes"] <= tight.report["budget_bytes"])


def test_unreachable_budget_warns_and_strict_raises():
    r = autoac.plan_file(MLP, budget="1MB")
    assert not r.report["feasible"]
    assert "below the lowest peak autoac" in r.warnings
    with pytest.raises(autoac.AutoacError, match="below the lowest peak autoac"):
        autoac.plan_file(MLP, budget="1MB", strict=True)


def test_bad_option_value_raises_with_quoted_value():
    with pytest.raises(autoac.AutoacError, match="invalid size 'lots'"):
        autoac.plan_file(MLP, budget="lots")
    with pytest.raises(autoac.AutoacError, match="unknown option 'colour'"):
        autoac.plan_file(MLP, colour="red")


def test_bad_ir_raises_with_location():
    text = """func.func @f(%x: tensor<?xf32>) -> (tensor<?xf32> {ac.output}) attributes {ac.joint} {
  return %x : tensor<?xf32>
}"""
    with pytest.raises(autoac.AutoacError, match=r"bad.mlir:1:1: error: dimension 0 of argument #0 of '@f' \(arg0\.0\) is dynamic and has no bound"):
        autoac.plan(text, source_name="bad.mlir")


def test_unverified_ir_raises_the_verifier_error():
    # The parser verifies what it parsed; nothing verifies it a second time.
    text = """func.func @f(%x: tensor<4xf32>) -> (tensor<8xf32> {ac.output}) attributes {ac.joint} {
  return %x : tensor<4xf32>
}"""
    with pytest.raises(autoac.AutoacError, match=r"bad.mlir:2:3: error: type of return operand 0"):
        autoac.plan(text, source_name="bad.mlir")


def test_annotate_mode_keeps_structure():
    r = autoac.plan_file(MLP, mode="annotate")
    assert "mlp_relu_8_fwd" not in r.ir
    assert "ac.saved" in r.ir


# Hostile input (issue 13).

def test_option_values_with_nul_are_refused(tmp_path):
    # C strings end at NUL: "1KB\x00junk" was taken as 1KB, and a report path
    # "r.json\x00..." wrote r.json.
    with pytest.raises(autoac.AutoacError, match="option 'budget' contains a NUL"):
        autoac.plan_file(MLP, budget="1KB\x00junk")
    target = tmp_path / "r.json"
    with pytest.raises(autoac.AutoacError, match="option 'report' contains a NUL"):
        autoac.plan_file(MLP, report=str(target) + "\x00.other")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_invalid_utf8_names_raise_autoac_error():
    # A function name that is not UTF-8: a clear AutoacError naming the
    # problem (was UnicodeDecodeError, or "out of memory" from the report).
    text = ('func.func @"f\\FFx"(%x: tensor<4xf32>) -> (tensor<4xf32> {ac.output}) '
            'attributes {ac.joint} {\n  return %x : tensor<4xf32>\n}\n')
    with pytest.raises(autoac.AutoacError, match="is not valid UTF-8"):
        autoac.plan(text)
    raw = text.encode().replace(b"\\FF", b"\xff")
    with pytest.raises(autoac.AutoacError):
        autoac.plan(raw, source_name="raw\xe9.mlir")


def test_report_through_symlink_and_fifo(tmp_path):
    # The report replaces a symlink's target (the link stays) and is written
    # through a FIFO (it stays a FIFO), never replacing either.
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    autoac.plan_file(MLP, report=str(link))
    assert link.is_symlink()
    assert '"peak_bytes"' in real.read_text()
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    import threading
    got = {}
    reader = threading.Thread(target=lambda: got.update(text=open(fifo).read()))
    reader.start()
    autoac.plan_file(MLP, report=str(fifo))
    reader.join(timeout=60)
    import stat
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert '"peak_bytes"' in got["text"]


def test_deep_nesting_is_refused_not_a_crash():
    # 100k nested brackets crashed MLIR's recursive parser (and the
    # interpreter with it); autoac refuses them before parsing.
    text = "func.func @f() attributes {x = " + "[" * 100000 + "]" * 100000 + "} {\n return\n}\n"
    with pytest.raises(autoac.AutoacError, match="more than 1000 levels deep"):
        autoac.plan(text)
UNKNOWN = """func.func @step(%x: tensor<1024xf32>, %dy: tensor<f32> {ac.tangent}) -> (tensor<f32> {ac.output}, tensor<1024xf32> {ac.grad}) attributes {ac.joint} {
  %a = "my.fancy"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = "my.fancy"(%a) : (tensor<1024xf32>) -> tensor<1024xf32>
  %s = "torch.aten.sum"(%b) : (tensor<1024xf32>) -> tensor<f32>
  %g = "torch.aten.mul"(%dy, %b) : (tensor<f32>, tensor<1024xf32>) -> tensor<1024xf32>
  %g2 = "torch.aten.mul"(%g, %a) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
  return %s, %g2 : tensor<f32>, tensor<1024xf32>
}"""


def test_unknown_ops_named_and_cost_table(tmp_path):
    r = autoac.plan(UNKNOWN, source_name="u.mlir")
    assert "u.mlir:2:8: warning: autoac: 2 ops 'my.fancy' are unknown to the cost model" in r.warnings
    assert r.report["unknown_ops"] == [
        {"name": "my.fancy", "count": 2, "location": "u.mlir:2:8", "recomputable": False}]
    table = tmp_path / "costs.json"
    table.write_text('{"my.fancy": {"flops": 1e9, "recomputable": true}}')
    t = autoac.plan(UNKNOWN, source_name="u.mlir", cost_table=str(table))
    assert "unknown" not in t.warnings
    assert t.report["unknown_ops"] == []
    # The sum and the two muls (1024 FLOPs each), and the table's 1e9 twice.
    assert t.report["step_flops"] == 2e9 + 3 * 1024
    table.write_text('{"my.fancy": {"flops": -1}}')
    with pytest.raises(autoac.AutoacError, match=r"cost table '.*costs.json': entry 'my.fancy': \"flops\" must be"):
        autoac.plan(UNKNOWN, cost_table=str(table))


DROPOUT = """func.func @dropout(%x: !torch.vtensor<[64,256],f32>, %dy: !torch.vtensor<[64,256],f32> {ac.tangent}) -> (!torch.vtensor<[64,256],f32> {ac.output}, !torch.vtensor<[64,256],f32> {ac.grad}) attributes {ac.joint} {
  %p = "torch.constant.float"() {value = 0.9 : f64} : () -> !torch.float
  %n = "torch.constant.none"() : () -> !torch.none
  %e = "torch.aten.empty_like"(%x, %n, %n, %n, %n, %n) : (!torch.vtensor<[64,256],f32>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none) -> !torch.vtensor<[64,256],f32>
  %m = "torch.aten.bernoulli_.float"(%e, %p, %n) : (!torch.vtensor<[64,256],f32>, !torch.float, !torch.none) -> !torch.vtensor<[64,256],f32>
  %y = "torch.aten.mul.Tensor"(%x, %m) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  %a = "torch.aten.mul.Tensor"(%dy, %x) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  %b = "torch.aten.mul.Tensor"(%a, %a) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  %g = "torch.aten.mul.Tensor"(%b, %m) : (!torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>) -> !torch.vtensor<[64,256],f32>
  return %y, %g : !torch.vtensor<[64,256],f32>, !torch.vtensor<[64,256],f32>
}
"""


def test_rng_option_keep_and_replay():
    # keep (the default): the mask (64 KiB) is saved, bernoulli_ stays.
    keep = autoac.plan(DROPOUT, budget=1)
    assert '"torch.aten.bernoulli_.float"' in keep.ir
    assert keep.report["saved_bytes"] == 64 * 256 * 4
    # replay: a seed (8 bytes) is saved and the generator reruns in the
    # backward; the peak is lower by the mask's bytes at the backward's peak.
    rep = autoac.plan(DROPOUT, budget=1, rng="replay")
    assert "bernoulli_" not in rep.ir and '"autoac.rng.bernoulli"' in rep.ir
    assert rep.report["saved_bytes"] == 8
    assert rep.report["peak_bytes"] == keep.report["peak_bytes"] - 64 * 256 * 4 + 8
    with pytest.raises(autoac.AutoacError, match="'rng': 'sometimes' \\(accepted: keep, replay\\)"):
        autoac.plan(DROPOUT, rng="sometimes")
