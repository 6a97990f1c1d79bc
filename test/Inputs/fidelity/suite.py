#!/usr/bin/python3
"""The fidelity suite: tools/ac-measure on every graph at several budgets,
one markdown table (docs/fidelity.md).

    test/Inputs/fidelity/suite.py [--build build] [--ac-opt X --runtime Y]
        [--graphs mlp transformer conv] [--out DIR] [--max-error PCT]

Budgets per graph: none (the min-cut plan), two between the lowest peak the
greedy reaches and the min-cut peak (2/3 and 1/3 of the way down), and
1 byte (the lowest plan).  The original (unsplit) program runs once per
graph and is compared with the simulator's save-all baseline; every plan's
printed results must equal the original's.  Exit 1 when a run fails or a
result differs, 3 when an error exceeds --max-error.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
MEASURE = os.path.join(ROOT, "tools", "ac-measure")


def mib(b):
    return "%.2f" % (b / 1048576.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build")
    ap.add_argument("--ac-opt")
    ap.add_argument("--runtime")
    ap.add_argument("--graphs", nargs="+", default=["mlp", "transformer", "conv"])
    ap.add_argument("--out", help="keep the per-run JSON here")
    ap.add_argument("--max-error", type=float)
    ap.add_argument("--extra", nargs=argparse.REMAINDER, default=[],
                    help="more ac-measure options (after everything else)")
    a = ap.parse_args()
    tool = []
    if a.build:
        tool += ["--build", a.build]
    if a.ac_opt:
        tool += ["--ac-opt", a.ac_opt]
    if a.runtime:
        tool += ["--runtime", a.runtime]
    acopt = a.ac_opt or os.path.join(a.build or os.path.join(ROOT, "build"), "bin", "ac-opt")
    out = a.out or tempfile.mkdtemp(prefix="fidelity.")
    os.makedirs(out, exist_ok=True)
    rows, code = [], 0
    for g in a.graphs:
        src = os.path.join(HERE, g + ".mlir")
        peaks = {}
        for key, budget in (("mincut", None), ("lowest", "1")):
            rep = os.path.join(out, "%s.%s.report.json" % (g, key))
            cmd = [acopt, src, "--ac-report=" + rep, "-o", os.path.join(out, "%s.%s.mlir" % (g, key))]
            if budget:
                cmd.append("--ac-budget=" + budget)
            subprocess.run(cmd, check=True, capture_output=True)
            with open(rep) as f:
                peaks[key] = json.load(f)["peak_bytes"]
        lo, mc = peaks["lowest"], peaks["mincut"]
        budgets = [None, str(int(lo + 2 * (mc - lo) / 3)), str(int(lo + (mc - lo) / 3)), "1"]
        ref = os.path.join(out, g + ".output")
        for i, b in enumerate(budgets):
            js = os.path.join(out, "%s.%d.json" % (g, i))
            cmd = [MEASURE, src, "--json=" + js, "--label=" + g] + tool
            if b:
                cmd.append("--budget=" + b)
            cmd += ["--save-output=" + ref] if i == 0 else ["--no-original", "--expect-output=" + ref]
            cmd += a.extra
            p = subprocess.run(cmd, capture_output=True, text=True)
            sys.stderr.write(p.stdout)
            if p.returncode not in (0, 3):
                sys.stderr.write(p.stderr)
                code = 1
                continue
            with open(js) as f:
                r = json.load(f)
            for row in r["rows"]:
                rows.append(dict(graph=g, budget=b, budget_bytes=r.get("budget_bytes"),
                                 program=row["program"], plan=row["plan"],
                                 simulated=row["simulated"], measured=row["measured"],
                                 measured_raw=row["measured_raw"],
                                 error=row["error_pct"], equal=r["results_equal"],
                                 feasible=r.get("feasible")))
    print("| graph | program | budget (MiB) | simulated (MiB) | measured (MiB) | error % | results equal |")
    print("|---|---|---:|---:|---:|---:|---|")
    worst = 0.0
    for r in rows:
        if r["program"] == "original":
            bud = "-"
            prog = "original (sim: save-all)"
        else:
            bud = "none (min-cut)" if r["budget"] is None else (
                "1 B (lowest)" if r["budget"] == "1" else mib(int(r["budget"])))
            prog = "planned"
        err = r["error"]
        if err is not None:
            worst = max(worst, abs(err))
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["graph"], prog, bud, mib(r["simulated"]), mib(r["measured"]),
            "-" if err is None else "%+.2f" % err,
            {True: "yes", False: "NO", None: "-"}[r["equal"]]))
        if r["equal"] is False:
            code = 1
    print("\nworst |error|: %.2f%%" % worst)
    if code == 0 and a.max_error is not None and worst > a.max_error:
        code = 3
    return code


if __name__ == "__main__":
    sys.exit(main())
