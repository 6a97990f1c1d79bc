#!/usr/bin/env python3
"""Same outputs before and after a change that must not change behaviour
(a refactor, a move): plans the same inputs with two builds' ac-opt and
compares everything they write, byte for byte.

    python3 test/difftest/same_outputs.py REF_BUILD NEW_BUILD [--programs N]
        [--seed S] [--jobs J] [--input FILE.mlir ...]

Inputs: the corpus beside the repository (../shared/corpus/*.mlir), every
--input, and N differential-tester programs (seeds S..S+N-1, printed by
mlir-opt as the tester does).  Each input is planned by every strategy at
no budget, at 1 B (the lowest peak) and at two budgets between the lowest
and the save-all peak (taken from REF's reports), with rng keep and replay;
for each, the planned IR, the JSON report, the diagnostics and the exit
status of both builds must be equal (the search's wall-clock `seconds`
aside).  Prints the first differences; exits
1 when any, 0 otherwise.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import difftest  # noqa: E402

STRATEGIES = ["greedy", "save-all", "mincut", "knapsack", "beam", "ilp"]


def run(build, path, work, tag, strategy, budget, rng):
    out = os.path.join(work, tag + ".mlir")
    rep = os.path.join(work, tag + ".json")
    cmd = [os.path.join(build, "bin", "ac-opt"), path, "--ac-mode=split",
           "--ac-strategy=" + strategy, "--ac-rng=" + rng, "--ac-report=" + rep, "-o", out]
    if budget is not None:
        cmd.append("--ac-budget=%d" % budget)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    res = {"rc": p.returncode, "stderr": p.stderr.replace(path, "INPUT")}
    for key, f in (("ir", out), ("report", rep)):
        try:
            with open(f) as fh:
                res[key] = fh.read()
        except OSError:
            res[key] = None
    if res["report"] is not None:
        # The search's wall-clock seconds are the one field that varies run
        # to run.
        res["report"] = re.sub(r'"seconds": [-+0-9.e]+', '"seconds": T', res["report"])
    return res


def budgets(ref, path, work):
    lo = run(ref, path, work, "probe-lo", "greedy", 1, "keep")
    hi = run(ref, path, work, "probe-hi", "save-all", None, "keep")
    out = [None, 1]
    try:
        a = json.loads(lo["report"])["peak_bytes"]
        b = json.loads(hi["report"])["peak_bytes"]
        out += sorted({int(a + (b - a) * f) for f in (0.3, 0.7)})
    except (TypeError, ValueError, KeyError):
        pass
    return out


def compare(args, path, label):
    diffs = []
    with tempfile.TemporaryDirectory(prefix="same-outputs-") as work:
        for budget in budgets(args.ref, path, work):
            for strategy in STRATEGIES:
                for rng in ("keep", "replay"):
                    a = run(args.ref, path, work, "a", strategy, budget, rng)
                    b = run(args.new, path, work, "b", strategy, budget, rng)
                    for key in ("rc", "stderr", "report", "ir"):
                        if a[key] != b[key]:
                            diffs.append("%s: %s budget=%s rng=%s: %s differs" %
                                         (label, strategy, budget, rng, key))
                            break
    return diffs


def programs(args, work):
    tools = difftest.Tools(args.ref)
    runner = difftest.Runner(tools)
    for seed in range(args.seed, args.seed + args.programs):
        prog, _ = difftest.draw(seed)
        d = os.path.join(work, "p%d" % seed)
        os.makedirs(d)
        try:
            path = runner.prepare(prog, d)[0]
        except difftest.Div:
            continue
        yield path, "seed %d" % seed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ref")
    ap.add_argument("new")
    ap.add_argument("--programs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--input", action="append", default=[])
    ap.add_argument("--no-corpus", action="store_true")
    args = ap.parse_args(argv)
    args.ref, args.new = os.path.abspath(args.ref), os.path.abspath(args.new)
    inputs = [(p, os.path.basename(p)) for p in args.input]
    if not args.no_corpus:
        corpus = sorted(glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "*.mlir")))
        inputs += [(p, os.path.basename(p)) for p in corpus]
    with tempfile.TemporaryDirectory(prefix="same-outputs-progs-") as work:
        inputs += list(programs(args, work))
        with ThreadPoolExecutor(args.jobs) as ex:
            results = list(ex.map(lambda pl: compare(args, *pl), inputs))
    diffs = [d for r in results for d in r]
    for d in diffs[:40]:
        print(d)
    print("same-outputs: %d inputs, %d differences" % (len(inputs), len(diffs)))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
