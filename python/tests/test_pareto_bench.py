"""bench/pareto_torch.py's verdicts on measured rows: each method's
monotonicity in its budget, and autoac against the fastest knapsack run
within each of its budgets (what docs/results.md reports)."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import pareto_torch as pt  # noqa: E402


def _row(policy, peak, seconds, budget=None, fraction=None, planned=None, model="m"):
    return dict(model=model, policy=policy, budget=budget, fraction=fraction, planned=planned,
                peak=peak, seconds=seconds)


def test_monotone_names_the_worst_rise_of_a_method():
    rows = [_row("autoac", 90, 1.0, budget=100, planned=90),
            _row("autoac", 80, 1.1, budget=85, planned=80),
            _row("autoac", 70, 1.2, budget=1, planned=70),
            # torch's knapsack: 1.0 -> 100, 0.5 -> 60, 0.0 -> 90 (a rise of 1.5x)
            _row("torch-knapsack-greedy", 100, 1.0, fraction=1.0),
            _row("torch-knapsack-greedy", 60, 1.3, fraction=0.5),
            _row("torch-knapsack-greedy", 90, 1.5, fraction=0.0)]
    lines = pt.monotone(rows)
    assert "m autoac: monotone over 3 budgets (worst rise 1.000x)" in lines
    assert "m torch-knapsack-greedy: NOT monotone over 3 budgets (worst rise 1.500x)" in lines


def test_against_knapsack_compares_at_each_budget_both_reach():
    rows = [_row("autoac", 90, 1.0, budget=100, planned=90),
            _row("autoac", 50, 2.0, budget=55, planned=50),
            _row("autoac", 40, 3.0, budget=1, planned=40),      # the floor: no budget to compare at
            _row("autoac", 70, 1.0, budget=60, planned=60),      # planned within, measured over
            _row("torch-knapsack-dp", 95, 0.5, fraction=0.9),
            _row("torch-knapsack-ilp", 80, 0.8, fraction=0.5)]
    lines = pt.against_knapsack(rows)
    assert lines == [
        "m at 100: autoac 90 B 1000.00 ms; fastest knapsack within it torch-knapsack-dp@0.9 95 B 500.00 ms",
        "m at 55: knapsack reaches no fraction within it; autoac 50 B within",
        "m at 60: knapsack reaches no fraction within it; autoac 70 B OVER"]
