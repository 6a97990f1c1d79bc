#!/usr/bin/env python3
"""bench/scale_chain.py - bounded time on long chains (issue 22, section 3;
docs/bench.md "Scaling on chains").

    bench/scale_chain.py [--ops N] [--layer mm|gelu] [--runs R] [--ilp]
                         [--mid-fraction F] [--build DIR] [--mlir-opt PATH]

Generates a chain of N ops (test/reliability/gen_chain.py, default 200,000
ops of mm/relu layers, every activation a candidate) and measures, per
round and back to back (so a shared machine's load mostly cancels):
  - the baseline: `mlir-opt --allow-unregistered-dialect FILE -o T` (parse,
    verify, print);
  - `ac-opt FILE --ac-budget=1 -o T` (the default strategy at an unreachable
    budget: greedy's whole trajectory within its work limit, the floor
    search);
  - `ac-opt FILE --ac-budget=MID -o T`, MID halfway between the save-all
    peak and the lowest peak the unreachable run found, or with
    --mid-fraction F, F x the save-all peak.  When the unreachable run was
    stopped by greedy's work limit, its lowest peak is not greedy's lowest
    and the halfway point is no true mid budget (it is said so): on the mm
    chain greedy's lowest is about half the save-all peak, so
    --mid-fraction 0.75 asks for a budget the full trajectory meets;
  - with --ilp, `--ac-strategy=ilp` at MID (once: the target is 90 s).
CPU time (user + system, from wait4) of each process; the medians and the
ratios ac-opt / mlir-opt (per round, then the median) are printed.  Nothing
is asserted: speed is measured here, never in a test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv):
    """Runs argv; returns (cpu s, wall s, max RSS MiB, stderr)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed (%d): %s\n%s" % (status, " ".join(argv), err.decode()[-2000:]))
    return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss / 1024.0, err.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=200000)
    ap.add_argument("--layer", choices=["mm", "gelu"], default="mm")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ilp", action="store_true")
    ap.add_argument("--mid-fraction", type=float, default=0.0)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    a = ap.parse_args()
    acopt = os.path.join(a.build, "bin", "ac-opt")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "chain.mlir")
        with open(src, "w") as f:
            subprocess.check_call([sys.executable, os.path.join(ROOT, "test", "reliability", "gen_chain.py"),
                                   str(a.ops), "--layer", a.layer], stdout=f)
        out = os.path.join(tmp, "out.mlir")
        rep = os.path.join(tmp, "r.json")
        # The mid budget, from one unreachable run's lowest peak.
        run([acopt, src, "--ac-budget=1", "--ac-report=" + rep, "-o", out])
        r = json.load(open(rep))
        lowest, saveall = r["peak_bytes"], r["baseline_peak_bytes"]["save-all"]
        cut = r.get("search", {}).get("limited", False)
        mid = int(saveall * a.mid_fraction) if a.mid_fraction > 0 else (lowest + saveall) // 2
        print("chain: %d ops (%s layers), save-all peak %d B, lowest found %d B%s, mid budget %d B%s"
              % (a.ops, a.layer, saveall, lowest,
                 " (work limit reached)" if cut else "", mid,
                 " (%.2f x save-all)" % a.mid_fraction if a.mid_fraction > 0
                 else " (halfway to a cut trajectory's lowest: not a true mid)" if cut else ""))
        rows = {"mlir-opt": [], "budget=1": [], "budget=mid": []}
        ratios = {"budget=1": [], "budget=mid": []}
        notes = {}
        for _ in range(a.runs):
            base = run([a.mlir_opt, "--allow-unregistered-dialect", src, "-o", out])
            rows["mlir-opt"].append(base)
            for name, budget in (("budget=1", 1), ("budget=mid", mid)):
                x = run([acopt, src, "--ac-budget=%d" % budget, "--ac-report=" + rep, "-o", out])
                rows[name].append(x)
                ratios[name].append(x[0] / base[0])
                rj = json.load(open(rep))
                notes[name] = "peak %d B, feasible %s, limited %s" % (
                    rj["peak_bytes"], rj["feasible"], rj.get("search", {}).get("limited", False))
        print("%-12s %9s %9s %9s %8s  %s" % ("run", "cpu s", "wall s", "RSS MiB", "ratio", "plan"))
        for name, xs in rows.items():
            cpu = statistics.median(x[0] for x in xs)
            wall = statistics.median(x[1] for x in xs)
            rss = statistics.median(x[2] for x in xs)
            ratio = "%.2f" % statistics.median(ratios[name]) if name in ratios else "1"
            print("%-12s %9.2f %9.2f %9.0f %8s  %s" % (name, cpu, wall, rss, ratio, notes.get(name, "")))
        if a.ilp:
            x = run([acopt, src, "--ac-budget=%d" % mid, "--ac-strategy=ilp", "--ac-report=" + rep, "-o", out])
            rj = json.load(open(rep))
            print("%-12s %9.2f %9.2f %9.0f %8s  peak %d B, limited %s" % (
                "ilp mid", x[0], x[1], x[2], "-", rj["peak_bytes"], rj["search"]["limited"]))


if __name__ == "__main__":
    main()
