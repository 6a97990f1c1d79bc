"""Pictures of autoac's plans (matplotlib, Agg backend: no display needed).

    import autoac, autoac.plot
    r = autoac.plan_file("model.mlir", budget="24GB")
    autoac.plot.timeline(r.report, "timeline.png")     # live memory over fwd/bwd
    autoac.plot.pareto("sweep.csv", "pareto.svg")       # from ac-opt --ac-sweep-csv

Both return the matplotlib Figure; the file type follows the extension
(.png, .svg, .pdf).
"""
from __future__ import annotations

import csv
import io
import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import matplotlib

if not os.environ.get("MPLBACKEND"):
    matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

__all__ = ["timeline", "pareto", "read_sweep", "pareto_front", "byte_unit"]

PHASE_COLOURS = {"fwd": "#4C72B0", "bwd": "#DD8452", "recompute": "#C44E52"}
STRATEGY_STYLES = {
    "greedy": ("#C44E52", "o"), "save-all": ("#8C8C8C", "s"), "mincut": ("#4C72B0", "^"),
    "knapsack": ("#55A868", "D"), "offload": ("#8172B3", "P"),
}


HOST_COLOUR = "#8172B3"


def byte_unit(max_bytes: float) -> Tuple[float, str]:
    """(divisor, name) of the binary unit that suits values up to max_bytes."""
    for div, name in ((2 ** 40, "TiB"), (2 ** 30, "GiB"), (2 ** 20, "MiB"), (2 ** 10, "KiB")):
        if max_bytes >= div:
            return float(div), name
    return 1.0, "B"


def _load_report(report: Union[Dict[str, Any], str]) -> Dict[str, Any]:
    if isinstance(report, dict):
        return report
    with open(report) as f:
        return json.load(f)


def _runs(flags: Sequence[bool]) -> List[Tuple[int, int]]:
    """[start, end) index ranges where flags is true."""
    out, start = [], None
    for i, f in enumerate(flags):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append((start, i))
            start = None
    if start is not None:
        out.append((start, len(flags)))
    return out


def _save(fig, out: Optional[str]) -> None:
    if out:
        d = os.path.dirname(os.path.abspath(out))
        os.makedirs(d, exist_ok=True)
        fig.savefig(out, dpi=150, bbox_inches="tight")


def timeline(report: Union[Dict[str, Any], str], out: Optional[str] = None, *,
             title: Optional[str] = None, ax=None, show_baselines: bool = True):
    """Live memory at each step of the planned execution (report["timeline"]),
    forward, backward and recompute steps coloured, the static part
    (report["static_bytes"]: parameters, gradients, optimizer state, reserve)
    shaded, recompute steps shaded, the budget and the plan's peak drawn;
    with offload, the host memory the offloaded saves hold (the steps'
    host_bytes) as a dashed line and, in a lane below (only when the
    function makes its own figure, ax=None), the two copy queues: each
    offloaded save's device->host copy from its producer to the step after
    which it has completed, and its host->device copy from its issue to its
    first use (the report's copy_out_steps / copy_in_steps).
    `report` is a report dict or a path to the JSON."""
    rep = _load_report(report)
    steps = rep.get("timeline") or []
    if not steps:
        raise ValueError("the report has no timeline (was it planned with a joint function?)")
    xs = [int(s["step"]) for s in steps]
    live = [float(s["live_bytes"]) for s in steps]
    phases = [s.get("phase", "fwd") for s in steps]
    static = float(rep.get("static_bytes") or 0)
    budget = rep.get("budget_bytes")
    peak = rep.get("peak_bytes")
    baselines = {k: float(v) for k, v in (rep.get("baseline_peak_bytes") or {}).items() if v} \
        if show_baselines else {}
    # Host memory the offloaded saves hold (offload plans: docs/planner.md).
    host = [float(s.get("host_bytes", 0)) for s in steps] \
        if any("host_bytes" in s for s in steps) else []
    top = max(live + host + [static] + ([float(budget)] if budget else [])
              + ([float(peak)] if peak else []) + list(baselines.values()))
    div, unit = byte_unit(top)

    copies = [o for f in rep.get("functions", []) for o in f.get("offloaded", [])
              if o.get("copy_out_steps") or o.get("copy_in_steps")]
    own = ax is None
    lanes = None
    if own and copies:
        fig, (ax, lanes) = plt.subplots(2, 1, figsize=(9, 5.2), sharex=True,
                                        gridspec_kw={"height_ratios": [4, 1], "hspace": 0.08})
    elif own:
        fig, ax = plt.subplots(figsize=(9, 4.2))
    else:
        fig = ax.figure
    y = [v / div for v in live]
    # recompute steps shaded across the whole height
    for a, b in _runs([p == "recompute" for p in phases]):
        ax.axvspan(xs[a] - 0.5, xs[b - 1] + 0.5, color=PHASE_COLOURS["recompute"], alpha=0.18, lw=0)
    # static part
    if static > 0:
        ax.fill_between(xs, 0, static / div, step="mid", color="#999999", alpha=0.35, lw=0)
    # live memory above the static part, coloured by phase
    for phase, colour in PHASE_COLOURS.items():
        mask = [p == phase for p in phases]
        if any(mask):
            ax.fill_between(xs, static / div, y, where=mask, step="mid", color=colour,
                            alpha=0.45, lw=0, interpolate=False)
    ax.step(xs, y, where="mid", color="black", lw=0.9)
    handles = [Patch(color=PHASE_COLOURS[p], alpha=0.6, label=lab) for p, lab in
               (("fwd", "forward"), ("bwd", "backward"), ("recompute", "recompute"))
               if p in phases]
    if host:
        (h,) = ax.step(xs, [v / div for v in host], where="mid", color=HOST_COLOUR, lw=1.2,
                       ls="--", label=f"host memory (offloaded saves), peak "
                                      f"{max(host) / div:.3g} {unit}")
        handles.append(h)
    if static > 0:
        handles.append(Patch(color="#999999", alpha=0.5, label="static (params, grads, optimizer)"))
    if budget:
        h = ax.axhline(float(budget) / div, color="#C44E52", ls="--", lw=1.2,
                       label=f"budget {float(budget) / div:.3g} {unit}")
        handles.append(h)
    if peak:
        h = ax.axhline(float(peak) / div, color="black", ls=":", lw=1.0,
                       label=f"peak {float(peak) / div:.3g} {unit}")
        handles.append(h)
    if baselines:
        for name, value in sorted(baselines.items()):
            if not peak or abs(float(value) - float(peak)) > 1e-9 * float(peak):
                colour, _ = STRATEGY_STYLES.get(name, ("#777777", "o"))
                h = ax.axhline(float(value) / div, color=colour, ls="-.", lw=0.8, alpha=0.8,
                               label=f"{name} peak {float(value) / div:.3g} {unit}")
                handles.append(h)
    if lanes is not None:
        _copy_lanes(lanes, copies)
        lanes.set_xlabel("step (forward, then backward)")
    else:
        ax.set_xlabel("step (forward, then backward)")
    ax.set_ylabel(f"live memory ({unit})")
    ax.set_xlim(xs[0] - 0.5, xs[-1] + 0.5)
    ax.set_ylim(0, top / div * 1.08)
    name = ", ".join(f["name"] for f in rep.get("functions", [])) or "plan"
    ax.set_title(title or f"{name}: {rep.get('strategy', '')} plan, "
                 f"recompute {float(rep.get('recompute_seconds') or 0) * 1e3:.3g} ms")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
              framealpha=0.9, borderaxespad=0.0)
    ax.grid(axis="y", alpha=0.3)
    _save(fig, out)
    return fig


def _copy_lanes(ax, copies: List[Dict[str, Any]]) -> None:
    """The copy queues: one lane per direction, a bar per offloaded save
    spanning the steps its copy may run in."""
    for lane, key, colour in ((1, "copy_out_steps", HOST_COLOUR), (0, "copy_in_steps", "#55A868")):
        spans = [(a - 0.5, b - a + 1.0) for o in copies for a, b in [o.get(key) or (None, None)]
                 if a is not None and b is not None]
        ax.broken_barh(spans, (lane - 0.35, 0.7), facecolors=colour, alpha=0.45,
                       edgecolors=colour, lw=0.6)
    ax.set_yticks([0, 1])
    ax.set_yticklabels(["host→device", "device→host"], fontsize=8)
    ax.set_ylim(-0.6, 1.6)
    ax.set_ylabel("copies", fontsize=8)
    ax.grid(axis="x", alpha=0.3)


def read_sweep(source: Union[str, Iterable[Dict[str, Any]]]) -> List[Dict[str, Any]]:
    """Rows of a sweep CSV (budget_bytes,strategy,peak_bytes,recompute_seconds,
    saved_bytes,feasible,recompute_overhead_percent,step_seconds,
    offloaded_bytes,host_peak_bytes,copy_seconds,stall_seconds; the columns
    after feasible are 0 when absent, as in older files) with numbers converted;
    `source` is a path, CSV text, or rows already read."""
    if isinstance(source, str):
        if "\n" in source or ("," in source and not os.path.exists(source)):
            rows = list(csv.DictReader(io.StringIO(source)))
        else:
            with open(source, newline="") as f:
                rows = list(csv.DictReader(f))
    else:
        rows = [dict(r) for r in source]
    need = ("budget_bytes", "strategy", "peak_bytes", "recompute_seconds")
    out = []
    for r in rows:
        missing = [k for k in need if k not in r]
        if missing:
            raise ValueError(f"sweep row lacks {', '.join(missing)} (columns: budget_bytes,strategy,"
                             "peak_bytes,recompute_seconds,saved_bytes,feasible)")
        out.append({
            "budget_bytes": float(r["budget_bytes"]), "strategy": str(r["strategy"]),
            "peak_bytes": float(r["peak_bytes"]), "recompute_seconds": float(r["recompute_seconds"]),
            "saved_bytes": float(r.get("saved_bytes") or 0),
            "feasible": str(r.get("feasible", "1")).strip().lower() in ("1", "true", "yes"),
            "recompute_overhead_percent": float(r.get("recompute_overhead_percent") or 0),
            "step_seconds": float(r.get("step_seconds") or 0),
            "offloaded_bytes": float(r.get("offloaded_bytes") or 0),
            "host_peak_bytes": float(r.get("host_peak_bytes") or 0),
            "copy_seconds": float(r.get("copy_seconds") or 0),
            "stall_seconds": float(r.get("stall_seconds") or 0),
        })
    return out


def pareto_front(points: Iterable[Tuple[float, float]]) -> List[Tuple[float, float]]:
    """The non-dominated (peak, recompute) points, by increasing peak: lower
    peak and lower recompute time are both better."""
    front: List[Tuple[float, float]] = []
    for p, t in sorted(set(points), key=lambda q: (q[0], q[1])):
        if not front or t < front[-1][1]:
            front.append((p, t))
    return front


def pareto(sweep: Union[str, Iterable[Dict[str, Any]]], out: Optional[str] = None, *,
           title: Optional[str] = None, ax=None):
    """Peak memory against the time a plan adds to the step (recompute, plus
    the stalls of offload copies) for every strategy of a sweep (ac-opt
    --ac-sweep=N --ac-sweep-csv=FILE): every plan as a faint point, each
    strategy's Pareto frontier as a line; with a host link the sweep's
    "offload" rows (the pass's own plan, offloading) are one more curve."""
    rows = read_sweep(sweep)
    if not rows:
        raise ValueError("the sweep has no rows")
    top = max(r["peak_bytes"] for r in rows)
    div, unit = byte_unit(top)
    extra = [r["recompute_seconds"] + r["stall_seconds"] for r in rows]
    tmax = max(extra)
    tdiv, tunit = (1e-3, "ms") if tmax >= 1e-3 else ((1e-6, "µs") if tmax >= 1e-6 else (1e-9, "ns"))
    if tmax == 0:
        tdiv, tunit = 1e-3, "ms"
    own = ax is None
    if own:
        fig, ax = plt.subplots(figsize=(7, 4.5))
    else:
        fig = ax.figure
    strategies = []
    for r in rows:
        if r["strategy"] not in strategies:
            strategies.append(r["strategy"])
    for i, s in enumerate(strategies):
        colour, marker = STRATEGY_STYLES.get(s, (f"C{i}", "o"))
        pts = [(r["peak_bytes"], r["recompute_seconds"] + r["stall_seconds"])
               for r in rows if r["strategy"] == s]
        ax.scatter([p / div for p, _ in pts], [t / tdiv for _, t in pts], color=colour,
                   marker=marker, alpha=0.25, s=18)
        front = pareto_front(pts)
        ax.plot([p / div for p, _ in front], [t / tdiv for _, t in front], color=colour,
                marker=marker, lw=1.4, ms=5, drawstyle="steps-post", label=f"{s} ({len(front)} on frontier)")
    ax.set_xlabel(f"simulated peak memory ({unit})")
    stalls = any(r["stall_seconds"] > 0 for r in rows)
    ax.set_ylabel(f"recompute{' + stall' if stalls else ''} time ({tunit})")
    ax.set_title(title or f"Pareto frontier over {len({r['budget_bytes'] for r in rows})} budgets")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    _save(fig, out)
    return fig
