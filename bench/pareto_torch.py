#!/usr/bin/env python3
"""Real step time and real peak memory of one PyTorch training step, per
activation-checkpointing policy: the seed's headline figure, measured.

For a transformer and a CNN, one training step (forward, `.sum()` loss,
backward) runs through AOT autograd with each policy's partition and the
door's runtime (autoac.pytorch.wrap_compiler: inputs freed at last use, the
same for every policy, so the policies differ only in what they save):

  autoac@B         autoac's plan at ~10 absolute budgets B, from save-all's
                   planned peak down to the lowest plan's
  knapsack@B       the same budgets, torch's memory-budget knapsack
                   (autoac's `strategy=knapsack` baseline)
  save-mm-conv     op-level policy: save the outputs of matmuls and
                   convolutions (and random ops), recompute everything else
  save-layer-in    op-level policy: save only what matmuls and convolutions
                   read (the layer inputs) and random ops; recompute the rest
  torch-mincut     functorch's min_cut_rematerialization_partition
  torch-default    functorch's default_partition (saves what the backward reads)

Peak: the highest running sum of the CPU allocator's events in the step
(torch.profiler memory events, as autoac.pytorch.measure_step measures),
plus what lives through it (parameters, buffers, inputs, and .grad with
grads=accumulate), as measure_step and the plan's static part count them;
on a GPU torch.cuda.max_memory_allocated over the step, plus the same.  Time: the median
of --steps timed steps after one warm-up step, without the profiler.
Prints a table, writes --csv and a plot (--plot, matplotlib), and the rows
as Markdown (--markdown) for docs/results.md.

    PYTHONPATH=python AUTOAC_LIBRARY=build/lib/libautoac.so \\
        python3 bench/pareto_torch.py --budgets 10 --csv /tmp/p.csv \\
        --plot docs/img/pareto_torch.png --markdown /tmp/p.md
"""
from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Set

import torch
import torch.fx as fx
import torch.nn as nn

import autoac.pytorch as act
from autoac import _torch_measure as tm

warnings.filterwarnings("ignore")

LOSS_BYTES = 8   # the f32 loss and its seed gradient, held outside the graph (docs/fidelity.md)
MATMUL_CONV = {"mm", "addmm", "bmm", "matmul", "baddbmm", "convolution", "_convolution",
               "cudnn_convolution", "mkldnn_convolution", "linear"}


# --------------------------------------------------------------------------
# models

class _GPT(nn.Module):
    """A small decoder-style transformer (pre-norm blocks, causal mask,
    dropout), as tests and docs use."""

    def __init__(self, layers=4, d=128, heads=4, vocab=512, seq=64, dropout=0.1):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(seq, d))
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=dropout, batch_first=True,
                                           norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d, vocab)
        self.register_buffer("mask", torch.triu(torch.full((seq, seq), float("-inf")), 1))

    def forward(self, ids):
        x = self.emb(ids) + self.pos
        return self.head(self.blocks(x, mask=self.mask))


def _cnn():
    try:
        import torchvision
        return torchvision.models.resnet18(num_classes=10), (8, 3, 64, 64)
    except Exception:  # noqa: BLE001  (no torchvision: a bundled CNN)
        layers, c = [], 3
        for w in (32, 64, 128):
            layers += [nn.Conv2d(c, w, 3, padding=1), nn.BatchNorm2d(w), nn.ReLU(),
                       nn.Conv2d(w, w, 3, padding=1), nn.BatchNorm2d(w), nn.ReLU(), nn.MaxPool2d(2)]
            c = w
        return nn.Sequential(*layers, nn.Flatten(), nn.Linear(c * 8 * 8, 10)), (8, 3, 64, 64)


def make_model(name: str):
    torch.manual_seed(0)
    if name == "transformer":
        return _GPT(), (torch.randint(0, 512, (8, 64)),)
    if name == "cnn":
        model, shape = _cnn()
        return model, (torch.randn(*shape),)
    raise SystemExit(f"pareto_torch: unknown model '{name}' (transformer, cnn)")


# --------------------------------------------------------------------------
# op-level policies: a save set chosen by op kind, split by autoac's split

def _base(node: fx.Node) -> str:
    t = node.target
    return t._schema.name.split("::")[-1] if isinstance(t, torch._ops.OpOverload) else str(t)


def _random(node: fx.Node) -> bool:
    t = node.target
    return isinstance(t, torch._ops.OpOverload) and torch.Tag.nondeterministic_seeded in t.tags


def _policy_partition(kind: str) -> Callable:
    """A partition_fn saving, of the forward values, random results and either
    the matmul/conv outputs ("save-mm-conv") or their activation operands
    ("save-layer-in"); autoac's split recomputes everything else."""
    def partition(joint: fx.GraphModule, joint_inputs):
        act._redirect_inplace_uses(joint.graph)
        joint.recompile()
        fwd_outs, _ = act._fwd_bwd_outputs(joint)
        tangents = {n for n in joint.graph.nodes if n.op == "placeholder" and "tangents" in str(n.target)}
        dep: Set[fx.Node] = set()
        for n in joint.graph.nodes:
            if n in tangents or any(a in dep for a in act._inputs_of(n)):
                dep.add(n)
        fwd = {n for n in act._ancestors(fwd_outs) if n not in dep and n.op != "placeholder"}
        fwd |= {u for n in list(fwd) for u in n.users if act._is_free(u) and u not in dep}
        saved: List[fx.Node] = []
        for n in joint.graph.nodes:
            if n not in fwd or n.op != "call_function" or act._is_free(n):
                continue
            if _random(n) or (kind == "save-mm-conv" and _base(n) in MATMUL_CONV):
                saved.append(n)
                saved += [u for u in n.users if u in fwd and act._is_free(u)]
            elif kind == "save-layer-in" and _base(n) in MATMUL_CONV:
                saved += [a for a in act._inputs_of(n) if a in fwd]
        fw, bw, _ = act.split_joint(joint, list(dict.fromkeys(saved)))
        return fw, bw
    return partition


# --------------------------------------------------------------------------
# running a policy

def _compile(model: nn.Module, partition: Callable):
    from functorch.compile import aot_module
    return aot_module(model, fw_compiler=act.wrap_compiler(None), bw_compiler=act.wrap_compiler(None),
                      partition_fn=partition)


def _measure(model: nn.Module, inputs: Sequence[Any], compiled, steps: int, grads: str) -> Dict[str, float]:
    loss = lambda out: out.float().sum()  # noqa: E731
    tm._prepare_grads(model, grads)
    tm._step(compiled, inputs, loss, 0)                      # compiles; warm-up
    tm._prepare_grads(model, grads)
    # what lives through the step, counted as measure_step counts it: the
    # plan's static part and inputs (peaks below include it, like budgets)
    counted = list(model.parameters()) + list(model.buffers()) + list(inputs)
    if grads == "accumulate":
        counted += [p.grad for p in model.parameters() if p.grad is not None]
    baseline = tm._storage_bytes(counted)
    cuda = any(p.is_cuda for p in model.parameters())
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        tm._step(compiled, inputs, loss, 0)
        torch.cuda.synchronize()
        peak = baseline + torch.cuda.max_memory_allocated() - base
    else:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            tm._step(compiled, inputs, loss, 0)
        peak = baseline + tm._cpu_peak_deltas(prof)[0]
    times = []
    for i in range(steps):
        tm._prepare_grads(model, grads)
        t0 = time.perf_counter()
        tm._step(compiled, inputs, loss, i)
        if cuda:
            torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return {"peak": float(peak), "seconds": statistics.median(times)}


def _fresh(name: str, device: str):
    model, inputs = make_model(name)
    model = model.to(device)
    return model, tuple(t.to(device) for t in inputs)


def run_model(name: str, budgets: int, steps: int, device: str, grads: str,
              log: Callable[[str], None]) -> List[Dict[str, Any]]:
    rows: List[Dict[str, Any]] = []
    # the door's own choice (act.device_profile): PyTorch's CPU kernels on
    # this many threads on the CPU, with their workspaces
    profile = None if device == "cpu" else "h100"

    def record(policy, budget, planned, compiled, model, inputs):
        m = _measure(model, inputs, compiled, steps, grads)
        last = getattr(getattr(compiled, "partition", None), "last", None)
        planned = int(last.report["peak_bytes"]) if last is not None else planned
        rows.append(dict(model=name, policy=policy, budget=budget, planned=planned, **m))
        log(f"  {name:12s} {policy:14s} {'' if budget is None else budget:>12} "
            f"{'' if planned is None else planned:>12} {int(m['peak']):>12} {m['seconds']*1e3:9.2f} ms")

    # the budgets: save-all's planned peak down to the lowest plan's
    ends = {}
    for key, b, strat in (("high", None, "save-all"), ("low", 1, "greedy")):
        model, inputs = _fresh(name, device)
        c = act.aot_module(model, b, device=profile, strategy=strat, grads=grads, reserve=LOSS_BYTES)
        tm._step(c, inputs, lambda o: o.float().sum(), 0)
        ends[key] = int(c.partition.last.report["peak_bytes"])
    hi, lo = ends["high"], ends["low"]
    grid = sorted({int(lo + (hi - lo) * i / max(1, budgets - 1)) for i in range(budgets)}, reverse=True)
    for strategy in ("greedy", "knapsack"):
        for b in grid:
            model, inputs = _fresh(name, device)
            c = act.aot_module(model, b, device=profile, strategy=strategy, grads=grads,
                               reserve=LOSS_BYTES)
            record("autoac" if strategy == "greedy" else "knapsack", b, None, c, model, inputs)
    from functorch.compile import default_partition, min_cut_rematerialization_partition
    for policy, part in (("save-mm-conv", _policy_partition("save-mm-conv")),
                         ("save-layer-in", _policy_partition("save-layer-in")),
                         ("torch-mincut", min_cut_rematerialization_partition),
                         ("torch-default", default_partition)):
        model, inputs = _fresh(name, device)
        try:
            record(policy, None, None, _compile(model, part), model, inputs)
        except RuntimeError as e:  # min-cut needs networkx (python3-networkx)
            log(f"  {name:12s} {policy:14s} unavailable: {e}")
    return rows


# --------------------------------------------------------------------------
# output

def write_markdown(rows: List[Dict[str, Any]], path: str) -> None:
    mib = 1 << 20
    with open(path, "w") as f:
        f.write("| model | policy | budget (MiB) | planned (MiB) | measured peak (MiB) | step (ms) |\n")
        f.write("|---|---|---:|---:|---:|---:|\n")
        for r in rows:
            b = "" if r["budget"] is None else f"{r['budget'] / mib:.2f}"
            p = "" if r["planned"] is None else f"{r['planned'] / mib:.2f}"
            f.write(f"| {r['model']} | {r['policy']} | {b} | {p} | {r['peak'] / mib:.2f} | "
                    f"{r['seconds'] * 1e3:.2f} |\n")


def plot(rows: List[Dict[str, Any]], path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    models = list(dict.fromkeys(r["model"] for r in rows))
    fig, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 4.5), squeeze=False)
    marks = {"autoac": "o-", "knapsack": "s--", "save-mm-conv": "^", "save-layer-in": "v",
             "torch-mincut": "D", "torch-default": "*"}
    for ax, m in zip(axes[0], models):
        for policy, style in marks.items():
            pts = sorted((r["peak"] / (1 << 20), r["seconds"] * 1e3) for r in rows
                         if r["model"] == m and r["policy"] == policy)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=policy, markersize=7)
        ax.set_title(f"{m}: one training step, measured")
        ax.set_xlabel("measured peak (MiB)")
        ax.set_ylabel("step time (ms)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="transformer,cnn")
    ap.add_argument("--budgets", type=int, default=10)
    ap.add_argument("--steps", type=int, default=3, help="timed steps per policy (median)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--grads", default=act.default_grads(), choices=act.GRAD_MODES)
    ap.add_argument("--csv")
    ap.add_argument("--plot")
    ap.add_argument("--markdown")
    a = ap.parse_args(argv)
    print(f"pareto_torch: device {a.device}, grads {a.grads}, torch {torch.__version__}")
    print(f"  {'model':12s} {'policy':14s} {'budget':>12} {'planned':>12} {'measured':>12} {'step':>12}")
    rows: List[Dict[str, Any]] = []
    for name in a.models.split(","):
        rows += run_model(name, a.budgets, a.steps, a.device, a.grads, lambda s: print(s, flush=True))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    if a.markdown:
        write_markdown(rows, a.markdown)
    if a.plot:
        plot(rows, a.plot)
    # the promise, measured: autoac's peak within each feasible budget
    over = [r for r in rows if r["policy"] == "autoac" and r["planned"] is not None and
            r["planned"] <= r["budget"] and r["peak"] > r["budget"]]
    for r in over:
        print(f"pareto_torch: {r['model']} autoac over budget: measured {int(r['peak'])} > {r['budget']}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
