#!/usr/bin/env python3
"""bench/regress.py - the planner's speed and plan quality against a
checked-in table of earlier results (issue 39 item 3, docs/bench.md
"Regression check").

    bench/regress.py [--build DIR] [--table FILE] [--update] [--runs N]

Generates a fixed set of graphs the tests do not tune to (a transformer and
a ResNet from bench/gen_joint.py, an mm/relu MLP chain and a gelu chain from
test/reliability/gen_chain.py, three sizes each), and for each one records:

- the floor: the lowest peak the default strategy reaches (`--ac-budget=1`),
  with offload and without (`--ac-offload=off`), and the lowest peaks
  `--ac-strategy=beam` and (on the smallest graph of each kind, where its
  solve takes seconds, not minutes) `--ac-strategy=ilp` report there:
  neither may be above the default's without offload (both search the
  same recompute-only space from the same start; they ignore offload);
- the plan at a mid budget (halfway between the save-all peak and the
  floor): its peak and recompute seconds;
- speed: `ac-e2e`'s ratio of autoac's whole run to mlir-opt's parse + print,
  measured in the same process, back to back, medians of N runs, at the mid
  and at the unreachable budget.

Plans are deterministic (work limits, not clocks), so a floor, a mid-budget
peak or recompute seconds above the table's is a regression, with no
tolerance beyond the rounding of seconds (1e-9 relative).  Speed ratios vary
with the machine: a ratio above the table's by more than SPEED_TOLERANCE
(100 %) and SPEED_SLACK (0.5) is a regression (ratios of small graphs move by a third between runs on a loaded machine).  Any regression prints the
figures and exits 1.  Lower floors and faster runs are reported as gains;
`--update` writes the current figures into the table (it records, it does
not teach: nothing in the planner reads it).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "bench", "regress_table.json")
SPEED_TOLERANCE = 1.00
SPEED_SLACK = 0.50
SECONDS_REL = 1e-9

# (name, generator, arguments): three sizes of each kind.
GRAPHS = [
    ("tx_d1", "gen_joint", ["tx", "--depth", "1"]),
    ("tx_d2", "gen_joint", ["tx", "--depth", "2"]),
    ("tx_d4", "gen_joint", ["tx", "--depth", "4"]),
    ("conv_d2", "gen_joint", ["conv", "--depth", "2", "--image", "56"]),
    ("conv_d4", "gen_joint", ["conv", "--depth", "4", "--image", "56"]),
    ("conv_d8", "gen_joint", ["conv", "--depth", "8", "--image", "56"]),
    ("mlp_160", "gen_chain", ["160"]),
    ("mlp_320", "gen_chain", ["320"]),
    ("mlp_640", "gen_chain", ["640"]),
    ("gelu_40", "gen_chain", ["40", "--layer", "gelu"]),
    ("gelu_80", "gen_chain", ["80", "--layer", "gelu"]),
    ("gelu_160", "gen_chain", ["160", "--layer", "gelu"]),
]


def generate(kind, args, path):
    script = (os.path.join(ROOT, "bench", "gen_joint.py") if kind == "gen_joint"
              else os.path.join(ROOT, "test", "reliability", "gen_chain.py"))
    with open(path, "w") as f:
        subprocess.run([sys.executable, script] + args, stdout=f, check=True,
                       stderr=subprocess.DEVNULL)


def plan(build, mlir, budget, tmp, strategy=None, offload=True):
    """(peak, recompute seconds, save-all peak) of ac-opt's plan at `budget`."""
    report = os.path.join(tmp, "report.json")
    cmd = [os.path.join(build, "bin", "ac-opt"), mlir, "--ac-budget=%d" % budget,
           "--ac-report=" + report, "-o", os.path.join(tmp, "out.mlir")]
    if strategy:
        cmd.append("--ac-strategy=" + strategy)
    if not offload:
        cmd.append("--ac-offload=off")
    subprocess.run(cmd, check=True, capture_output=True)
    with open(report) as f:
        r = json.load(f)
    return r["peak_bytes"], r["recompute_seconds"], r["baseline_peak_bytes"]["save-all"]


def speed(build, mlir, budget, runs):
    """ac-e2e's median ratio autoac / (mlir-opt parse + print)."""
    out = subprocess.run([os.path.join(build, "bin", "ac-e2e"), "--runs", str(runs),
                          "--budget", str(budget), mlir],
                         check=True, capture_output=True, text=True).stdout
    m = re.search(r"ratio autoac / baseline: ([0-9.]+)", out)
    if not m:
        raise RuntimeError("ac-e2e printed no ratio:\n" + out)
    return float(m.group(1))


def measure(build, runs):
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, kind, args) in enumerate(GRAPHS):
            mlir = os.path.join(tmp, name + ".mlir")
            generate(kind, args, mlir)
            floor, _, save_all = plan(build, mlir, 1, tmp)
            floor_rc, _, _ = plan(build, mlir, 1, tmp, offload=False)
            beam, _, _ = plan(build, mlir, 1, tmp, "beam")
            ilp = plan(build, mlir, 1, tmp, "ilp")[0] if i % 3 == 0 else None
            mid = (save_all + floor) // 2
            mid_peak, mid_secs, _ = plan(build, mlir, mid, tmp)
            rows[name] = {
                "floor": floor, "floor_recompute": floor_rc,
                "beam_floor": beam, "ilp_floor": ilp,
                "save_all": save_all, "mid_budget": mid, "mid_peak": mid_peak,
                "mid_recompute_seconds": mid_secs,
                "speed_mid": speed(build, mlir, mid, runs),
                "speed_unreachable": speed(build, mlir, 1, runs),
            }
            r = rows[name]
            print("%-9s floor %10d (recompute only %10d, beam %10d, ilp %10s)  mid %10d: %10d, %.6g s"
                  "  speed mid %.2f, unreachable %.2f" % (
                      name, floor, floor_rc, beam, ilp if ilp is not None else "-",
                      mid, mid_peak, mid_secs,
                      r["speed_mid"], r["speed_unreachable"]), flush=True)
    return rows


def compare(rows, table):
    """(regressions, gains) as lines of text."""
    bad, good = [], []
    for name, r in rows.items():
        if r["floor"] > r["floor_recompute"]:
            bad.append("%s: the floor with offload %d is above the floor without %d" % (
                name, r["floor"], r["floor_recompute"]))
        for key, who in (("beam_floor", "beam's"), ("ilp_floor", "the ILP's")):
            if r[key] is not None and r[key] > r["floor_recompute"]:
                bad.append("%s: %s floor %d is above the default's without offload %d" % (
                    name, who, r[key], r["floor_recompute"]))
        t = table.get(name)
        if t is None:
            bad.append("%s: not in the table (run --update)" % name)
            continue
        for key in ("floor", "floor_recompute", "beam_floor", "ilp_floor"):
            if r[key] is None or t.get(key) is None:
                continue
            if r[key] > t[key]:
                bad.append("%s: %s %d, above the table's %d (+%.2f %%)" % (
                    name, key, r[key], t[key], 100.0 * (r[key] - t[key]) / t[key]))
            elif r[key] < t[key]:
                good.append("%s: %s %d, below the table's %d" % (name, key, r[key], t[key]))
        if r["mid_budget"] == t["mid_budget"]:
            if r["mid_peak"] > t["mid_peak"]:
                bad.append("%s: peak at the mid budget %d, above the table's %d" % (
                    name, r["mid_peak"], t["mid_peak"]))
            lim = t["mid_recompute_seconds"] * (1 + SECONDS_REL)
            if r["mid_recompute_seconds"] > lim:
                bad.append("%s: recompute seconds at the mid budget %.9g, above the table's %.9g" % (
                    name, r["mid_recompute_seconds"], t["mid_recompute_seconds"]))
        else:
            good.append("%s: the mid budget moved (%d, table %d): its plan not compared" % (
                name, r["mid_budget"], t["mid_budget"]))
        for key in ("speed_mid", "speed_unreachable"):
            lim = t[key] * (1 + SPEED_TOLERANCE) + SPEED_SLACK
            if r[key] > lim:
                bad.append("%s: %s %.2f, above the table's %.2f by more than the tolerance (limit %.2f)" % (
                    name, key, r[key], t[key], lim))
    return bad, good


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--table", default=TABLE)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    rows = measure(a.build, a.runs)
    if a.update:
        with open(a.table, "w") as f:
            json.dump(rows, f, indent=1, sort_keys=True)
            f.write("\n")
        print("regress: wrote %s" % a.table)
        return 0
    with open(a.table) as f:
        table = json.load(f)
    bad, good = compare(rows, table)
    for line in good:
        print("gain: " + line)
    for line in bad:
        print("REGRESSION: " + line)
    if bad:
        print("regress: %d regressions against %s" % (len(bad), a.table))
        return 1
    print("regress: no regression against %s (%d graphs)" % (a.table, len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
