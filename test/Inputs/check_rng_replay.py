#!/usr/bin/env python3
"""Compares autoac's reports for one joint graph: save-all, the lowest plan
with random ops kept (rng=keep) and with them replayed (rng=replay).  Prints
the activation bytes (saved_bytes) of each plan against save-all's and
whether replay reaches at most a fifth of them, and checks in the annotated
replay output that no op with unreplayable randomness is recomputed (seed
draws never; every generator op name under autoac.rng.).

usage: check_rng_replay.py SAVEALL.json KEEP.json REPLAY.json ANNOTATED.mlir"""
import json
import re
import sys

sa, keep, rep = (json.load(open(p)) for p in sys.argv[1:4])
base = sa["saved_bytes"]
for name, r in (("keep", keep), ("replay", rep)):
    print(f"{name}: saved {r['saved_bytes']} of save-all's {base}: "
          f"{'<=' if 5 * r['saved_bytes'] <= base else '>'} 1/5")
bad = []
recomputed_generators = 0
for line in open(sys.argv[4]):
    m = re.search(r'"([a-z_]+\.[A-Za-z0-9_.]+)"\(.*\{[^}]*ac\.recomputed', line)
    if not m:
        continue
    op = m.group(1)
    if op.startswith("autoac.rng."):
        recomputed_generators += 1
    elif re.search(r"rand|bernoulli|dropout|normal|uniform|rng", op) and \
            "dropout_backward" not in op:
        bad.append(op)
print(f"generators recomputed: {'some' if recomputed_generators else 'none'}")
print(f"unreplayable random ops recomputed: {len(bad)} {sorted(set(bad))}")
