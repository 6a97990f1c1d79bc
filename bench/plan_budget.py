#!/usr/bin/env python3
"""bench/plan_budget.py - planning time against the budget (issue 21 item 4,
docs/bench.md "Planning time at low budgets").

    PYTHONPATH=python AUTOAC_LIBRARY=build/lib/libautoac.so \\
        /usr/bin/python3 bench/plan_budget.py [--runs R] [--no-torch] [--json OUT]

Plans real joint graphs in this process, through the library call the
PyTorch door makes (`autoac.plan`): the corpus (examples/corpus) and the
door's own exports of torchvision resnet18 and mobilenet_v2 (batch 8,
112x112) and a 6-layer GPT (d 256, seq 128, dropout 0.1), each captured
from `aot_module` with the options the door passes (mode=annotate, its
device profile and gradient mode).  Each graph is planned with no budget,
at an unreachable budget (1 B) and at a mid budget (halfway between the
no-budget peak and the lowest peak the unreachable run reports), back to
back per round; the median CPU seconds of each and the ratios
time(budget) / time(no budget) are printed, with the lowest peak (the
floor) and the search that found it.  Nothing is asserted: speed is
measured here, never in a test.
"""
import argparse
import glob
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("AUTOAC_LIBRARY", os.path.join(ROOT, "build", "lib", "libautoac.so"))

import autoac  # noqa: E402


def door_graphs():
    """(name, MLIR text, options) the door plans for each model."""
    import torch
    import autoac.pytorch as act
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from pareto_torch import _GPT  # the bundled transformer

    captured = []
    real_plan = act._plan

    def recording_plan(text, **kw):
        captured.append((text, dict(kw)))
        return real_plan(text, **kw)

    def models():
        import torchvision
        torch.manual_seed(0)
        yield "resnet18", torchvision.models.resnet18(num_classes=10), (torch.randn(8, 3, 112, 112),)
        yield "mobilenet_v2", torchvision.models.mobilenet_v2(num_classes=10), \
            (torch.randn(8, 3, 112, 112),)
        yield "gpt_l6_d256", _GPT(layers=6, d=256, heads=4, vocab=512, seq=128, dropout=0.1), \
            (torch.randint(0, 512, (8, 128)),)

    act._plan = recording_plan
    try:
        out = []
        for name, model, inputs in models():
            captured.clear()
            compiled = act.aot_module(model, None)
            compiled(*inputs).float().sum().backward()
            text, kw = captured[-1]
            kw.pop("budget", None)
            kw.pop("source_name", None)
            out.append((name, text, kw))
        return out
    finally:
        act._plan = real_plan


def cpu(fn):
    t0 = time.process_time()
    r = fn()
    return time.process_time() - t0, r


def bench_graph(name, text, kw, runs):
    def plan(budget):
        return autoac.plan(text, source_name="<%s>" % name, budget=budget, **kw)

    _, low = cpu(lambda: plan(1))
    floor = low.report["peak_bytes"]
    _, free = cpu(lambda: plan(None))
    top = free.report["peak_bytes"]
    mid = (floor + top) // 2
    times = {"none": [], "mid": [], "1B": []}
    reps = {}
    for _ in range(runs):
        for key, budget in (("none", None), ("mid", mid), ("1B", 1)):
            t, r = cpu(lambda: plan(budget))
            times[key].append(t)
            reps[key] = r.report
    med = {k: statistics.median(v) for k, v in times.items()}
    fs = reps["1B"].get("floor_search") or {}
    search = reps["1B"].get("search") or {}
    return {
        "graph": name,
        "none_s": med["none"], "mid_s": med["mid"], "low_s": med["1B"],
        "mid_ratio": med["mid"] / med["none"], "low_ratio": med["1B"] / med["none"],
        "peak_none": top, "mid_budget": mid, "peak_mid": reps["mid"]["peak_bytes"],
        "floor": reps["1B"]["peak_bytes"],
        "floor_by": fs.get("found_by", fs) if isinstance(fs, dict) else fs,
        "limited": bool(search.get("limited")) if isinstance(search, dict) else False,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-torch", action="store_true", help="the corpus only")
    ap.add_argument("--only", default="", help="comma-separated graph names")
    ap.add_argument("--json", default="", help="write the rows here too")
    ap.add_argument("--dump", default="", help="write each graph (NAME.mlir, NAME.json: options) here")
    ap.add_argument("--load", default="", help="the graphs of an earlier --dump instead of exporting")
    a = ap.parse_args()
    graphs = []
    for path in [] if a.load else sorted(glob.glob(os.path.join(ROOT, "examples", "corpus", "*.mlir"))):
        with open(path) as f:
            graphs.append((os.path.basename(path)[:-5], f.read(), {}))
    if a.load:
        for path in sorted(glob.glob(os.path.join(a.load, "*.mlir"))):
            with open(path) as f, open(path[:-5] + ".json") as o:
                graphs.append((os.path.basename(path)[:-5], f.read(), json.load(o)))
    elif not a.no_torch:
        graphs += door_graphs()
    if a.dump:
        os.makedirs(a.dump, exist_ok=True)
        for name, text, kw in graphs:
            with open(os.path.join(a.dump, name + ".mlir"), "w") as f:
                f.write(text)
            with open(os.path.join(a.dump, name + ".json"), "w") as f:
                json.dump(kw, f)
    if a.only:
        keep = set(a.only.split(","))
        graphs = [g for g in graphs if g[0] in keep]
    rows = []
    print("%-16s %9s %9s %9s %7s %7s %14s %14s %14s  %s" % (
        "graph", "none s", "mid s", "1B s", "mid/x", "1B/x", "peak none", "peak mid", "floor", "floor by"))
    for name, text, kw in graphs:
        r = bench_graph(name, text, kw, a.runs)
        rows.append(r)
        print("%-16s %9.3f %9.3f %9.3f %7.2f %7.2f %14d %14d %14d  %s%s" % (
            r["graph"], r["none_s"], r["mid_s"], r["low_s"], r["mid_ratio"], r["low_ratio"],
            r["peak_none"], r["peak_mid"], r["floor"], r["floor_by"],
            " (limited)" if r["limited"] else ""), flush=True)
    if rows:
      print("worst ratio: mid %.2fx, 1 B %.2fx" % (max(r["mid_ratio"] for r in rows),
                                                   max(r["low_ratio"] for r in rows)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
