"""Pipeline parallelism (torch.distributed.pipelining, gloo on the CPU): each
rank's stage compiled with autoac's backend, its microbatches captured in the
order the schedule runs them (1F1B: stage i of P holds up to P - i
microbatches' saves) and planned together under that rank's budget
(backend.capture); measured on each rank within 2 % of its plan, under every
feasible budget, monotone, gradients equal to one process running the same
microbatches.  Two and four ranks (1F1B), processes started here, bounded
in time."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")
if int(torch.__version__.split(".")[0]) < 2:
    pytest.skip("torch.distributed.pipelining needs torch 2.x", allow_module_level=True)
import torch.distributed as dist  # noqa: E402

if not dist.is_available() or not dist.is_gloo_available():
    pytest.skip("torch.distributed with gloo is not available", allow_module_level=True)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pipeline_worker as pw  # noqa: E402
from gloo_ranks import run_ranks  # noqa: E402

def _run_ranks(tmp_path, schedule, budgets, world=2):
    return run_ranks(tmp_path, "pipeline_worker.py", [schedule] + budgets, world)


def _reference_grads():
    """One process, the same model and microbatches: each microbatch's loss
    backward in turn, then the gradients divided by their number (what the
    schedule's scale_grads does)."""
    model = pw.model()
    x, y = pw.batch()
    for xm, ym in zip(x.tensor_split(pw.MICRO), y.tensor_split(pw.MICRO)):
        pw.loss_fn(model(xm), ym).backward()
    return [p.grad / pw.MICRO for p in model.parameters()]


def _schedule(attr):
    return [s.strip().strip('"') for s in attr.split("[", 1)[1].split("]", 1)[0].split(",")]


def _check(ranks, expected_orders):
    ref = _reference_grads()
    per = len(ref) // len(ranks)
    for d in ranks:
        r = d["rank"]
        res = d["results"]
        assert _schedule(res[0]["schedule"]) == expected_orders[r]
        for x in res:
            # within 2 % of the plan, never over a budget the report calls feasible
            assert abs(x["measured"] - x["planned"]) <= 0.02 * x["planned"], (r, x["budget"], x)
            if x["budget"] is not None and x["feasible"]:
                assert x["planned"] <= x["budget"] and x["measured"] <= x["budget"], (r, x)
            mine = ref[r * per:(r + 1) * per]
            for got, want in zip(x["grads"], mine):
                torch.testing.assert_close(torch.tensor(got), want.flatten(), rtol=1e-5, atol=1e-7)
        planned = [x["planned"] for x in sorted(res, key=lambda x: (x["budget"] is None,
                                                                     x["budget"] or 0))]
        assert planned == sorted(planned), ("a lower budget raised the peak", r, planned)


def _names(order):
    return [f"g0_c{k}.{kind}" for kind, k in order]


def _last_stage(order):
    """The last stage's entries: its loss (compiled too, graph 1) runs
    after each forward, its backward before the stage's."""
    out = []
    for kind, k in order:
        out += [f"g0_c{k}.fwd", f"g1_c{k}.fwd"] if kind == "fwd" else [f"g1_c{k}.bwd", f"g0_c{k}.bwd"]
    return out


def test_1f1b_two_stages_each_rank_within_its_plan(tmp_path):
    ranks = _run_ranks(tmp_path, "1f1b", ["none", "1", "third"])
    # stage 0 of 2 runs two forwards ahead; the last stage alternates
    s0 = [("fwd", 0), ("fwd", 1), ("bwd", 0), ("fwd", 2), ("bwd", 1), ("fwd", 3), ("bwd", 2), ("bwd", 3)]
    s1 = [(k, m) for m in range(pw.MICRO) for k in ("fwd", "bwd")]
    _check(ranks, [_names(s0), _last_stage(s1)])
    # stage 0 holds two microbatches' saves: its lowest budget must recompute
    lowest = ranks[0]["results"][1]
    assert lowest["report"]["recompute_seconds"] > ranks[0]["results"][0]["report"]["recompute_seconds"]
    assert lowest["planned"] < ranks[0]["results"][0]["planned"]


def _one_f_one_b(stage, stages):
    """torch's Schedule1F1B on `stage` of `stages`: min(stages - stage,
    microbatches) forwards, then one backward and one forward in turn, then
    the backwards left (stage i of P holds up to P - i microbatches)."""
    warm = min(stages - stage, pw.MICRO)
    out = [("fwd", m) for m in range(warm)]
    for m in range(warm, pw.MICRO):
        out += [("bwd", m - warm), ("fwd", m)]
    return out + [("bwd", m) for m in range(pw.MICRO - warm, pw.MICRO)]


def test_1f1b_four_stages_each_rank_within_its_plan(tmp_path):
    # one block per rank; stage 0 holds all four microbatches, stage 3 one
    ranks = _run_ranks(tmp_path, "1f1b", ["none", "1", "third"], world=4)
    _check(ranks, [_names(_one_f_one_b(i, 4)) for i in range(3)] +
           [_last_stage(_one_f_one_b(3, 4))])


@pytest.mark.xfail(strict=True, reason="GPipe's last stage measures 3.2 % under its plan: with "
                   "every microbatch in flight, each stage output the compiled loss reads is "
                   "counted on both sides (one function per call: stacked_module) "
                   "(docs/python.md, 'Pipeline parallelism')")
def test_gpipe_two_stages_holds_every_microbatch(tmp_path):
    ranks = _run_ranks(tmp_path, "gpipe", ["none", "1"])
    order = [("fwd", m) for m in range(pw.MICRO)] + [("bwd", m) for m in range(pw.MICRO)]
    _check(ranks, [_names(order), _last_stage(order)])
