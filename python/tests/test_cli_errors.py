"""Command-line errors of `python3 -m autoac` (issue 22, section 4): one
error line and no traceback for bad input, a module without ac.joint named
as such, and the plan command's flags taken from the options table."""
import os
import subprocess
import sys

import autoac

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STEP = os.path.join(ROOT, "test", "lit", "planner", "peak-by-hand.mlir")

NOJOINT = """func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
"""


def _run(*args, cwd=None):
    env = dict(os.environ)
    # The package of this tree, whatever the working directory.
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "python")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return subprocess.run([sys.executable, "-m", "autoac", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def _one_error_line(r):
    assert r.returncode != 0
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_measure_missing_input_is_one_line(tmp_path):
    line = _one_error_line(_run("measure", "nosuch.mlir", cwd=tmp_path))
    assert line == "ac-measure: cannot read input 'nosuch.mlir': No such file or directory"


def test_measure_directory_and_endless_input_are_one_line(tmp_path):
    (tmp_path / "adir").mkdir()
    assert "it is a directory" in _one_error_line(_run("measure", "adir", cwd=tmp_path))
    line = _one_error_line(_run("measure", "/dev/zero", cwd=tmp_path))
    assert "holds a NUL byte at offset 0" in line


def test_plan_without_joint_function_says_so(tmp_path):
    src = tmp_path / "plain.mlir"
    src.write_text(NOJOINT)
    out = tmp_path / "out.mlir"
    r = _run("plan", str(src), "-o", str(out))
    line = _one_error_line(r)
    assert "has no function marked ac.joint: nothing to plan" in line
    assert "strategy None" not in r.stdout + r.stderr
    assert not out.exists()


def test_plan_reads_through_the_bounded_reader(tmp_path):
    line = _one_error_line(_run("plan", "/dev/zero"))
    assert line == "autoac: error: input '/dev/zero' holds a NUL byte at offset 0: it is not a text file"
    line = _one_error_line(_run("plan", str(tmp_path)))
    assert "it is a directory" in line


def test_plan_flags_come_from_the_options_table(tmp_path):
    r = _run("plan", "--help")
    assert r.returncode == 0, r.stderr
    names = [row[0] for row in autoac.option_table()]
    assert "cost-table" in names and "rng" in names
    for name in names:
        assert f"--{name}" in r.stdout, name
    # --cost-table and --rng reach the library: a cost table that does not
    # exist is named, rng=replay is accepted.
    line = _one_error_line(_run("plan", STEP, "--cost-table", str(tmp_path / "none.json")))
    assert "cannot read cost table" in line and "none.json" in line
    r = _run("plan", STEP, "--rng", "replay", "--json")
    assert r.returncode == 0, r.stderr
    line = _one_error_line(_run("plan", STEP, "--rng", "sometimes"))
    assert "bad value for option 'rng'" in line


def test_closed_pipe_ends_like_a_c_tool():
    """`python3 -m autoac models | head -1`: a reader that closed the pipe
    ends the run silently with 128 + SIGPIPE, as a C tool killed by SIGPIPE,
    not with an error line or a traceback (the output was not ours to lose)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(ROOT, "python")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    r_end, w_end = os.pipe()
    os.close(r_end)
    try:
        r = subprocess.run([sys.executable, "-m", "autoac", "models"], env=env, stdout=w_end,
                           stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(w_end)
    assert r.returncode == 128 + 13
    assert r.stderr == ""
