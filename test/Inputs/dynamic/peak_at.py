"""peak_at.py REPORT NAME=SIZE... [--expect BYTES | --expect-report STATIC_REPORT]

Evaluates a dynamic-shape report's peak at the given sizes: the maximum of
its `peak_pieces` (docs/contract.md, section 4).  Prints it; with --expect,
exits 1 unless it equals BYTES; with --expect-report, unless it equals that
report's `peak_bytes` (the same program with the sizes written in).  A
symbol not given is at its bound."""
import json
import re
import sys


def evaluate(poly, sizes):
    total = 0
    for term in poly.split(" + "):
        value = 1
        for factor in term.split("*"):
            m = re.fullmatch(r"(.+)\^(\d+)", factor)
            name, power = (m.group(1), int(m.group(2))) if m else (factor, 1)
            if re.fullmatch(r"\d+", name):
                value *= int(name) ** power
            else:
                value *= sizes[name] ** power
        total += value
    return total


def main(argv):
    report = json.load(open(argv[1]))
    sizes = {s["name"]: s["bound"] for s in report["symbols"]}
    expect = None
    args = argv[2:]
    while args:
        a = args.pop(0)
        if a == "--expect":
            expect = int(args.pop(0))
        elif a == "--expect-report":
            expect = json.load(open(args.pop(0)))["peak_bytes"]
        else:
            name, size = a.rsplit("=", 1)
            if name not in sizes:
                sys.exit("peak_at: no symbol %r in the report" % name)
            sizes[name] = int(size)
    assert report["peak_pieces_complete"], "peak_pieces incomplete"
    peak = max(evaluate(p, sizes) for p in report["peak_pieces"])
    print("peak", peak)
    if expect is not None and peak != expect:
        print("peak_at: expected", expect, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
