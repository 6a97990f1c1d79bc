#!/usr/bin/env python3
"""Prints parts of a JSON file compactly, one per line, for FileCheck.

usage: jq.py FILE EXPR...   where EXPR is a dotted path: functions.0.phases
       (a '#' path prints the length of the list there)."""
import json
import sys

doc = json.load(open(sys.argv[1]))
for expr in sys.argv[2:]:
    node = doc
    count = expr.startswith("#")
    for part in expr.lstrip("#").split("."):
        if not part:
            continue
        node = node[int(part)] if isinstance(node, list) else node[part]
    value = len(node) if count else node
    print(f"{expr} = {json.dumps(value, sort_keys=True, separators=(',', ':'))}")
