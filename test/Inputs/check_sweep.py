#!/usr/bin/env python3
"""Checks a --ac-sweep CSV: greedy is monotone (a lower budget never gives a
higher peak) and under budget at every swept budget (all are >= the lowest
peak greedy reaches); prints how greedy compares with knapsack.

usage: check_sweep.py SWEEP.csv NAME"""
import collections
import csv
import sys

rows = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    rows[r["strategy"]][int(r["budget_bytes"])] = r
budgets = sorted(rows["greedy"])
problems = []
prev = None
for b in budgets:
    g = rows["greedy"][b]
    peak = int(g["peak_bytes"])
    if peak > b:
        problems.append(f"greedy over budget {b}: peak {peak}")
    if prev is not None and peak < prev[1]:
        problems.append(f"not monotone: budget {prev[0]} peak {prev[1]} > budget {b} peak {peak}")
    prev = (b, peak)
both = better = knap_over = 0
for b in budgets:
    g, k = rows["greedy"][b], rows["knapsack"][b]
    if int(k["peak_bytes"]) > b:
        knap_over += 1
        continue
    both += 1
    better += float(g["recompute_seconds"]) <= float(k["recompute_seconds"]) * (1 + 1e-9)
print(f"{sys.argv[2]}: {len(budgets)} budgets, greedy monotone and under budget: "
      f"{'yes' if not problems else 'NO'}; knapsack over budget at {knap_over}; "
      f"greedy recomputes no more than knapsack at {better} of {both} budgets both meet")
# At equal peak: for each distinct knapsack plan (peak P, seconds S), the
# cheapest greedy plan of the sweep whose peak is <= P.
gpts = [(int(r["peak_bytes"]), float(r["recompute_seconds"])) for r in rows["greedy"].values()]
kpts = {(int(r["peak_bytes"]), float(r["recompute_seconds"])) for r in rows["knapsack"].values()}
eq_total = eq_better = 0
for kp, ks in sorted(kpts):
    cands = [gs for gp, gs in gpts if gp <= kp]
    if not cands:
        continue
    eq_total += 1
    eq_better += min(cands) <= ks * (1 + 1e-9)
print(f"{sys.argv[2]}: at equal peak, greedy recomputes no more than knapsack for "
      f"{eq_better} of {eq_total} distinct knapsack plans")
# Overhead: each row's recompute_overhead_percent is its recompute seconds
# over the step's seconds (the same on every row, positive) times 100.
steps = {float(r["step_seconds"]) for s in rows.values() for r in s.values()}
ovh_ok = len(steps) == 1 and min(steps) > 0
for s in rows.values():
    for r in s.values():
        want = float(r["recompute_seconds"]) / float(r["step_seconds"]) * 100
        ovh_ok &= abs(float(r["recompute_overhead_percent"]) - want) <= 1e-6 * max(1.0, want)
print(f"overhead = recompute seconds / step seconds * 100 on every row: {'yes' if ovh_ok else 'NO'}")
# Offload (a host link: the pass's own plan per budget): monotone, under
# every budget greedy meets, and never more extra seconds (recompute +
# stalls) than greedy's recompute at a budget both meet.
if "offload" in rows:
    prev, cheaper, both_off = None, 0, 0
    for b in budgets:
        o, g = rows["offload"][b], rows["greedy"][b]
        peak = int(o["peak_bytes"])
        if peak > b and int(g["peak_bytes"]) <= b:
            problems.append(f"offload over budget {b}: peak {peak}")
        if prev is not None and peak < prev[1]:
            problems.append(f"offload not monotone: budget {prev[0]} peak {prev[1]} > budget {b} peak {peak}")
        prev = (b, peak)
        if peak <= b and int(g["peak_bytes"]) <= b:
            both_off += 1
            extra = float(o["recompute_seconds"]) + float(o["stall_seconds"])
            cheaper += extra <= float(g["recompute_seconds"]) * (1 + 1e-9)
    moved = sum(int(r["offloaded_bytes"]) > 0 for r in rows["offload"].values())
    print(f"{sys.argv[2]}: offload monotone and under budget: "
          f"{'yes' if not any(p.startswith('offload') for p in problems) else 'NO'}; "
          f"offloads at {moved} budgets; recompute + stall no more than greedy's at "
          f"{cheaper} of {both_off} budgets")
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
