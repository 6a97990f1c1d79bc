"""autoac inside `torch.compile` (torch 2.x).

    import autoac.pytorch as act
    compiled = torch.compile(model, backend=act.backend(budget="2GB"))                    # Inductor
    compiled = torch.compile(model, backend=act.backend(budget="2GB", compiler="aot_eager"))
    torch._inductor.config.custom_partitioner_fn = act.partitioner(budget="2GB")           # Inductor's door

Dynamo captures each graph, AOT autograd traces its joint forward+backward
graph on fake tensors (no data, no real allocation) and hands it to a
partitioner; autoac's partitioner (pytorch.partition_fn) exports it, plans it
once under the budget and splits it, saving exactly the plan's values.  Under
`aot_eager` the forward and backward run as the door's boxed runtime (every
value freed at its last use, as the simulator counts); under Inductor they
are compiled by Inductor, which fuses and reuses buffers on its own
(docs/python.md, "torch.compile").

The partitioner's uuid() keys AOT autograd's and Inductor's caches: it names
the library's build, the door's sources, the budget and every option, so a
cache never replays a plan made for another budget or another autoac.

Graph breaks (docs/python.md, "Graph breaks"): `backend.capture(step)` runs
one step, records the graphs it ran and in which order, plans them together
under the one budget (autoac.pytorch._stacked) and resets Dynamo, so the steps after
it compile each graph again with its share of the joint plan.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import warnings
import weakref
from typing import Any, Callable, List, Optional, Sequence, Union

import torch
import torch.fx as fx

from .. import AutoacError, library_path

#: The backends autoac's partitioner runs under.
COMPILERS = ("inductor", "aot_eager")


def _file_digest(paths: Sequence[str]) -> str:
    h = hashlib.sha256()
    for p in paths:
        try:
            with open(p, "rb") as f:
                h.update(f.read())
        except OSError:
            h.update(p.encode())
    return h.hexdigest()


def _door_sources() -> List[str]:
    """Every module of the autoac package (the door, the exporter, rng, ...)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        out += [os.path.join(d, f) for f in files if f.endswith(".py")]
    return sorted(out)


def _base_class():
    try:
        from torch._inductor.custom_graph_pass import CustomPartitionerFn
        return CustomPartitionerFn
    except ImportError:          # torch before 2.10: a plain callable serves aot_eager
        return object


class AutoacPartitioner(_base_class()):
    """A partitioner for AOT autograd and Inductor (an Inductor
    CustomPartitionerFn): plans each joint graph with autoac under `budget`.
    `.partition` is the pytorch.partition_fn behind it (its `.results` hold
    one PartitionResult per graph); uuid() names the budget, the options, the
    library's build and the door's sources."""

    def __init__(self, budget: Union[str, int, None] = None, **options: Any):
        from . import partition_fn
        self.budget = budget
        self.options = dict(options)
        self.partition = partition_fn(budget, **options)

    @property
    def results(self):
        return self.partition.results

    @property
    def last(self):
        return self.partition.last

    def set_budget(self, budget: Union[str, int, None]) -> None:
        """Plans the graphs compiled from now on at `budget` (uuid() names
        it, so no cache replays the old one's plan)."""
        self.budget = budget
        self.partition.budget = budget

    def __call__(self, gm: fx.GraphModule, joint_inputs: Sequence[object], **kwargs: Any):
        kwargs.pop("compiler", None)
        return self.partition(gm, joint_inputs, **kwargs)

    def __deepcopy__(self, memo):
        # Inductor deep-copies its config (custom_partitioner_fn included)
        # for its repro and cache paths; the results hold graphs of fake
        # tensors, which cannot be copied.  One partitioner, shared.
        return self

    def __getstate__(self):
        # Inductor's caches pickle the config: the plan's inputs, not its
        # results (graphs of fake tensors)
        return {"budget": self.budget, "options": self.options}

    def __setstate__(self, state):
        self.__init__(state["budget"], **state["options"])

    def __repr__(self) -> str:
        return f"autoac.pytorch.partitioner(budget={self.budget!r}, **{self.options!r})"

    def uuid(self) -> Optional[Any]:
        key = {"budget": str(self.budget),
               "options": {k: str(v) for k, v in sorted(self.options.items())},
               "threads": torch.get_num_threads(),
               "library": _file_digest([library_path()]),
               "door": _file_digest(_door_sources())}
        joint = self.partition.joint
        if joint is not None:
            key["joint"] = hashlib.sha256((joint.module + repr(joint.sequence)).encode()).hexdigest()
        return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def partitioner(budget: Union[str, int, None] = None, **options: Any) -> AutoacPartitioner:
    """autoac as Inductor's partitioner:
    `torch._inductor.config.custom_partitioner_fn = act.partitioner("2GB")`.
    Any contract option as a keyword, as pytorch.partition_fn takes them."""
    return AutoacPartitioner(budget, **options)


class _Backend:
    """The callable `backend()` returns: a dynamo backend.  `.partitioner`
    is the AutoacPartitioner every graph it compiles goes through;
    `.results` its PartitionResults, one per joint graph, in the order the
    graphs were compiled."""

    def __init__(self, budget, compiler: str, options):
        if compiler not in COMPILERS:
            raise AutoacError(f"invalid compiler '{compiler}' (accepted: {', '.join(COMPILERS)})")
        self.compiler = compiler
        self.budget = budget
        self.partitioner = AutoacPartitioner(budget, **options)
        #: what fit() did: the budget, the joint graph's budget it kept, and
        #: (joint graph's budget, peak of Inductor's programs) per try
        self.fitted: Optional[dict] = None
        self._capture = None          # a _stacked.Capture while capture() runs its step
        self._walked: set = set()     # graphs whose first call's inputs were walked
        self.outside = None           # a _stacked.Outside once a graph has run
        self._captured_inputs: List[Any] = []   # weak references (captured_inputs)

    def _walk_outside(self, args) -> None:
        from ._stacked import Outside
        flat = list(args[0]) if len(args) == 1 and isinstance(args[0], list) else list(args)
        if self.outside is None:
            self.outside = Outside()
        before = self.outside.nodes
        self.outside.walk(flat)
        if self.outside.nodes > before:
            warnings.warn(self.outside.message(), RuntimeWarning, stacklevel=3)

    @property
    def results(self):
        return self.partitioner.results

    @property
    def last(self):
        return self.partitioner.last

    @property
    def joint(self):
        """The step's graphs planned together (capture()), or None."""
        return self.partitioner.partition.joint

    def current_results(self) -> list:
        """The PartitionResults the step now runs: the graphs planned
        together (capture()) compiled with the joint plan, else the latest
        graph's."""
        joint = self.joint
        if joint is not None:
            mine = [r for r in self.results if r.joint]
            if mine:
                return mine
        return [self.last] if self.results else []

    def inductor_prediction(self, probe_scratch: bool = True):
        """The step's peak as Inductor's compiled programs run it
        (_inductor_memory.Prediction: the buffers its wrappers allocate,
        reuse and free, in their order, fallback kernels' scratch measured),
        or None before Inductor compiled both halves (the backward compiles
        at the first backward) or under aot_eager."""
        if self.compiler != "inductor":
            return None
        from ._inductor_memory import predict_step
        return predict_step(self.current_results(), probe_scratch, joint=self.joint)

    def __call__(self, gm: fx.GraphModule, example_inputs: List[Any]) -> Callable:
        before = len(self.results)
        if self.compiler == "aot_eager":
            compiled = self._aot_eager(gm, example_inputs)
        else:
            compiled = self._inductor(gm, example_inputs)
        if len(self.results) == before:      # no joint graph (nothing needs a gradient)
            return compiled
        return self._recorded(compiled, len(self.results) - 1)

    def _recorded(self, compiled: Callable, index: int) -> Callable:
        """`compiled`, noting each call's graph while capture() runs."""
        def call(*args, **kwargs):
            cap = self._capture
            if cap is None:
                if index not in self._walked:      # once per graph: eager code before it?
                    self._walked.add(index)
                    self._walk_outside(args)
                return compiled(*args, **kwargs)
            flat = list(args[0]) if len(args) == 1 and isinstance(args[0], list) else list(args)
            out = compiled(*args, **kwargs)
            cap.note(cap.graph_for(index, self.results[index]), flat, out)
            return out
        if hasattr(compiled, "_boxed_call"):     # called as `compiled` is
            call._boxed_call = compiled._boxed_call
        return call

    def capture(self, step: Callable[[], Any]):
        """Runs `step()` (one training step through the model compiled with
        this backend) after resetting Dynamo, plans the joint graphs it ran
        together under the budget, in the order they ran (each call of a
        graph Dynamo reuses counted, its calls sharing one plan), and resets
        Dynamo again, so later steps compile each graph with its part of
        that plan.  The captured step itself runs each graph's own plan.
        Returns the _stacked.JointPlan (also `.joint`)."""
        import torch
        from ._stacked import Capture, plan_stacked, repeated_static
        self.partitioner.partition.joint = None
        torch._dynamo.reset()
        self._walked.clear()
        self.outside = None
        self._capture = Capture()
        try:
            step()
        finally:
            cap, self._capture = self._capture, None
        if not cap.calls:
            raise AutoacError("the captured step ran no graph that needs a gradient: "
                              "nothing to plan (is the model compiled with this backend?)")
        options = dict(cap.options[0])
        joint = plan_stacked(cap.graphs, cap.calls, self.partitioner.budget, options,
                             shapes=cap.shapes, calls=cap.linked, order=cap.order(),
                             repeated=repeated_static(cap.repeated_param_bytes,
                                                      cap.repeated_grad_bytes, options))
        joint.outside = cap.outside
        if cap.outside.nodes:
            joint.warnings = (joint.warnings + "\n" if joint.warnings else "") + \
                "autoac: warning: " + cap.outside.message()
            warnings.warn(cap.outside.message(), RuntimeWarning, stacklevel=2)
        self._captured_inputs = [weakref.ref(t) for t in cap.caller_inputs()]
        cap.keep.clear()
        self.partitioner.partition.joint = joint
        torch._dynamo.reset()
        return joint

    def fit(self, step: Callable[[], Any], rounds: int = 4, ladder: int = 4):
        """Plans against what Inductor runs: runs `step()` (one training
        step through the model compiled with this backend), reads the peak
        of the programs Inductor compiled the plan into
        (inductor_prediction) and, while that is above the budget and
        rounds are left, plans again with the joint graph's budget lowered
        by the excess (the graphs recompiled: Dynamo reset, caches off;
        after capture() the step's graphs are captured and planned together
        again).  When no plan fits, the budget is out of reach of Inductor's
        programs and the lowest of them is searched for: the joint graph is
        planned at `ladder` budgets from its lowest plan's peak up to its
        min-cut plan's (the same budgets whatever the budget asked, so every
        budget out of reach gets the same plan).  Keeps, among the plans
        whose programs fit, the one planned at the highest budget (the
        least recompute), else the one whose programs peak lowest; a kept
        plan other than the last tried is planned and compiled again.
        Later steps run it.  Returns its Prediction (None when Inductor
        compiled nothing or under aot_eager).  Without a budget, only runs
        the step."""
        from .. import parse_size
        if self.compiler != "inductor" or self.budget is None:
            step()
            return self.inductor_prediction()
        target = self.budget if isinstance(self.budget, int) else parse_size(str(self.budget))
        together = self.joint is not None
        tried: List[Any] = []

        def run(planning: int):
            pred = self._run_at(step, planning, together)
            if pred is not None:
                tried.append((planning, pred))
            return pred

        # the step already ran at the budget: its programs are the first try
        pred = self.inductor_prediction() if self.results and self.partitioner.budget == self.budget else None
        if pred is not None:
            tried.append((target, pred))
        elif run(target) is None:
            return None
        for _ in range(max(0, rounds - 1)):
            planning, pred = tried[-1]
            if pred.peak <= target:
                break
            lower = planning - (pred.peak - target)
            if lower < 1 or any(b == lower for b, _ in tried):
                break
            run(lower)
        if not any(p.peak <= target for _, p in tried):
            report = self.current_results()[0].report
            floor, top = self._floor_and_mincut(report)
            for i in range(1, ladder + 1):
                b = floor + (top - floor) * i // ladder
                if b > floor and not any(t == b for t, _ in tried):
                    run(b)
        fits = [t for t in tried if t[1].peak <= target]
        best = max(fits, key=lambda t: t[0]) if fits else min(tried, key=lambda t: (t[1].peak, t[0]))
        if best is not tried[-1]:
            again = self._run_at(step, best[0], together)
            best = (best[0], again if again is not None else best[1])
        self.fitted = {"budget": target, "planning_budget": best[0],
                       "tried": [(b, p.peak) for b, p in tried]}
        return best[1]

    def _floor_and_mincut(self, report: dict) -> tuple:
        """The joint graph's lowest plan's peak and its min-cut plan's (the
        report's when its budget was out of reach; else planned again at
        1 B, the library alone, for a single graph)."""
        floor = int(report["peak_bytes"])
        top = int((report.get("baseline_peak_bytes") or {}).get("mincut", floor))
        results = self.current_results()
        if report.get("feasible", True) and len(results) == 1 and not results[0].joint:
            from .. import plan as _plan
            r = results[0]
            try:
                floor = int(_plan(r.mlir, source_name="<fit>", budget=1, **r.options).report["peak_bytes"])
            except Exception:             # keep the report's: a ladder from there
                pass
        return floor, max(top, floor)

    def _run_at(self, step: Callable[[], Any], planning: int, together: bool):
        """Compiles the graphs again with the joint graph planned at
        `planning` bytes, runs step() (capturing the step's graphs first
        when `together`) and returns inductor_prediction()."""
        import torch
        self.partitioner.set_budget(planning)
        with caches_off():
            torch._dynamo.reset()
            if together:
                self.capture(step)
            step()
        return self.inductor_prediction()

    @property
    def captured_inputs(self) -> List[Any]:
        """The tensors the captured step's calls took from their caller
        (Capture.caller_inputs) that are still alive."""
        return [t for t in (r() for r in self._captured_inputs) if t is not None]

    def _aot_eager(self, gm, example_inputs):
        from torch._dynamo.backends.common import aot_autograd
        from . import _boxed_identity
        return aot_autograd(fw_compiler=_boxed_identity, bw_compiler=_boxed_identity,
                            partition_fn=self.partitioner,
                            keep_inference_input_mutations=True)(gm, example_inputs)

    def _inductor(self, gm, example_inputs):
        from torch._inductor import config
        from torch._inductor.compile_fx import compile_fx
        with contextlib.ExitStack() as stack:
            stack.enter_context(config.patch(custom_partitioner_fn=self.partitioner))
            if self._capture is not None:
                # the captured step must see every graph it runs
                stack.enter_context(caches_off())
            # Inductor's layout optimization turns convolutions channels-last
            # and adds the copies and oneDNN reorders between layouts that the
            # plan (made on the graph's contiguous layouts) does not count
            # (docs/fidelity.md, "Inductor's layouts").  As config_patches,
            # not a patch around this call: AOT autograd may compile the
            # backward later, outside it, and one half channels-last, the
            # other contiguous costs a copy of every saved activation
            return compile_fx(gm, example_inputs, config_patches={"layout_optimization": False})


def caches_off() -> contextlib.ExitStack:
    """Inductor's FX graph cache and AOT autograd's cache off, as a context:
    a graph replayed from a cache is not partitioned, so a plan (or a
    budget being measured) would be missing for it."""
    from torch._functorch import config as fconfig
    from torch._inductor import config as iconfig
    stack = contextlib.ExitStack()
    stack.enter_context(iconfig.patch(fx_graph_cache=False))
    stack.enter_context(fconfig.patch(enable_autograd_cache=False))
    return stack


def backend(budget: Union[str, int, None] = None, *, compiler: str = "inductor",
            **options: Any) -> _Backend:
    """A `torch.compile` backend that plans activation checkpointing with
    autoac: `torch.compile(model, backend=act.backend(budget="2GB"))`.
    compiler: "inductor" (default: Inductor compiles the planned forward and
    backward, autoac as its custom partitioner) or "aot_eager" (they run as
    the door's eager runtime, each value freed at its last use).  Any
    contract option as a keyword (strategy=, grads=, rng=, device=, ...);
    the plan of each joint graph is in `.results`."""
    return _Backend(budget, compiler, options)
