"""Checks that an `ac-opt --ac-sweep` table is aligned: every row has its
column separators where the header has them and is as long as the header,
and in each strategy column every row's fields end where the header's do.

usage: check_table.py TABLE_TEXT   (prints "aligned: ..." or "MISALIGNED: ...")
"""
import re
import sys

lines = [l for l in open(sys.argv[1]).read().splitlines() if l.strip()]
lines = [l for l in lines if not l.startswith("step ")]
header, rows = lines[0], lines[1:]


def seps(line):
    return [i for i, c in enumerate(line) if c == "|"]


def ends(line):
    """Where each space-separated field ends (right-aligned columns)."""
    return [m.end() for m in re.finditer(r"\S+", line)]


cols = seps(header)
bad = [r for r in rows if seps(r) != cols or len(r.rstrip()) != len(header.rstrip())]
# Right-aligned fields (peak, recompute seconds, ovh%) end where the header's do.
right = [e for e in ends(header) if e > cols[0]]
for r in rows:
    for start, stop in zip(cols, cols[1:] + [len(header)]):
        h = [e for e in ends(header[:stop]) if e > start + 2][1:]
        v = [e for e in ends(r[:stop]) if e > start + 2][1:]
        if h != v and r not in bad:
            bad.append(r)
if not rows or bad:
    print("MISALIGNED: %d of %d rows, first: %r" % (len(bad), len(rows), (bad or [""])[0]))
    sys.exit(1)
print("aligned: %d rows, %d strategy columns" % (len(rows), len(cols)))
