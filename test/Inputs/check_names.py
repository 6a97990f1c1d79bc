#!/usr/bin/env python3
"""Checks that a report's value names are the input's own printed SSA names:
each saved/recomputed entry's "value" must be defined by its "op" in the
input as mlir-opt prints it.

usage: check_names.py REPORT.json CANONICAL_INPUT.mlir"""
import json
import re
import sys

report = json.load(open(sys.argv[1]))
defs = {}
for line in open(sys.argv[2]):
    m = re.match(r'\s*(%[0-9]+)(?::\d+)? = "([^"]+)"', line)
    if m:
        defs[m.group(1)] = m.group(2)
entries = [e for f in report["functions"] for e in f["saved"] + f["recomputed"]]
bad = [e for e in entries if defs.get(e["value"].split("#")[0]) != e["op"]]
print(f"{len(entries)} names checked, {len(bad)} do not name their op in the input")
for e in bad[:10]:
    print("  ", e)
sys.exit(1 if bad else 0)
