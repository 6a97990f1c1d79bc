#!/usr/bin/env python3
"""Puts autoac's min-cut save totals beside PyTorch's for one corpus graph.

usage: compare_torch.py REPORT.json torch_reference.json GRAPH
Prints both totals and the difference; exits 1 if autoac saves more bytes
than PyTorch (views are free aliases in autoac, so it should not)."""
import json
import sys

report = json.load(open(sys.argv[1]))
ref = json.load(open(sys.argv[2]))[sys.argv[3]]
ours_n = sum(len(f["saved"]) for f in report["functions"])
ours_b = report["saved_bytes"]
theirs_n, theirs_b = ref["torch_mincut_saved"], ref["torch_mincut_saved_bytes"]
diff = 100.0 * (ours_b - theirs_b) / theirs_b
print(f"{sys.argv[3]}: autoac mincut saves {ours_n} values, {ours_b} bytes; "
      f"torch saves {theirs_n} values, {theirs_b} bytes; difference {diff:+.1f}%")
sys.exit(0 if ours_b <= theirs_b else 1)
