"""Dynamic dimensions through the bindings: the max_dim keyword (the
option max-dim), the report's symbols and formula, the unbounded error."""
import os

import pytest

import autoac

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLP = os.path.join(ROOT, "test", "Inputs", "dynamic", "mlp.mlir")


def _unbounded():
    with open(MLP) as f:
        return f.read().replace(" {ac.max_shape = array<i64: 32, -1>}", "")


def test_max_dim_keyword_bounds_the_symbol():
    r = autoac.plan(_unbounded(), max_dim="arg0.0=8")
    assert r.report["symbols"] == [{"name": "arg0.0", "bound": 8,
                                    "args": ["arg0.0", "arg3.0"]}]
    # docs in test/lit/dynamic/report.test: 1792 bytes per row + 163840.
    assert r.report["peak_formula"] == "1792*arg0.0 + 163840"
    assert r.report["peak_bytes"] == 1792 * 8 + 163840
    assert r.report["peak_at_bounds"] == r.report["peak_bytes"]
    assert r.report["cost_at"] == "bounds"
    assert "tensor<?x64xf32>" in r.ir


def test_no_bound_is_an_error_naming_the_dimension():
    with pytest.raises(autoac.AutoacError, match=r"dimension 0 of argument #0 of '@mlp' \(arg0\.0\) is dynamic and has no bound"):
        autoac.plan(_unbounded())


def test_bad_max_dim_is_refused():
    with pytest.raises(autoac.AutoacError, match="invalid max-dim 'arg0'"):
        autoac.plan(_unbounded(), max_dim="arg0")


def test_static_module_has_no_dynamic_keys():
    with open(MLP) as f:
        text = f.read()
    text = text.replace("tensor<?x", "tensor<4x").replace("x?xf32", "x4xf32")
    text = text.replace("tensor.empty(%b)", "tensor.empty()")
    r = autoac.plan(text)
    assert "symbols" not in r.report and "peak_formula" not in r.report


def test_buckets_keyword_plans_each_bucket():
    # The option buckets (docs/contract.md, "Size buckets"): one plan per
    # bucket of arg0.0 (bound 32), the dispatch in @mlp, the report's
    # buckets with each bucket's peak at its upper size (1792 per row +
    # 163840, as test/lit/dynamic/report.test explains).
    with open(MLP) as f:
        r = autoac.plan(f.read(), buckets="arg0.0:4,16")
    assert [(b["lower"], b["upper"]) for b in r.report["buckets"]] == [(1, 4), (5, 16), (17, 32)]
    assert [b["peak_bytes"] for b in r.report["buckets"]] == [1792 * n + 163840 for n in (4, 16, 32)]
    assert r.report["peak_bytes"] == 1792 * 32 + 163840
    assert "scf.index_switch" in r.ir
    for k in range(3):
        assert "func.func @mlp_b%d_fwd(" % k in r.ir and "call @mlp_b%d(" % k in r.ir


def test_bad_buckets_are_refused():
    with open(MLP) as f:
        text = f.read()
    with pytest.raises(autoac.AutoacError, match=r"bucket bounds must increase strictly \(4 after 8\)"):
        autoac.plan(text, buckets="arg0.0:8,4")
    with pytest.raises(autoac.AutoacError, match="bound 64 is above arg0.0's own bound 32"):
        autoac.plan(text, buckets="arg0.0:64")
