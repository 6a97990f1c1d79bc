"""One training step of a model through autoac's door, measured: the peak
PyTorch's allocator reaches against the peak autoac planned.

    m = autoac.pytorch.measure_step(model, (x,), budget="100MB")
    m.planned_peak, m.measured_peak, m.error_percent, m.grads_equal

See docs/python.md ("Measuring a step") and docs/fidelity.md ("PyTorch").
"""
from __future__ import annotations

import copy
import gc
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import torch
import torch.nn as nn


@dataclass
class StepMeasurement:
    """What measure_step found (bytes unless named otherwise)."""
    budget: Optional[int]         #: the budget asked for (None: min-cut plan)
    planned_peak: int             #: autoac's report peak_bytes (static part included)
    measured_peak: int            #: the real peak of the step, same accounting
    static_bytes: int             #: the report's static part
    baseline_bytes: int           #: what was allocated before the step and counted (params, buffers, inputs, .grad)
    feasible: bool                #: the report's feasible
    grads: str                    #: the gradient mode planned and run
    rng: str
    grads_equal: Optional[bool]   #: gradients (and loss) bit-equal to functorch's default_partition; None: not compared
    device: str                   #: where the step ran
    reserve: int = 0              #: the reserve planned with (the default loss's two scalars)
    measured_no_scratch: Optional[int] = None  #: CPU: the measured peak without allocations an op frees before it returns
    report: Dict[str, Any] = field(repr=False, default_factory=dict)
    warnings: str = ""
    unequal: List[str] = field(default_factory=list)  #: parameters whose gradients differ
    #: under Inductor: the plan's peak simulated on the joint graph (the
    #: report's peak_bytes; planned_peak is then the peak of Inductor's
    #: programs, inductor); None otherwise
    graph_peak: Optional[int] = None
    inductor: Optional[Dict[str, Any]] = None  #: _inductor_memory.Prediction.as_dict()
    fitted: Optional[Dict[str, Any]] = None    #: what backend.fit did (None: not fitted)

    @property
    def error_percent(self) -> float:
        """(measured - planned) / planned * 100."""
        return (self.measured_peak - self.planned_peak) * 100.0 / self.planned_peak

    @property
    def within_budget(self) -> bool:
        """measured <= budget (True when no budget was given)."""
        return self.budget is None or self.measured_peak <= self.budget


def _storage_key(t: torch.Tensor):
    s = t.storage()
    return (s.data_ptr(), str(t.device))


def _storage_bytes(tensors: Sequence[Any]) -> int:
    seen: Dict[Any, int] = {}
    for t in tensors:
        if isinstance(t, torch.Tensor):
            s = t.storage()
            seen[_storage_key(t)] = s.nbytes() if hasattr(s, "nbytes") else s.size() * t.element_size()
    return sum(seen.values())


def _default_loss(out: Any) -> torch.Tensor:
    if isinstance(out, torch.Tensor):
        return out.sum()
    return sum(t.sum() for t in torch.utils._pytree.tree_flatten(out)[0] if isinstance(t, torch.Tensor))


def _prepare_grads(model: nn.Module, grads: str) -> None:
    for p in model.parameters():
        if grads == "assign":
            p.grad = None
        elif p.grad is not None:
            p.grad.detach_()
            p.grad.zero_()


def _top_op(n):
    """The outermost aten:: op around profiler node n (None: none)."""
    top = None
    while n is not None:
        if n.name.startswith("aten::"):
            top = n
        n = n.parent
    return top


def _cpu_peak_deltas(prof) -> Tuple[int, int]:
    """The highest running sum of the profiler's CPU allocation events,
    relative to what was live when profiling began; and the same without
    scratch: allocations an ATen op makes and frees before it returns
    (oneDNN's convolution_backward temporaries, ...), which the plan does
    not model (docs/fidelity.md)."""
    tree = prof.profiler.kineto_results.experimental_event_tree()
    events = []
    stack = list(tree)
    while stack:
        n = stack.pop()
        if n.name == "[memory]":
            ef = n.extra_fields
            if ef.device.type == "cpu":
                events.append((n.start_time_ns, int(ef.alloc_size), int(ef.ptr), _top_op(n.parent)))
        stack.extend(n.children)
    events.sort(key=lambda e: e[0])
    open_alloc: Dict[int, int] = {}
    scratch = set()
    for i, (_, size, ptr, op) in enumerate(events):
        if size > 0:
            open_alloc[ptr] = i
        elif ptr in open_alloc:
            j = open_alloc.pop(ptr)
            if op is not None and events[j][3] is op:
                scratch.update((i, j))
    live = best = live_ns = best_ns = 0
    for i, (_, size, _, _) in enumerate(events):
        live += size
        best = max(best, live)
        if i not in scratch:
            live_ns += size
            best_ns = max(best_ns, live_ns)
    return best, best_ns


def _step(compiled: Callable, inputs: Sequence[Any], loss_fn: Callable, seed: int):
    torch.manual_seed(seed)
    out = compiled(*inputs)          # held through the backward, as a training loop holds it
    loss = loss_fn(out)
    loss.backward()
    return loss.detach()


def _loss_storage_bytes(model: nn.Module, inputs: Sequence[Any], loss_fn: Callable, seed: int) -> int:
    """What a user's loss keeps alive outside the graph through the
    backward: its result's whole storage (on the CPU, mse_loss,
    smooth_l1_loss and binary_cross_entropy return a 0-d view of their
    elementwise buffer) and the seed gradient autograd starts the backward
    with (one element per element of the loss).  Sized by one forward of a
    copy of the model without gradients.  The loss's own backward
    temporaries are not counted (l1_loss and soft_margin_loss measure one
    output-sized tensor above the plan: docs/fidelity.md)."""
    probe = copy.deepcopy(model)
    with torch.random.fork_rng(), torch.no_grad():
        torch.manual_seed(seed)
        out = loss_fn(probe(*inputs))
    if not isinstance(out, torch.Tensor):
        return 0
    return _storage_bytes([out]) + out.numel() * out.element_size()


def measure_step(model: nn.Module, inputs: Sequence[Any], budget: Union[str, int, None] = None, *,
                 rng: str = "keep", grads: Optional[str] = None, loss: Optional[Callable] = None,
                 compare: bool = True, seed: int = 0, **options: Any) -> StepMeasurement:
    """Runs one training step (forward, `loss(output)` (default: `.sum()`),
    backward) of `model` on `inputs` through autoac.pytorch.aot_module with
    `budget` (any contract option as a keyword) and the door's default
    runtime, and measures its real peak: on the CPU from torch.profiler's
    allocation events (plus what was allocated before the step and is
    counted by the plan: parameters, buffers, inputs and, with
    grads="accumulate", the existing .grad of parameters and inputs), on a GPU
    torch.cuda.max_memory_allocated.  A first, unmeasured step plans and
    compiles; the gradients are prepared as `grads` says (accumulate:
    zeroed in place, assign: set to None) before the measured one.  With
    `compare`, a copy of the model runs the same two steps through
    functorch's default_partition and every gradient and the loss are
    compared bit for bit.  `model` itself is not changed.  Unless
    `reserve` is given, the plan reserves what the loss keeps alive outside
    the graph through the backward: the loss and the seed gradient (two
    scalars for the default loss; for a given loss, its result's whole
    storage, _loss_storage_bytes)."""
    from .. import pytorch as act
    from functorch.compile import aot_module, default_partition

    grads = act.default_grads() if grads is None else grads
    loss_fn = loss or _default_loss
    if loss is None and "reserve" not in options:
        # The loss and the seed gradient autograd starts the backward with
        # live outside the graph through the whole backward: one scalar
        # each for the default loss (docs/fidelity.md, "PyTorch").
        dtype = next((p.dtype for p in model.parameters() if p.is_floating_point()),
                     torch.get_default_dtype())
        options["reserve"] = 2 * torch.empty((), dtype=dtype).element_size()
    elif "reserve" not in options:
        options["reserve"] = _loss_storage_bytes(model, inputs, loss_fn, seed)
    ours_model = copy.deepcopy(model)
    ref_model = copy.deepcopy(model) if compare else None
    device = next((p.device for p in model.parameters()), torch.device("cpu"))
    state = torch.get_rng_state()

    compiled = act.aot_module(ours_model, budget, rng=rng, grads=grads, **options)
    _step(compiled, inputs, loss_fn, seed)
    _prepare_grads(ours_model, grads)
    res = compiled.partition.last
    gc.collect()
    flat_inputs = [t for t in torch.utils._pytree.tree_flatten(list(inputs))[0]
                   if isinstance(t, torch.Tensor)]
    counted = list(ours_model.parameters()) + list(ours_model.buffers()) + flat_inputs
    if grads == "accumulate":
        # The .grad the first step left on parameters and on inputs that
        # require grad: the measured step accumulates into it, and the plan
        # counts it as static.
        counted += [t.grad for t in list(ours_model.parameters()) + flat_inputs
                    if t.grad is not None]
    baseline = _storage_bytes(counted)
    if device.type == "cuda":
        # The peak over the step above what was allocated at its start (the
        # caller's model and our copies too), plus what the plan counts of that.
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats(device)
        start = torch.cuda.memory_allocated(device)
        ours_loss = _step(compiled, inputs, loss_fn, seed + 1)
        torch.cuda.synchronize()
        measured = baseline + torch.cuda.max_memory_allocated(device) - start
        no_scratch = None
    else:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            ours_loss = _step(compiled, inputs, loss_fn, seed + 1)
        delta, delta_ns = _cpu_peak_deltas(prof)
        measured, no_scratch = baseline + delta, baseline + delta_ns

    grads_equal, unequal = None, []
    if compare:
        theirs = aot_module(ref_model, fw_compiler=act.wrap_compiler(None),
                            bw_compiler=act.wrap_compiler(None), partition_fn=default_partition)
        _step(theirs, inputs, loss_fn, seed)
        _prepare_grads(ref_model, grads)
        ref_loss = _step(theirs, inputs, loss_fn, seed + 1)
        unequal = [name for (name, p), q in zip(ours_model.named_parameters(), ref_model.parameters())
                   if (p.grad is None) != (q.grad is None) or
                   (p.grad is not None and not torch.equal(p.grad, q.grad))]
        if not torch.equal(ours_loss, ref_loss):
            unequal.insert(0, "<loss>")
        grads_equal = not unequal
    torch.set_rng_state(state)
    report = res.report
    b = report.get("budget_bytes")
    return StepMeasurement(budget=b if isinstance(b, int) and b >= 0 else None, planned_peak=int(report["peak_bytes"]),
                           measured_peak=int(measured), static_bytes=int(report["static_bytes"]),
                           baseline_bytes=baseline, feasible=bool(report.get("feasible", True)),
                           grads=grads, rng=rng, grads_equal=grads_equal, device=str(device),
                           report=report, warnings=res.warnings, unequal=unequal,
                           measured_no_scratch=no_scratch,
                           reserve=int(options.get("reserve") or 0) if isinstance(options.get("reserve"), int)
                           else 0)


def measure_compiled_step(model: nn.Module, inputs: Sequence[Any], budget: Union[str, int, None] = None, *,
                          compiler: str = "aot_eager", grads: Optional[str] = None, seed: int = 0,
                          together: bool = True, fit: bool = True, **options: Any) -> StepMeasurement:
    """Like measure_step, through `torch.compile(model,
    backend=autoac.pytorch.backend(budget, compiler=compiler))` (torch 2.x):
    one unmeasured step compiles and plans, the second is measured on the
    CPU from torch.profiler's allocation events plus what the plan counts of
    what existed before it.  Under "aot_eager" the step runs the door's
    runtime; under "inductor" Inductor's code, and the planned peak is that
    of the programs Inductor compiled the plan into (graph_peak: the joint
    graph's plan; inductor: where and what it counts), the plan fitted to
    them first when a budget is given and `fit` (backend.fit).  A model with graph breaks (several joint graphs)
    is, with `together` (default), captured and planned as one step
    (backend.capture) and measured against the joint plan's peak; without
    it, against the last graph's own plan.  Gradients are not compared here (see
    python/tests/test_torch_compile.py); `model` is not changed."""
    from .. import pytorch as act
    grads = act.default_grads() if grads is None else grads
    if "reserve" not in options:
        dtype = next((p.dtype for p in model.parameters() if p.is_floating_point()),
                     torch.get_default_dtype())
        options["reserve"] = 2 * torch.empty((), dtype=dtype).element_size()
    ours = copy.deepcopy(model)
    be = act.backend(budget, compiler=compiler, grads=grads, **options)
    torch._dynamo.reset()
    compiled = torch.compile(ours, backend=be)
    state = torch.get_rng_state()
    # caches off while compiling: every graph's plan in be.results
    from ..pytorch._compile import caches_off
    with caches_off():
        _step(compiled, inputs, _default_loss, seed)
        if together and len(be.results) > 1:
            # graph breaks: the step's graphs planned together, then
            # compiled again with the joint plan (backend.capture)
            be.capture(lambda: _step(compiled, inputs, _default_loss, seed))
            _step(compiled, inputs, _default_loss, seed)
        if fit and compiler == "inductor" and budget is not None:
            # planned against the programs Inductor compiles (backend.fit)
            be.fit(lambda: _step(compiled, inputs, _default_loss, seed))
    _prepare_grads(ours, grads)
    gc.collect()
    flat = [t for t in torch.utils._pytree.tree_flatten(list(inputs))[0] if isinstance(t, torch.Tensor)]
    counted = list(ours.parameters()) + list(ours.buffers()) + flat
    if grads == "accumulate":
        counted += [t.grad for t in list(ours.parameters()) + flat if t.grad is not None]
    baseline = _storage_bytes(counted)
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        _step(compiled, inputs, _default_loss, seed + 1)
    delta, delta_ns = _cpu_peak_deltas(prof)
    torch.set_rng_state(state)
    res = be.last
    report = be.joint.report if be.joint is not None else res.report
    notes = [res.warnings or ""]
    if be.joint is not None and be.joint.outside is not None and be.joint.outside.nodes:
        notes.append("autoac: warning: " + be.joint.outside.message())
    elif be.outside is not None and be.outside.nodes:
        notes.append("autoac: warning: " + be.outside.message())
    b = report.get("budget_bytes")
    budget_bytes = b if isinstance(b, int) and b >= 0 else None
    if be.fitted is not None:          # the report's budget is the one fit() planned at
        budget_bytes = int(be.fitted["budget"])
    planned, feasible = int(report["peak_bytes"]), bool(report.get("feasible", True))
    graph_peak = prediction = None
    pred = be.inductor_prediction()
    if pred is not None:
        # the plan's peak is the peak of the programs Inductor compiled
        graph_peak, planned, prediction = planned, pred.peak, pred.as_dict()
        feasible = budget_bytes is None or pred.peak <= budget_bytes
        if not pred.complete:
            notes.append("autoac: warning: the peak of Inductor's programs is incomplete: " +
                         "; ".join(pred.unknown[:3] + [f"scratch of {o} not measured"
                                                       for o in pred.unprobed[:3]]))
    return StepMeasurement(budget=budget_bytes,
                           planned_peak=planned, measured_peak=int(baseline + delta),
                           static_bytes=int(report["static_bytes"]), baseline_bytes=baseline,
                           feasible=feasible, grads=grads, graph_peak=graph_peak, inductor=prediction,
                           fitted=be.fitted,
                           rng=options.get("rng", "keep"), grads_equal=None, device="cpu",
                           report=report, warnings="\n".join(n for n in notes if n), unequal=[],
                           measured_no_scratch=int(baseline + delta_ns),
                           reserve=int(options["reserve"]) if isinstance(options["reserve"], int) else 0)
