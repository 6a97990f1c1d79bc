"""time_limit= (issue 22, bounded time): the option from the one table,
honoured through the bindings, bad values refused."""
import os
import subprocess
import sys

import pytest

import autoac

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "test", "reliability", "gen_chain.py")


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    path = tmp_path_factory.mktemp("chain") / "chain.mlir"
    with open(path, "w") as f:
        subprocess.check_call([sys.executable, GEN, "8000"], stdout=f)
    return str(path)


def test_time_limit_stops_with_best_plan(chain):
    r = autoac.plan_file(chain, budget="12MB", time_limit=1e-6)
    assert r.report["search"]["limited"] is True
    assert "planning stopped at the time limit" in r.warnings
    assert r.report["peak_bytes"] <= r.report["baseline_peak_bytes"]["save-all"]
    assert "func.func @chain_bwd" in r.ir


def test_no_limit_no_search_block(chain):
    r = autoac.plan_file(chain, budget="12MB", time_limit="none")
    assert "search" not in r.report
    assert "time limit" not in r.warnings


@pytest.mark.parametrize("bad", [0, -1, "", "fast", "nan"])
def test_bad_time_limit_refused(chain, bad):
    with pytest.raises(autoac.AutoacError, match="bad value for option 'time-limit'"):
        autoac.plan_file(chain, time_limit=bad)
