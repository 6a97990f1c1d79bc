#!/usr/bin/env python3
"""Real step time and real peak memory of one PyTorch training step, per
activation-checkpointing policy: the seed's headline figure, measured.

On torch 2.x (the project's venv, scripts/setup.sh), every policy runs
through `torch.compile` with Inductor (--compiler aot_eager for AOT
autograd's eager backend), caches off, on a transformer and a CNN; one
training step is forward, `.sum()` loss, backward:

  autoac-save-all        autoac's backend with every activation saved
  autoac@B               autoac's backend (autoac.pytorch.backend) at ~10
                         absolute budgets B, from the min-cut plan's planned
                         peak down to the lowest plan's (autoac@1)
  torch-knapsack-S@F     torch's own partitioner with
                         functorch.config.activation_memory_budget = F
                         (fractions 0.0-1.0, --fractions) and its solver S
                         (greedy, ilp, dp; --solvers)
  sac-mm-conv            selective activation checkpointing per block
                         (torch.utils.checkpoint with a SAC policy): save
                         matmul and convolution outputs, recompute the rest
  sac-block-in           the same, saving nothing but each block's input
  torch-mincut           torch.compile's default (min-cut partition)

On torch 1.13 (Debian's; no torch.compile, no knapsack) the older rows:
AOT autograd (aot_module) with each policy's partition and the door's
runtime; `knapsack@B` there is autoac's `strategy=knapsack` re-implementation
of torch's knapsack.

Peak: the highest running sum of the CPU allocator's events in the step
(torch.profiler memory events, as autoac.pytorch.measure_step measures),
plus what lives through it (parameters, buffers, inputs, and .grad with
grads=accumulate), as the plan's static part counts them; on a GPU
torch.cuda.max_memory_allocated over the step, plus the same.  Time: the
median of --steps timed steps after warm-up, without the profiler, on
--threads threads (default: the CPUs the process may run on; pin it to a
quiet core).  Prints the CPU, a table, each method's monotonicity in its
budget, writes --csv, a plot (--plot, matplotlib) and the rows as Markdown
(--markdown) for docs/results.md.  Exits 1 when autoac measures above a budget its report
calls feasible.

    PYTHONPATH=python:bench AUTOAC_LIBRARY=build/lib/libautoac.so \\
        taskset -c 1 python bench/pareto_torch.py --budgets 10 --csv /tmp/p.csv \\
        --plot docs/img/pareto_torch_compile.png --markdown /tmp/p.md
"""
from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

import torch
import torch.fx as fx
import torch.nn as nn

import autoac.pytorch as act
from autoac.measure import torch_step as tm

warnings.filterwarnings("ignore")

LOSS_BYTES = 8   # the f32 loss and its seed gradient, held outside the graph (docs/fidelity.md)
MATMUL_CONV = {"mm", "addmm", "bmm", "matmul", "baddbmm", "convolution", "_convolution",
               "cudnn_convolution", "mkldnn_convolution", "linear"}


# --------------------------------------------------------------------------
# models

class _Block(nn.Module):
    """A pre-norm decoder block, written out (causal self-attention by
    matmul and softmax, a 4x GELU MLP, dropout), so that torch.compile
    captures it whole: nn.TransformerEncoder breaks the graph on its
    causal-mask check (`Tensor.item()`), and Dynamo then runs its layers
    eagerly, outside every graph a partitioner sees."""

    def __init__(self, d, heads, dropout):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (d // self.heads) ** -0.5 + mask
        att = self.drop(att.softmax(dim=-1))
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.drop(self.proj(y))
        return x + self.drop(self.out(nn.functional.gelu(self.fc(self.ln2(x)))))


class _GPT(nn.Module):
    """A small decoder-style transformer (pre-norm blocks, causal mask,
    dropout), as tests and docs use."""

    def __init__(self, layers=4, d=128, heads=4, vocab=512, seq=64, dropout=0.1):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(seq, d))
        self.blocks = nn.ModuleList(_Block(d, heads, dropout) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)
        self.register_buffer("mask", torch.triu(torch.full((seq, seq), float("-inf")), 1))

    def forward(self, ids):
        x = self.emb(ids) + self.pos
        for blk in self.blocks:
            x = blk(x, self.mask)
        return self.head(self.ln(x))


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
    """The torch 1.13 rows: AOT autograd (aot_module) with each policy's
    partition and the door's runtime; autoac's `strategy=knapsack` stands in
    for torch's knapsack, which 1.13 does not have."""
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
# torch 2.x: every policy through torch.compile (Inductor by default)

TORCH2 = int(torch.__version__.split(".")[0]) >= 2
FRACTIONS = tuple(round(0.1 * i, 1) for i in range(11))
SOLVERS = ("greedy", "ilp", "dp")


def _is_seeded(op) -> bool:
    return isinstance(op, torch._ops.OpOverload) and torch.Tag.nondeterministic_seeded in op.tags


def _sac_policy(kind: str) -> Callable:
    """An op-level SAC policy (torch.utils.checkpoint): "mm-conv" saves
    matmul and convolution outputs, "block-in" nothing (the block's inputs
    only, full checkpointing); random results are saved by both, since
    torch recomputes no random op without replaying its state."""
    from torch.utils.checkpoint import CheckpointPolicy

    def policy(ctx, op, *args, **kwargs):
        base = op._schema.name.split("::")[-1] if isinstance(op, torch._ops.OpOverload) else str(op)
        if _is_seeded(op) or (kind == "mm-conv" and base in MATMUL_CONV):
            return CheckpointPolicy.MUST_SAVE
        return CheckpointPolicy.PREFER_RECOMPUTE
    return policy


CONTAINERS = (nn.Sequential, nn.ModuleList, nn.ModuleDict)


def blocks_of(model: nn.Module) -> List[nn.Module]:
    """The model's blocks, found from its structure alone: the outermost
    modules (not containers) whose class occurs at least twice and that hold
    parameters below them (a GPT's layers, a ResNet's BasicBlocks)."""
    counts: Dict[type, int] = {}
    for m in model.modules():
        counts[type(m)] = counts.get(type(m), 0) + 1
    found: List[nn.Module] = []

    def visit(m: nn.Module) -> None:
        for c in m.children():
            if (not isinstance(c, CONTAINERS) and counts[type(c)] >= 2
                    and any(True for _ in c.children()) and any(True for _ in c.parameters())):
                found.append(c)
            else:
                visit(c)
    visit(model)
    return found


def with_sac(model: nn.Module, kind: str) -> nn.Module:
    """`model` with each block (blocks_of) run under
    torch.utils.checkpoint.checkpoint with the op-level policy `kind`, as
    torchtitan applies SAC per block."""
    import functools
    from torch.utils.checkpoint import checkpoint, create_selective_checkpoint_contexts
    context = functools.partial(create_selective_checkpoint_contexts, _sac_policy(kind))
    blocks = blocks_of(model)
    if not blocks:
        raise SystemExit("pareto_torch: the model has no repeated block to checkpoint")
    for b in blocks:
        inner = b.forward

        def forward(*args, _inner=inner, **kwargs):
            return checkpoint(_inner, *args, use_reentrant=False, context_fn=context, **kwargs)
        b.forward = forward
    return model


#: "inductor": torch's rows keep Inductor's layout choice (channels-last
#: convolutions on the CPU); "contiguous": they compile without it, as
#: autoac's backend always does (docs/fidelity.md, "Inductor's layouts")
TORCH_LAYOUTS = "inductor"


def _torch_config(fraction: Optional[float] = None, solver: Optional[str] = None):
    """Caches off (a cached graph skips the partitioner, and with it the
    budget being measured); torch's knapsack at `fraction` with `solver`;
    Inductor's layout optimization off with TORCH_LAYOUTS "contiguous"
    (the whole step runs inside, so both halves compile without it)."""
    from autoac.pytorch._compile import caches_off
    from torch._functorch import config as fconfig
    from torch._inductor import config as iconfig
    stack = caches_off()
    if TORCH_LAYOUTS == "contiguous":
        stack.enter_context(iconfig.patch(layout_optimization=False))
    if fraction is not None:
        stack.enter_context(fconfig.patch(activation_memory_budget=fraction,
                                          activation_memory_budget_solver=solver))
    return stack


def _autoac_plan_peak(backend) -> int:
    """The plan's peak: under Inductor that of the programs it compiled
    (backend.inductor_prediction, docs/fidelity.md "Inductor's programs"),
    else the report's."""
    pred = backend.inductor_prediction()
    if pred is not None:
        return int(pred.peak)
    rep = backend.joint.report if backend.joint is not None else backend.last.report
    return int(rep["peak_bytes"])


def run_model_compiled(name: str, budgets: int, steps: int, device: str, grads: str,
                       log: Callable[[str], None], compiler: str = "inductor",
                       fractions: Sequence[float] = FRACTIONS,
                       solvers: Sequence[str] = SOLVERS) -> List[Dict[str, Any]]:
    """The torch 2.x rows: autoac's backend at `budgets` absolute budgets
    (save-all's planned peak down to the lowest plan's), torch's
    activation_memory_budget knapsack at each fraction with each solver,
    SAC per block (mm-conv, block-in) and torch's default min-cut, every one
    compiled by torch.compile with `compiler`'s code and measured alike."""
    rows: List[Dict[str, Any]] = []
    profile = None if device == "cpu" else "h100"
    backend_name = "inductor" if compiler == "inductor" else "aot_eager"

    def record(policy, budget, make_backend, fraction=None, solver=None, sac=None):
        model, inputs = _fresh(name, device)
        if sac is not None:
            model = with_sac(model, sac)
        be = make_backend()
        torch._dynamo.reset()
        with _torch_config(fraction, solver):
            compiled = torch.compile(model, backend=be)
            if not isinstance(be, str) and compiler == "inductor" and budget is not None:
                # planned against Inductor's programs (backend.fit)
                be.fit(lambda: tm._step(compiled, inputs, lambda o: o.float().sum(), 0))
            m = _measure(model, inputs, compiled, steps, grads)
        planned = _autoac_plan_peak(be) if not isinstance(be, str) else None
        param = fraction if fraction is not None else budget
        rows.append(dict(model=name, policy=policy, budget=budget, fraction=fraction,
                         planned=planned, **m))
        log(f"  {name:12s} {policy:16s} {'' if param is None else param:>12} "
            f"{'' if planned is None else planned:>12} {int(m['peak']):>12} {m['seconds']*1e3:9.2f} ms")
        return planned

    def ours(b, **extra):
        return lambda: act.backend(b, compiler=compiler, device=profile, grads=grads,
                                   reserve=LOSS_BYTES, **extra)

    hi = record("autoac-save-all", None, ours(None, strategy="save-all"))
    lo = record("autoac", 1, ours(1))    # the lowest plan
    grid = sorted({int(lo + (hi - lo) * i / max(1, budgets - 1)) for i in range(budgets)},
                  reverse=True)
    for b in grid:
        record("autoac", b, ours(b))
    for solver in solvers:
        for f in fractions:
            record(f"torch-knapsack-{solver}", None, lambda: backend_name, fraction=f, solver=solver)
    for kind in ("mm-conv", "block-in"):
        record(f"sac-{kind}", None, lambda: backend_name, sac=kind)
    record("torch-mincut", None, lambda: backend_name)
    return rows


def monotone(rows: List[Dict[str, Any]]) -> List[str]:
    """Per method, whether its measured peak never rises as its budget
    falls (autoac: bytes; torch's knapsack: the fraction), and its worst
    rise (peak at the lower budget / peak at the higher)."""
    out = []
    for model in dict.fromkeys(r["model"] for r in rows):
        series: Dict[str, List[Tuple[float, float]]] = {}
        for r in rows:
            key = r["fraction"] if r.get("fraction") is not None else r["budget"]
            if r["model"] == model and key is not None:
                series.setdefault(r["policy"], []).append((float(key), r["peak"]))
        for policy, pts in series.items():
            pts.sort(reverse=True)                 # highest budget first
            worst, best_so_far = 1.0, pts[0][1]
            for _, peak in pts[1:]:
                worst = max(worst, peak / best_so_far)
                best_so_far = min(best_so_far, peak)
            out.append(f"{model} {policy}: {'monotone' if worst <= 1.0 else 'NOT monotone'}"
                       f" over {len(pts)} budgets (worst rise {worst:.3f}x)")
    return out


def against_knapsack(rows: List[Dict[str, Any]]) -> List[str]:
    """At each autoac budget B that torch's knapsack also reaches (some
    fraction, any solver, measured at or below B): autoac's measured peak
    and step time against the fastest knapsack run within B."""
    out = []
    for r in rows:
        if r["policy"] != "autoac" or r["budget"] is None or r["planned"] > r["budget"]:
            continue                       # the floor's row (budget 1): no budget to compare at
        b = r["budget"]
        k = [q for q in rows if q["model"] == r["model"] and q["policy"].startswith("torch-knapsack")
             and q["peak"] <= b]
        if not k:
            out.append(f"{r['model']} at {b}: knapsack reaches no fraction within it; "
                       f"autoac {int(r['peak'])} B {'within' if r['peak'] <= b else 'OVER'}")
            continue
        q = min(k, key=lambda q: q["seconds"])
        out.append(f"{r['model']} at {b}: autoac {int(r['peak'])} B {r['seconds']*1e3:.2f} ms; "
                   f"fastest knapsack within it {q['policy']}@{q['fraction']} {int(q['peak'])} B "
                   f"{q['seconds']*1e3:.2f} ms")
    return out


# --------------------------------------------------------------------------
# output

def write_markdown(rows: List[Dict[str, Any]], path: str) -> None:
    mib = 1 << 20
    with open(path, "w") as f:
        f.write("| model | policy | budget (MiB or torch's fraction) | planned (MiB) | measured peak (MiB) | step (ms) |\n")
        f.write("|---|---|---:|---:|---:|---:|\n")
        for r in rows:
            if r.get("fraction") is not None:
                b = f"{r['fraction']:.1f}"
            else:
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
             "torch-mincut": "D", "torch-default": "*", "autoac-save-all": "P",
             "torch-knapsack-greedy": "s--", "torch-knapsack-ilp": "x:", "torch-knapsack-dp": "d-.",
             "sac-mm-conv": "^", "sac-block-in": "v"}
    for ax, m in zip(axes[0], models):
        for policy, style in marks.items():
            mine = [r for r in rows if r["model"] == m and r["policy"] == policy]
            # torch's knapsack in the order of its fraction, the rest by peak
            order = (lambda r: r["fraction"]) if policy.startswith("torch-knapsack") else \
                (lambda r: (r["peak"], r["seconds"]))
            pts = [(r["peak"] / (1 << 20), r["seconds"] * 1e3) for r in sorted(mine, key=order)]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=policy, markersize=7)
        ax.set_title(f"{m}: one training step, measured (torch {torch.__version__.split('+')[0]})")
        ax.set_xlabel("measured peak (MiB)")
        ax.set_ylabel("step time (ms)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def main(argv: Optional[Sequence[str]] = None) -> int:
    global TORCH_LAYOUTS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="transformer,cnn")
    ap.add_argument("--budgets", type=int, default=10)
    ap.add_argument("--steps", type=int, default=3, help="timed steps per policy (median)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--grads", default=None, choices=act.GRAD_MODES)
    ap.add_argument("--csv")
    ap.add_argument("--plot")
    ap.add_argument("--markdown")
    ap.add_argument("--compiler", default="inductor", choices=("inductor", "aot_eager"),
                    help="torch 2.x: the backend every policy compiles with")
    ap.add_argument("--fractions", default=",".join(str(f) for f in FRACTIONS),
                    help="torch 2.x: torch's activation_memory_budget values")
    ap.add_argument("--solvers", default=",".join(SOLVERS),
                    help="torch 2.x: activation_memory_budget_solver values")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                    help="torch.set_num_threads (default: the CPUs this process may run on)")
    ap.add_argument("--torch-layouts", default=TORCH_LAYOUTS, choices=("inductor", "contiguous"),
                    help="torch 2.x: torch's rows with Inductor's layouts or contiguous ones")
    a = ap.parse_args(argv)
    TORCH_LAYOUTS = a.torch_layouts
    torch.set_num_threads(a.threads)
    if a.grads is None:
        a.grads = act.default_grads()
    import platform
    print(f"pareto_torch: device {a.device}, grads {a.grads}, torch {torch.__version__}, "
          f"{torch.get_num_threads()} threads, CPU {_cpu_name() or platform.processor()}"
          + (f", torch.compile backend {a.compiler}, torch's rows with {a.torch_layouts} layouts"
             if TORCH2 else ", aot_module"))
    print(f"  {'model':12s} {'policy':16s} {'budget':>12} {'planned':>12} {'measured':>12} {'step':>12}")
    rows: List[Dict[str, Any]] = []
    log = lambda s: print(s, flush=True)  # noqa: E731
    for name in a.models.split(","):
        if TORCH2:
            rows += run_model_compiled(name, a.budgets, a.steps, a.device, a.grads, log,
                                       compiler=a.compiler,
                                       fractions=[float(f) for f in a.fractions.split(",")],
                                       solvers=a.solvers.split(","))
        else:
            rows += run_model(name, a.budgets, a.steps, a.device, a.grads, log)
    if TORCH2:
        for line in monotone(rows) + against_knapsack(rows):
            print("pareto_torch: " + line)
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
