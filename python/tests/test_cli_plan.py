"""Tests of `python3 -m autoac plan` and of the installable package
(pyproject.toml, the library looked up next to the package)."""
import ctypes
import json
import re
import os
import shutil
import subprocess
import sys

import pytest

import autoac

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLP = os.path.join(ROOT, "examples", "corpus", "mlp_relu_8.mlir")
STEP = os.path.join(ROOT, "test", "lit", "planner", "peak-by-hand.mlir")


def _run(*args, env=None, cwd=None):
    env = dict(os.environ if env is None else env)
    env.setdefault("PYTHONPATH", os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, "-m", "autoac", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_plan_prints_before_and_after():
    # test/lit/planner/peak-by-hand.mlir: the peak worked out by hand.
    r = _run("plan", STEP)
    assert r.returncode == 0, r.stderr
    assert re.search(r"^  planned peak +1310728 bytes", r.stdout, re.M)
    assert re.search(r"^  save-all peak +1310728 bytes", r.stdout, re.M)
    assert re.search(r"^  recomputed +0 values", r.stdout, re.M)
    assert "budget none" in r.stdout


def test_plan_at_a_budget_recomputes_and_writes_report_and_ir(tmp_path):
    free = autoac.plan_file(MLP).report["peak_bytes"]
    budget = free - 4 * 2**20
    report, out = tmp_path / "r.json", tmp_path / "out.mlir"
    r = _run("plan", MLP, "--budget", str(budget), "--strategy", "greedy",
             "--report", str(report), "-o", str(out))
    assert r.returncode == 0, r.stderr
    rep = json.loads(report.read_text())
    assert rep["budget_bytes"] == budget and rep["strategy"] == "greedy"
    assert rep["feasible"] is True and rep["peak_bytes"] <= budget
    recomputed = sum(len(f["recomputed"]) for f in rep["functions"])
    assert recomputed > 0
    assert re.search(rf"^  planned peak +{rep['peak_bytes']} bytes", r.stdout, re.M)
    assert re.search(rf"^  recomputed +{recomputed} values", r.stdout, re.M)
    assert re.search(r"^  feasible +true$", r.stdout, re.M)
    text = out.read_text()
    assert "func.func @mlp_relu_8_fwd" in text and "func.func @mlp_relu_8_bwd" in text


def test_plan_output_never_replaces_links_fifos_or_devices(tmp_path):
    # -o goes through the library's file set: a symbolic link's target is
    # replaced (the link stays), a FIFO is written through (it stays a FIFO),
    # and, as root, a device node made here (a copy of /dev/null) too.  The
    # command used to rename a temporary file over its target, which turned
    # /dev/null into a regular file.
    import stat
    import threading
    real = tmp_path / "real.mlir"
    real.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(real)
    r = _run("plan", STEP, "-o", str(link), "--quiet")
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and "func.func @step_fwd" in real.read_text()
    fifo = tmp_path / "fifo.mlir"
    os.mkfifo(fifo)
    got = {}
    reader = threading.Thread(target=lambda: got.update(text=open(fifo).read()))
    reader.start()
    r = _run("plan", STEP, "-o", str(fifo), "--quiet")
    reader.join(timeout=120)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and "func.func @step_fwd" in got["text"]
    if os.geteuid() == 0:
        null = tmp_path / "null"
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        r = _run("plan", STEP, "-o", str(null), "--quiet")
        assert r.returncode == 0, r.stderr
        assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["real.mlir", "link.mlir", "fifo.mlir"] + (["null"] if os.geteuid() == 0 else []))


def test_plan_json_and_strategy_option():
    r = _run("plan", MLP, "--strategy", "mincut", "--json", "--mode", "annotate")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["strategy"] == "mincut"
    assert rep["saved_bytes"] == 8 * 256 * 2048 * 4


def test_plan_refuses_bad_options_and_files(tmp_path):
    r = _run("plan", MLP, "--strategy", "no-such-strategy")
    assert r.returncode == 1
    assert "no-such-strategy" in r.stderr and r.stdout == ""
    r = _run("plan", str(tmp_path / "missing.mlir"))
    assert r.returncode == 1 and "missing.mlir" in r.stderr
    # An unreachable budget with --strict: an error, and no report written.
    report = tmp_path / "r.json"
    r = _run("plan", STEP, "--budget", "1310727", "--strict", "--report", str(report))
    assert r.returncode == 1 and "below the lowest peak autoac" in r.stderr
    assert not report.exists()


def _library_names(lib, symbol):
    names, i = [], 0
    table = (ctypes.c_char_p * 64).in_dll(lib, symbol)
    while table[i] is not None:
        names.append(table[i].decode())
        i += 1
    return names


def test_python_option_names_are_the_librarys():
    lib = ctypes.CDLL(autoac.library_path())
    every = _library_names(lib, "acOptionNames")
    passed = _library_names(lib, "acPassOptionNames")
    # Python accepts exactly the pass's options (read from the library), which
    # are every option of the table but ac-opt's own sweep ones, in order.
    assert [n.replace("_", "-") for n in autoac._OPTION_NAMES] == passed
    assert passed == [n for n in every if n not in ("sweep", "sweep-csv")]
    assert "budget" in passed and "cost-table" in passed
    # ac-opt's own options are refused by name, listing what is accepted.
    with pytest.raises(autoac.AutoacError, match=r"unknown option 'sweep' \(accepted: budget, .*cost_table.*\)"):
        autoac.plan("module {}", sweep=3)


def test_pip_install_from_source_tree_and_library_next_to_package(tmp_path):
    """pyproject.toml installs without a network; an installed package finds
    a libautoac.so shipped next to its modules without AUTOAC_LIBRARY."""
    pytest.importorskip("setuptools")
    src = tmp_path / "src"
    # A copy, so that the build's by-products stay out of the source tree.
    shutil.copytree(os.path.join(ROOT, "python", "autoac"), src / "autoac",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(ROOT, "python", "pyproject.toml"), src)
    shutil.copy(autoac.library_path(), src / "autoac" / "libautoac.so")
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                        "--no-index", "--target", str(site), str(src)],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    if r.returncode != 0 and "No module named pip" in r.stderr:
        pytest.skip("pip is not installed for this interpreter")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (site / "autoac" / "__main__.py").exists()
    assert (site / "autoac" / "libautoac.so").exists()
    # Every module of the source package, subpackages included, is installed.
    modules = lambda top: sorted(str(p.relative_to(top)) for p in top.rglob("*.py"))  # noqa: E731
    assert modules(site / "autoac") == modules(src / "autoac")
    env = {k: v for k, v in os.environ.items() if k != "AUTOAC_LIBRARY"}
    env["PYTHONPATH"] = str(site)
    r = subprocess.run([sys.executable, "-c", "import autoac; print(autoac.library_path())"],
                       env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(site / "autoac" / "libautoac.so")
    r = _run("plan", STEP, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert re.search(r"^  planned peak +1310728 bytes", r.stdout, re.M)


def test_pip_install_prefix_finds_the_library_in_the_prefix(tmp_path):
    """cmake --install and pip install --prefix to one prefix: the package
    finds PREFIX/lib/libautoac.so (whatever scheme pip uses under PREFIX)."""
    pytest.importorskip("setuptools")
    src = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "python", "autoac"), src / "autoac",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(os.path.join(ROOT, "python", "pyproject.toml"), src)
    prefix = tmp_path / "prefix"
    (prefix / "lib").mkdir(parents=True)
    shutil.copy(autoac.library_path(), prefix / "lib" / "libautoac.so")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps",
                        "--no-index", "--prefix", str(prefix), str(src)],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    if r.returncode != 0 and "No module named pip" in r.stderr:
        pytest.skip("pip is not installed for this interpreter")
    assert r.returncode == 0, r.stdout + r.stderr
    mains = list(prefix.rglob("autoac/__main__.py"))
    assert len(mains) == 1
    env = {k: v for k, v in os.environ.items() if k != "AUTOAC_LIBRARY"}
    env["PYTHONPATH"] = str(mains[0].parent.parent)
    r = _run("plan", STEP, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert re.search(r"^  planned peak +1310728 bytes", r.stdout, re.M)
    r = subprocess.run([sys.executable, "-c", "import autoac; print(autoac.library_path())"],
                       env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.stdout.strip() == str(prefix / "lib" / "libautoac.so")
