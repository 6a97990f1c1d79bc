"""Tests of `python3 -m autoac measure` (tools/ac-measure is its launcher):
the small fidelity case through the user's pipeline, halves kept as
functions, measured against the simulator."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.dirname(os.path.dirname(os.environ.get(
    "AUTOAC_LIBRARY", os.path.join(ROOT, "build", "lib", "libautoac.so"))))
SMALL = os.path.join(ROOT, "test", "lit", "fidelity", "small.mlir")

pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(BUILD, "lib", "libac_count_alloc.so")) or
    not os.path.exists("/usr/lib/llvm-22/bin/mlir-runner"),
    reason="needs the build's counting runtime and mlir-runner")


def _measure(tmp_path, *args):
    out = tmp_path / "m.json"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    p = subprocess.run([sys.executable, "-m", "autoac", "measure", SMALL, "--build", BUILD,
                        "--json=%s" % out, *args], env=env, capture_output=True, text=True)
    return p, (json.loads(out.read_text()) if out.exists() else None)


def test_measure_keeps_the_halves_and_matches_the_simulator(tmp_path):
    p, js = _measure(tmp_path, "--budget=1")
    assert p.returncode == 0, p.stderr
    assert js["calls"] == "keep" and js["free_pass"] is True
    assert js["results_equal"] is True
    for row in js["rows"]:
        assert row["measured"] == row["simulated"], row
    planned = [r for r in js["rows"] if r["program"] == "planned"][0]
    original = [r for r in js["rows"] if r["program"] == "original"][0]
    assert planned["measured"] < original["measured"]


def test_measure_without_the_free_pass_misses_the_simulator(tmp_path):
    p, js = _measure(tmp_path, "--no-free-pass", "--no-original", "--max-error=2")
    assert p.returncode == 3, p.stdout + p.stderr
    assert js["rows"][0]["measured"] > js["rows"][0]["simulated"]


def test_tools_launcher_is_the_same_tool():
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "ac-measure"), "--help"],
                       capture_output=True, text=True)
    assert p.returncode == 0
    assert "--print-pipeline" in p.stdout and "--target" in p.stdout


def test_usage_errors_are_clean(tmp_path):
    p, _ = _measure(tmp_path, "--target=gpu", "--no-free-pass")
    assert p.returncode == 2
    assert "ac-measure: --no-free-pass applies to --target=cpu" in p.stderr
    p, _ = _measure(tmp_path, "--plugin=%s" % (tmp_path / "none.so"))
    assert p.returncode == 2
    assert "ac-measure: the mlir-opt plugin not found" in p.stderr


INT_ARGS = """
func.func @f(%x: tensor<16x16xf32>, %k: tensor<16x16xi32>, %m: tensor<16x16xi1>,
             %w: tensor<16x16xf32> {ac.param}, %dl: tensor<16x16xf32> {ac.tangent})
    -> (tensor<16x16xf32> {ac.output}, tensor<16x16xi32> {ac.output},
        tensor<16x16xf32> {ac.grad}) attributes {ac.joint} {
  %kf = arith.sitofp %k : tensor<16x16xi32> to tensor<16x16xf32>
  %a = arith.mulf %x, %w : tensor<16x16xf32>
  %b = arith.addf %a, %kf : tensor<16x16xf32>
  %t = math.tanh %b : tensor<16x16xf32>
  %s = arith.select %m, %t, %a : tensor<16x16xi1>, tensor<16x16xf32>
  %k2 = arith.addi %k, %k : tensor<16x16xi32>
  %g = arith.mulf %dl, %s : tensor<16x16xf32>
  %g2 = arith.mulf %g, %t : tensor<16x16xf32>
  return %s, %k2, %g2 : tensor<16x16xf32>, tensor<16x16xi32>, tensor<16x16xf32>
}
"""


def test_integer_and_mask_arguments_are_measured(tmp_path):
    # Labels and masks (i32, i1 tensors) as arguments and an integer result:
    # the harness once refused every argument that was not a float tensor.
    src = tmp_path / "ints.mlir"
    src.write_text(INT_ARGS)
    out = tmp_path / "m.json"
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    p = subprocess.run([sys.executable, "-m", "autoac", "measure", str(src), "--build", BUILD,
                        "--budget=1", "--json=%s" % out], env=env, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    js = json.loads(out.read_text())
    assert js["results_equal"] is True
    for row in js["rows"]:
        assert row["measured"] == row["simulated"], row
