"""One rank of a pipeline-parallel training step (torch.distributed.pipelining
over gloo, on the CPU), each stage compiled with autoac's backend and its
microbatches planned together as the schedule runs them (backend.capture).
Started by test_torch_pipeline.py, one process per rank:

    RANK=r WORLD_SIZE=P MASTER_ADDR=127.0.0.1 MASTER_PORT=... \\
        python pipeline_worker.py OUT.json SCHEDULE BUDGET [BUDGET ...]

BUDGET is none, a size, or `third` (a third of the way from this stage's
lowest peak to its peak at no budget).  Writes, per budget: the schedule
entries the plan ran over, the planned and the measured peak (torch.profiler's
CPU allocation events over one step, from what the plan counts of what
existed before it: the stage's parameters and the inputs its calls took), the
report, and the stage's gradients of the measured step.
"""
import gc
import json
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.pipelining import PipelineStage, Schedule1F1B, ScheduleGPipe

import autoac.pytorch as act
from autoac.pytorch._compile import caches_off
from autoac.measure.torch_step import _cpu_peak_deltas, _storage_bytes

D, BLOCKS, MICRO, ROWS = 96, 4, 4, 12


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.n = nn.LayerNorm(d)
        self.a = nn.Linear(d, 4 * d)
        self.b = nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.b(torch.nn.functional.gelu(self.a(self.n(x))))


def model():
    torch.manual_seed(0)
    return nn.Sequential(*[Block(D) for _ in range(BLOCKS)])


def batch():
    g = torch.Generator().manual_seed(1)
    return torch.randn(MICRO * ROWS, D, generator=g), torch.randn(MICRO * ROWS, D, generator=g)


def loss_fn(out, target):
    return ((out - target) ** 2).mean()


def run(rank, world, schedule, budget):
    full = model()
    per = BLOCKS // world
    sub = nn.Sequential(*full[rank * per:(rank + 1) * per])
    del full
    x, y = batch()
    be = act.backend(budget, compiler="aot_eager", grads="accumulate")
    stage = PipelineStage(torch.compile(sub, backend=be), rank, world, torch.device("cpu"))
    # The loss compiled with the same backend: the last stage's plan sees it
    # (an eager loss's temporaries are memory no plan counts)
    sched = (Schedule1F1B if schedule == "1f1b" else ScheduleGPipe)(
        stage, n_microbatches=MICRO, loss_fn=torch.compile(loss_fn, backend=be))

    def step():
        if rank == 0:
            sched.step(x)
        elif rank == world - 1:
            sched.step(target=y)
        else:
            sched.step()
    torch._dynamo.reset()
    with caches_off():
        # torch's pipelining warms up on its first step (a forward and a
        # backward per stage to learn shapes): capture a steady one
        step()
        joint = be.capture(step)          # plans the stage's microbatches together
        step()                            # compiles with the joint plan
    # grads="accumulate": the gradients exist before the step (zeroed in
    # place, as the plan counts them), not None
    for p in sub.parameters():
        p.grad.zero_()
    gc.collect()
    inputs = [t for t in be.captured_inputs if isinstance(t, torch.Tensor)]
    baseline = _storage_bytes(list(sub.parameters()) + [p.grad for p in sub.parameters()] + inputs)
    dist.barrier()
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        step()
    delta, _ = _cpu_peak_deltas(prof)
    schedule_attr = joint.module.split("\n", 1)[0]
    return {"budget": joint.report.get("budget_bytes"), "planned": joint.report["peak_bytes"],
            "measured": baseline + delta, "feasible": joint.report.get("feasible", True),
            "schedule": schedule_attr, "report": joint.report, "warnings": joint.warnings,
            "grads": [p.grad.flatten().tolist() for p in sub.parameters()]}


def main(argv):
    out, schedule, budgets = argv[0], argv[1], argv[2:]
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    results, bounds = [], {}
    for b in budgets:
        if b == "third":
            lo, hi = bounds["lowest"], bounds["none"]
            b = int(lo + (hi - lo) / 3)
        r = run(rank, world, schedule, None if b == "none" else b)
        if b == "none":
            bounds["none"] = r["planned"]
        if b == "1":
            bounds["lowest"] = r["planned"]
        results.append(r)
    with open(out, "w") as f:
        json.dump({"rank": rank, "world": world, "results": results}, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1:])
