"""Tests of autoac.plot: the live-memory timeline and the sweep's Pareto frontier."""
import csv
import os
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")
import autoac  # noqa: E402
import autoac.plot as ap  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TX = os.path.join(ROOT, "examples", "corpus", "tx_l2_d256.mlir")


def _ac_opt():
    lib = autoac.library_path()
    path = os.path.normpath(os.path.join(os.path.dirname(lib), "..", "bin", "ac-opt"))
    return path if os.path.exists(path) else None


@pytest.fixture(scope="module")
def tight_report():
    free = autoac.plan_file(TX).report
    budget = free["static_bytes"] + (free["peak_bytes"] - free["static_bytes"]) * 9 // 10
    rep = autoac.plan_file(TX, budget=budget).report
    assert any(s["phase"] == "recompute" for s in rep["timeline"])
    return rep


@pytest.fixture(scope="module")
def sweep_csv(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "sweep.csv"
    tool = _ac_opt()
    if tool:
        subprocess.run([tool, TX, "--allow-unregistered-dialect", "--ac-sweep=8",
                        f"--ac-sweep-csv={out}"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    else:  # no ac-opt built next to the library: a small hand-made table
        with open(out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["budget_bytes", "strategy", "peak_bytes", "recompute_seconds", "saved_bytes", "feasible"])
            for b, (p, t) in enumerate([(30, 3e-5), (32, 2e-5), (35, 1e-5), (40, 0.0)]):
                w.writerow([30 + b, "greedy", p * 2**20, t, 1, 1])
                w.writerow([30 + b, "save-all", 44 * 2**20, 0, 2, 0])
    return str(out)


def _labels(fig):
    """(x label of the bottom axes, y label and title of the main one): a
    timeline with offload copies has its copy lanes below, sharing x."""
    ax = fig.axes[0]
    return fig.axes[-1].get_xlabel(), ax.get_ylabel(), ax.get_title()


@pytest.mark.parametrize("ext", ["png", "svg"])
def test_timeline_file_and_labels(tight_report, tmp_path, ext):
    out = tmp_path / f"timeline.{ext}"
    fig = ap.timeline(tight_report, str(out))
    assert out.stat().st_size > 1000
    x, y, title = _labels(fig)
    assert x.startswith("step") and y.startswith("live memory (") and "greedy" in title
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(t.startswith("budget ") for t in legend)
    assert "recompute" in legend and "forward" in legend and "backward" in legend
    assert any(t.startswith("static") for t in legend)
    if ext == "svg":
        assert out.read_text().lstrip().startswith(("<?xml", "<svg"))
    else:
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_timeline_units_follow_the_size(tight_report):
    fig = ap.timeline(tight_report)
    assert fig.axes[0].get_ylabel() == "live memory (MiB)"     # tx_l2_d256 peaks at tens of MiB
    assert ap.byte_unit(3 * 2**30) == (2**30, "GiB")
    assert ap.byte_unit(10) == (1.0, "B")


def test_timeline_from_json_path_without_budget(tmp_path):
    report = tmp_path / "r.json"
    autoac.plan_file(TX, report=str(report))
    fig = ap.timeline(str(report), str(tmp_path / "t.png"))
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert not any(t.startswith("budget") for t in legend)     # no budget given: no budget line
    assert (tmp_path / "t.png").stat().st_size > 1000


def test_timeline_draws_host_memory_of_offloaded_saves():
    # Below the lowest peak recomputing reaches on gh200, saves go to host
    # memory: each timeline step says how much (host_bytes), peaking at the
    # report's host_peak_bytes, and the plot draws it.
    rep = autoac.plan_file(TX, budget=1, device="gh200").report
    host = [s["host_bytes"] for s in rep["timeline"]]
    assert rep["offloaded_bytes"] > 0 and max(host) == rep["host_peak_bytes"] > 0
    assert host[0] == 0 and host[-1] == 0
    fig = ap.timeline(rep)
    labels = [h.get_label() for h in fig.axes[0].get_legend().legend_handles] \
        if hasattr(fig.axes[0].get_legend(), "legend_handles") else \
        [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(l.startswith("host memory (offloaded saves)") for l in labels)
    # The copy queues, in a lane below: one bar per offloaded save and
    # direction, from the report's copy steps (producer .. completion in the
    # forward, issue .. first use in the backward).
    offloaded = rep["functions"][0]["offloaded"]
    n = len(rep["timeline"])
    for o in offloaded:
        (a, b), (c, d) = o["copy_out_steps"], o["copy_in_steps"]
        assert 0 <= a <= b < c <= d < n
        assert rep["timeline"][a]["phase"] == "fwd" and rep["timeline"][b]["phase"] == "fwd"
        assert rep["timeline"][d]["phase"] != "fwd"
        # The save is in host memory from its copy's completion to its prefetch.
        assert all(s["host_bytes"] >= o["bytes"] for s in rep["timeline"][b + 1:c])
    assert len(fig.axes) == 2 and fig.axes[1].get_ylabel() == "copies"
    bars = [c for c in fig.axes[1].collections]
    assert sum(len(b.get_paths()) for b in bars) == 2 * len(offloaded)
    # Without offload, no host line.
    plain = autoac.plan_file(TX, budget=1, device="gh200", offload="off").report
    assert all("host_bytes" not in s for s in plain["timeline"])


def test_timeline_needs_a_timeline():
    with pytest.raises(ValueError, match="no timeline"):
        ap.timeline({"timeline": []})


@pytest.mark.parametrize("ext", ["png", "svg"])
def test_pareto_file_and_labels(sweep_csv, tmp_path, ext):
    out = tmp_path / f"pareto.{ext}"
    fig = ap.pareto(sweep_csv, str(out))
    assert out.stat().st_size > 1000
    x, y, title = _labels(fig)
    assert x.startswith("simulated peak memory (") and y.startswith("recompute time (")
    assert "Pareto" in title
    legend = " ".join(t.get_text() for t in fig.axes[0].get_legend().get_texts())
    for s in {r["strategy"] for r in ap.read_sweep(sweep_csv)}:
        assert s in legend


def test_pareto_offload_curve(tmp_path):
    """A sweep on a profile with a host link (h100, PCIe) has the pass's own
    plan, offloading, as its "offload" rows: never more time added (recompute
    + stalls) than greedy's recompute at a budget both meet, offloading at
    some budget; the plot draws it as one more frontier."""
    tool = _ac_opt()
    if not tool:
        pytest.skip("no ac-opt next to the library")
    out = tmp_path / "sweep.csv"
    subprocess.run([tool, TX, "--ac-sweep=8", "--ac-device=h100", f"--ac-sweep-csv={out}"],
                   check=True, stdout=subprocess.DEVNULL)
    rows = ap.read_sweep(str(out))
    off = {r["budget_bytes"]: r for r in rows if r["strategy"] == "offload"}
    greedy = {r["budget_bytes"]: r for r in rows if r["strategy"] == "greedy"}
    assert set(off) == set(greedy) and len(off) == 8
    assert any(r["offloaded_bytes"] > 0 and r["host_peak_bytes"] > 0 and r["copy_seconds"] > 0
               for r in off.values())
    for b, g in greedy.items():
        if g["feasible"]:
            o = off[b]
            assert o["feasible"]
            assert o["recompute_seconds"] + o["stall_seconds"] <= g["recompute_seconds"] * (1 + 1e-9)
    fig = ap.pareto(str(out), str(tmp_path / "pareto.png"))
    legend = " ".join(t.get_text() for t in fig.axes[0].get_legend().get_texts())
    assert "offload (" in legend
    # Without a host link (offload off) there are no such rows.
    subprocess.run([tool, TX, "--ac-sweep=3", "--ac-offload=off", f"--ac-sweep-csv={out}"],
                   check=True, stdout=subprocess.DEVNULL)
    assert {r["strategy"] for r in ap.read_sweep(str(out))} == {
        "greedy", "save-all", "mincut", "knapsack", "beam", "ilp"}


def test_pareto_front_keeps_non_dominated_points():
    pts = [(10, 5.0), (12, 3.0), (11, 6.0), (15, 3.0), (20, 0.0), (10, 4.0)]
    assert ap.pareto_front(pts) == [(10, 4.0), (12, 3.0), (20, 0.0)]


def test_read_sweep_overhead_columns(sweep_csv):
    rows = ap.read_sweep(sweep_csv)
    steps = {r["step_seconds"] for r in rows}
    assert len(steps) == 1 and steps.pop() > 0
    for r in rows:
        want = r["recompute_seconds"] / r["step_seconds"] * 100
        assert r["recompute_overhead_percent"] == pytest.approx(want, rel=1e-6, abs=1e-12)
    # Older files without the columns read as 0.
    old = ap.read_sweep("budget_bytes,strategy,peak_bytes,recompute_seconds\n1,greedy,2,0.5\n")
    assert old[0]["recompute_overhead_percent"] == 0 and old[0]["step_seconds"] == 0


def test_read_sweep_rejects_wrong_columns():
    with pytest.raises(ValueError, match="lacks"):
        ap.read_sweep("a,b\n1,2\n")


def test_cli_plots(tight_report, sweep_csv, tmp_path):
    import json
    rep = tmp_path / "r.json"
    rep.write_text(json.dumps(tight_report))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    for cmd, src, out in (("timeline", str(rep), tmp_path / "t.svg"), ("pareto", sweep_csv, tmp_path / "p.png")):
        r = subprocess.run([sys.executable, "-m", "autoac", cmd, src, "--out", str(out)],
                           env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert out.stat().st_size > 1000
    r = subprocess.run([sys.executable, "-m", "autoac", "pareto", str(tmp_path / "missing.csv"),
                        "--out", str(tmp_path / "x.png")], env=env, capture_output=True, text=True)
    assert r.returncode == 1 and "autoac: error:" in r.stderr
