#!/usr/bin/env bash
# The main job on a bundled example: plan the 8-layer MLP's joint graph
# (traced from PyTorch, trained with Adam) under a 529 MiB budget, below the
# 532.25 MiB the min-cut plan needs (and above the lowest peak, 526.25 MiB),
# so that autoac has to recompute; print what autoac saw and chose, the
# before/after (min-cut plan against the planned one), and write the planned
# IR and the report.
#   BUDGET=...        another budget (default 529MiB)
#   AUTOAC_BUILD=dir  use an existing build (no setup, no build)
#   OUT=dir           where the IR and the reports go (default out/)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${AUTOAC_BUILD:-}" ]; then
  BUILD=$AUTOAC_BUILD
else
  BUILD=build
  scripts/setup.sh "$BUILD"
fi
OUT=${OUT:-out}
BUDGET=${BUDGET:-529MiB}
mkdir -p "$OUT"
IN=examples/corpus/mlp_relu_8.mlir
# Before: the min-cut plan (what a partitioner saves without a budget).
"$BUILD"/bin/ac-opt "$IN" --ac-optimizer=adam --ac-strategy=mincut \
  --ac-report="$OUT"/mlp_relu_8.mincut.report.json -o /dev/stdout >/dev/null
# After: planned under the budget.
"$BUILD"/bin/ac-opt "$IN" --ac-budget="$BUDGET" \
  --ac-optimizer=adam --ac-report="$OUT"/mlp_relu_8.report.json \
  --ac-summary -o "$OUT"/mlp_relu_8.planned.mlir
python3 - "$OUT"/mlp_relu_8.mincut.report.json "$OUT"/mlp_relu_8.report.json "$BUDGET" <<'PY'
import json, sys
def mib(b):
    return "%.2f MiB" % (b / 2**20)
rows = []
for label, path in (("before (min-cut)", sys.argv[1]), ("after (budget %s)" % sys.argv[3], sys.argv[2])):
    r = json.load(open(path))
    ops = sum(len(f.get("recomputed", [])) for f in r["functions"])
    rows.append((label, mib(r["peak_bytes"]), mib(r["saved_bytes"]), str(ops),
                 "%.1f %%" % r["recompute_overhead_percent"]))
head = ("", "peak", "saved", "recomputed ops", "overhead")
w = [max(len(x[i]) for x in rows + [head]) for i in range(5)]
for x in [head] + rows:
    print("  ".join([x[0].ljust(w[0])] + [x[i].rjust(w[i]) for i in range(1, 5)]))
PY
echo "planned IR: $OUT/mlp_relu_8.planned.mlir, report: $OUT/mlp_relu_8.report.json"
