#!/usr/bin/env bash
# Reproduces docs/results.md: a 50-budget sweep of every strategy on every
# corpus graph, with greedy's monotonicity and its comparison with knapsack,
# and the activation memory each strategy saves within 3 % and 10 %
# estimated step-time overhead.
#   scripts/results.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
mkdir -p out/results
for g in mlp_relu_8 tx_l2_d256 resnet34_b4_112 tx_l6_d1024; do
  "$BUILD"/bin/ac-opt examples/corpus/$g.mlir --ac-sweep=50 \
    --ac-sweep-csv=out/results/$g.csv > out/results/$g.txt
  /usr/bin/python3 test/Inputs/check_sweep.py out/results/$g.csv $g
  /usr/bin/python3 - out/results/$g.csv $g <<'PY'
import csv, sys, collections
rows = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    rows[r["strategy"]].append(r)
def gib(b): return f"{int(b) / 2**30:.3f}"
print(f"| {sys.argv[2]} | strategy | lowest peak GiB | recompute s at lowest | budgets met (of 50) |")
for s, rs in rows.items():
    best = min(rs, key=lambda r: (int(r["peak_bytes"]), float(r["recompute_seconds"])))
    met = sum(int(r["feasible"]) for r in rs)
    print(f"| | {s} | {gib(best['peak_bytes'])} | {float(best['recompute_seconds']):.3g} | {met} |")
PY
  /usr/bin/python3 - out/results/$g.csv $g <<'PY'
import csv, sys, collections
rows = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    rows[r["strategy"]].append(r)
full = int(rows["save-all"][0]["saved_bytes"])
def best(rs, limit):
    ok = [r for r in rs if float(r["recompute_overhead_percent"]) <= limit]
    return min(ok, key=lambda r: int(r["saved_bytes"])) if ok else None
print(f"| {sys.argv[2]} | strategy | saved activations at <= 3 % overhead | at <= 10 % |")
for s, rs in rows.items():
    cells = []
    for limit in (3, 10):
        b = best(rs, limit)
        cells.append("-" if b is None else
                     f"{1 - int(b['saved_bytes']) / full:.0%} less ({float(b['recompute_overhead_percent']):.2g} %)")
    print(f"| | {s} | {cells[0]} | {cells[1]} |")
PY
done
