#!/usr/bin/env python3
"""Compares two numbers from JSON files, for FileCheck.

usage: cmp_json.py FILE1 PATH1 OP FILE2 PATH2   (OP: < <= == >= >; PATH a
dotted path as in jq.py).  Prints "PATH1 OP PATH2: yes" or ": NO (a vs b)"."""
import json
import operator
import sys


def get(path, expr):
    node = json.load(open(path))
    for part in expr.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


ops = {"<": operator.lt, "<=": operator.le, "==": operator.eq, ">=": operator.ge, ">": operator.gt}
f1, p1, op, f2, p2 = sys.argv[1:6]
a, b = get(f1, p1), get(f2, p2)
ok = ops[op](a, b)
print(f"{p1} {op} {p2}: {'yes' if ok else f'NO ({a} vs {b})'}")
