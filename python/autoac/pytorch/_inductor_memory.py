"""The memory of what Inductor runs (torch 2.x, issue 35 item 5).

Inductor compiles the planned forward and backward into a wrapper that
allocates, reuses and frees buffers of its own: fused intermediates never
exist, a freed buffer is handed to the next one of its size, and the
scheduler orders the kernels.  A plan made on the joint graph's values
counts something else.  This module reads, for every graph Inductor
compiles from a partition of the door, the wrapper's memory-planned lines
(after its reuse pass, as they are written out: `AllocateLine`,
`ReuseLine`, `FreeIfNotReusedLine`, `FreeLine`, `ReinterpretLine`,
`ExternKernelAllocLine`, `MultiOutputLine`, `del` strings) into a
`Program`: the graph's inputs and outputs and its storage events, in the
order the wrapper runs them, sized as Inductor sizes its allocations
(`get_allocation_storage_size` times the element size).

`Program.simulate(held)` replays the events over storages with references
(an alias, a reinterpretation or a reuse names the same storage; a storage
is freed when its last name goes, an input only if nothing outside the
graph holds it) and returns the live bytes after every event, the program's
peak and what is live at its end.  At an extern kernel's call the scratch
its ATen op allocates inside itself is added: `measure_scratch` runs the op
once per signature on tensors of the layouts Inductor passes (the one place
this module touches real memory).  `predict` places a graph's two programs
in the plan's timeline at the halves' boundaries and adds AccumulateGrad's
layout copies; `predict_step` does it for a step's graphs
(docs/fidelity.md, "Inductor's programs").
"""
from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

#: key (a watched module's meta["autoac_memory_key"]) -> Program.  A key
#: survives AOT autograd's deepcopy of the backward before it is compiled.
#: The latest _KEEP programs are kept (a long-running process compiles many)
_PROGRAMS: "collections.OrderedDict[str, Program]" = collections.OrderedDict()
_KEEP = 512
_KEY = "autoac_memory_key"
_INSTALLED = False
_COUNTER = [0]

_DEL = re.compile(r"^\s*del\s+([A-Za-z_][\w, ]*)\s*(#.*)?$")


@dataclass
class Program:
    """One Inductor-compiled graph's storage events.

    inputs: (name, bytes) of the graph's tensor inputs, in order.
    events: ("alloc", name, bytes, origins) a new storage named `name`
    (an extern kernel's result: ("alloc", name, bytes, origins, probe));
    ("multi", name, [(child, bytes)], origins, probe) an extern kernel
    allocating several outputs, `name` the tuple holding them; ("alias",
    new, old) a second name of old's storage (a reinterpretation, a tuple
    element, a reuse that keeps the old name); ("rename", new, old) a reuse
    that drops old; ("free", name) the name goes; ("call", name, origins,
    probe) an extern kernel writing into buffers it was given.  origins:
    the FX nodes a kernel was lowered from; probe: a Probe of a fallback
    kernel (its scratch is live at its call only), or None.
    outputs: the names the graph returns (live at its end).
    unknown: wrapper lines that name a buffer and that this reader does not
    understand (a non-empty list makes the program's figures a lower bound)."""
    inputs: List[Tuple[str, int]] = field(default_factory=list)
    events: List[tuple] = field(default_factory=list)
    outputs: List[str] = field(default_factory=list)
    unknown: List[str] = field(default_factory=list)
    #: (sizes, strides) of each input and each output (None: not a tensor)
    input_layouts: List[Optional[Tuple[Tuple[int, ...], Tuple[int, ...]]]] = field(default_factory=list)
    output_layouts: List[Optional[Tuple[Tuple[int, ...], Tuple[int, ...]]]] = field(default_factory=list)

    def simulate(self, held: Callable[[int, str], bool],
                 scratch: Optional[Callable[[tuple], int]] = None,
                 share: Optional[Sequence[Any]] = None) -> "Timeline":
        """Replays the events.  held(i, name): whether input i is also
        held outside the graph (its storage outlives the graph's `del`).
        scratch(event): bytes an extern kernel allocates and frees inside
        itself while it runs.  share[i]: a key; inputs with equal keys are
        one storage (a saved value and its view), counted once.  Live bytes
        count the graph's own storages and the inputs it may free; inputs
        held outside are not counted."""
        st = _Storages()
        by_key: Dict[Any, int] = {}
        for i, (name, nbytes) in enumerate(self.inputs):
            key = share[i] if share is not None else ("input", i)
            sid = by_key.get(key)
            if sid is None:
                sid = by_key[key] = st.held() if held(i, name) else st.new(nbytes)
            st.bind(name, [sid])
        start = st.live
        curve: List[int] = []
        peak, peak_event, peak_extra = st.live, -1, 0
        for k, ev in enumerate(self.events):
            st.apply(ev)
            probe = ev[-1] if ev[0] in ("multi", "call") or len(ev) > 4 else None
            extra = scratch(ev) if scratch is not None and probe is not None else 0
            curve.append(st.live + extra)
            if st.live + extra > peak:
                peak, peak_event, peak_extra = st.live + extra, k, extra
        storage_of = {n: tuple(st.names.get(n, ())) for n in self.outputs}
        for name in list(st.names):
            if name not in self.outputs:
                st.drop(name)
        return Timeline(start=start, curve=curve, peak=peak, peak_event=peak_event, end=st.live,
                        storage_of=storage_of, held=set(st.held_ids), peak_scratch=peak_extra)


class _Storages:
    """Storages with references, as Program.simulate replays them: each
    name keeps its storages alive; a storage is freed (its bytes off
    `live`) when its last name goes; a held storage (an input something
    outside the graph holds) counts nothing and is never freed."""

    def __init__(self) -> None:
        self.refs: Dict[int, int] = {}
        self.size: Dict[int, int] = {}
        self.names: Dict[str, List[int]] = {}
        self.held_ids: Set[int] = set()
        self.live = 0
        self.made = 0                     # storages made so far (their ids)

    def new(self, nbytes: int) -> int:
        sid, self.made = self.made, self.made + 1
        self.refs[sid], self.size[sid] = 0, nbytes
        self.live += nbytes
        return sid

    def held(self) -> int:
        sid = self.new(0)
        self.refs[sid] += 1               # the outside's reference
        self.held_ids.add(sid)
        return sid

    def bind(self, name: str, sids: Sequence[int]) -> None:
        for s in sids:                    # before the old binding goes
            self.refs[s] += 1
        self.drop(name)
        self.names[name] = list(sids)

    def drop(self, name: str) -> None:
        for s in self.names.pop(name, []):
            self.refs[s] -= 1
            if self.refs[s] == 0:
                self.live -= self.size.pop(s)
                del self.refs[s]

    def apply(self, ev: tuple) -> None:
        """One event's storage changes (see Program.events)."""
        kind = ev[0]
        if kind == "alloc":
            self.bind(ev[1], [self.new(ev[2])])
        elif kind == "multi":
            kids = [self.new(nbytes) for _, nbytes in ev[2]]
            for (child, _), sid in zip(ev[2], kids):
                self.bind(child, [sid])
            self.bind(ev[1], kids)
        elif kind in ("alias", "rename") and ev[1] != ev[2]:
            self.bind(ev[1], list(self.names.get(ev[2], [])))
            if kind == "rename":
                self.drop(ev[2])
        elif kind == "free":
            self.drop(ev[1])


@dataclass
class Timeline:
    """Program.simulate's answer: bytes live (the program's own and its
    freeable inputs') at its start, after each event, at its peak (and the
    event there, -1 for the start; the scratch counted there) and at its
    end (the outputs).  storage_of: each output's storages; held: the
    storages of inputs held outside (counted as none)."""
    start: int
    curve: List[int]
    peak: int
    peak_event: int
    end: int
    storage_of: Dict[str, Tuple[int, ...]] = field(default_factory=dict)
    held: Set[int] = field(default_factory=set)
    peak_scratch: int = 0


def watch(gm: Any) -> str:
    """Records the Program of `gm` (or of a copy of it) when Inductor
    compiles it; returns the key program() takes."""
    _install()
    _COUNTER[0] += 1
    key = f"{_COUNTER[0]}"
    gm.meta[_KEY] = key
    return key


def program(key: str) -> Optional[Program]:
    """The Program Inductor compiled the module watched under `key` into,
    or None (not compiled yet, or compiled from a cache)."""
    return _PROGRAMS.get(key)


def _install() -> None:
    """Wraps PythonWrapperCodegen.run_wrapper_ir_passes (once): after
    Inductor's reuse planning, the lines of a watched graph are read."""
    global _INSTALLED
    if _INSTALLED:
        return
    from torch._inductor.codegen import wrapper as w
    original = w.PythonWrapperCodegen.run_wrapper_ir_passes

    def run_wrapper_ir_passes(self, is_inference):
        original(self, is_inference)
        try:
            from torch._inductor.virtualized import V
            gm = getattr(V.graph, "module", None)
            key = getattr(gm, "meta", {}).get(_KEY) if gm is not None else None
            if key is not None and not getattr(V.graph, "is_const_graph", False):
                _PROGRAMS[key] = _read(self, V.graph)
                while len(_PROGRAMS) > _KEEP:
                    _PROGRAMS.popitem(last=False)
        except Exception as e:            # never break a compile for a measurement
            import warnings
            warnings.warn(f"autoac: could not read Inductor's buffers: {type(e).__name__}: {e}",
                          RuntimeWarning)

    w.PythonWrapperCodegen.run_wrapper_ir_passes = run_wrapper_ir_passes
    _INSTALLED = True


def _nbytes(graph: Any, node: Any) -> int:
    from torch._inductor.utils import get_dtype_size
    try:
        n = graph.sizevars.optimization_hint(graph.get_allocation_storage_size(node), fallback=0)
    except Exception:
        n = graph.sizevars.optimization_hint(node.get_layout().storage_size(), fallback=0)
    return int(n) * get_dtype_size(node.get_dtype())


def _layout(graph: Any, node: Any) -> Optional[Tuple[Tuple[int, ...], Tuple[int, ...]]]:
    """(sizes, strides) of an IR node, None when it has none."""
    try:
        hint = lambda d: int(graph.sizevars.optimization_hint(d, fallback=0))
        return (tuple(hint(d) for d in node.get_size()), tuple(hint(d) for d in node.get_stride()))
    except Exception:
        return None


def _origins(node: Any) -> List[str]:
    try:
        return sorted(o.name for o in node.get_origins() if getattr(o, "op", "") == "call_function")
    except Exception:
        return []


def _read(wrapper: Any, graph: Any) -> Program:
    from torch._inductor import ir
    from torch._inductor.codegen import wrapper as w
    prog = Program()
    for name in graph.graph_input_names:
        box = graph.graph_inputs.get(name)
        if isinstance(box, ir.TensorBox) or isinstance(box, ir.IRNode):
            try:
                prog.inputs.append((name, _nbytes(graph, box)))
            except Exception:
                prog.inputs.append((name, 0))
            prog.input_layouts.append(_layout(graph, box))
    try:
        prog.outputs = list(graph.get_output_names())
    except Exception:
        prog.outputs = []
    prog.output_layouts = [_layout(graph, o) for o in getattr(graph, "graph_outputs", [])]
    lines = list(wrapper.lines)
    children: Dict[str, List[Tuple[str, int]]] = {}
    for line in lines:                     # tuple elements of multi-output kernels
        if isinstance(line, w.MultiOutputLine):
            try:
                child = graph.get_buffer(line.result_name)
                nbytes = _nbytes(graph, child)
            except Exception:
                nbytes = 0
            children.setdefault(line.arg_name, []).append((line.result_name, nbytes))
    done: Set[str] = set()
    for line in lines:
        ev = _event(line, w, ir, graph, children, done)
        if ev is None:
            continue
        if ev[0] == "?":
            prog.unknown.append(ev[1])
            continue
        prog.events.extend(ev if isinstance(ev, list) else [ev])
    return prog


def _multi(name: str, children: Dict[str, List[Tuple[str, int]]], done: Set[str]) -> List[Tuple[str, int]]:
    """The storages a multi-output kernel's tuple `name` holds: its
    MultiOutput elements, nested tuples flattened."""
    out = []
    for child, nbytes in children.get(name, []):
        if child in children:
            out += _multi(child, children, done)
        else:
            out.append((child, nbytes))
        done.add(child)
    return out


def _event(line, w, ir, graph, children, done):
    if isinstance(line, w.AllocateLine):
        return ("alloc", line.node.get_name(), _nbytes(graph, line.node), [])
    if isinstance(line, w.ReuseLine):
        kind = "rename" if line.delete_old else "alias"
        return (kind, line.reused_as.get_name(), line.node.get_name())
    if isinstance(line, w.FreeIfNotReusedLine):
        return None if line.is_reused else ("free", line.node.get_name())
    if isinstance(line, w.FreeLine):
        return ("free", line.node.get_name())
    if isinstance(line, w.ReinterpretLine):
        return ("alias", line.reused_as.get_name(), line.node.get_name())
    if isinstance(line, w.ExternKernelAllocLine):
        node = line.node
        name = node.get_name()
        probe = _probe(node, ir, graph)
        if isinstance(node.layout, ir.MultiOutputLayout):
            return ("multi", name, _multi(name, children, done), _origins(node), probe)
        if isinstance(node.layout, ir.NoneLayout):
            return ("call", name, _origins(node), probe)
        return ("alloc", name, _nbytes(graph, node), _origins(node), probe)
    if isinstance(line, (w.ExternKernelOutLine, w.ExternKernelMultiOutLine)):
        return ("call", line.node.get_name(), _origins(line.node), None)
    if isinstance(line, w.MultiOutputLine):
        if line.result_name in done:
            return None                    # allocated with its kernel
        return ("alias", line.result_name, line.arg_name)
    if isinstance(line, (w.NullLine, w.KernelCallLine, w.KernelDefinitionLine, w.CommentLine)):
        return None
    if isinstance(line, str):
        m = _DEL.match(line)
        if m:
            return [("free", n.strip()) for n in m.group(1).split(",") if n.strip()]
        if re.match(r"^\s*buf\w*\s*=", line):
            return ("?", line.strip())
        return None
    return None


@dataclass
class Probe:
    """An ATen op Inductor calls as a fallback kernel, as it calls it: the
    op, its tensor arguments' layouts (sizes, strides, storage offset,
    dtype) and its other arguments.  measure_scratch() runs it once on
    tensors of those layouts to see what it allocates inside itself."""
    op: Any
    layouts: List[Tuple[Tuple[int, ...], Tuple[int, ...], int, Any]]
    constant_args: Tuple[Any, ...]
    kwargs: Dict[str, Any]
    unflatten: Callable[..., Any]

    def signature(self) -> str:
        return f"{self.op}|{self.layouts}|{self.constant_args!r}|{sorted(self.kwargs.items())!r}"


def _kernel(node: Any) -> Any:
    """The callable the wrapper calls for an extern kernel."""
    op = getattr(node, "op_overload", None)
    if op is not None:
        return op
    name = getattr(node, "python_kernel_name", None) or ""
    if name.startswith("extern_kernels."):
        from torch._inductor.select_algorithm import extern_kernels
        return getattr(extern_kernels, name.split(".", 1)[1], None)
    if name.startswith("torch."):
        import torch
        obj: Any = torch
        for part in name.split(".")[1:]:
            obj = getattr(obj, part, None)
            if obj is None:
                return None
        return obj
    return None


def _probe(node: Any, ir: Any, graph: Any) -> Optional[Probe]:
    kernel = _kernel(node)
    if kernel is None:
        return None
    try:
        layouts = []
        for x in node.inputs:
            shape = _layout(graph, x) if isinstance(x, ir.IRNode) else None
            if shape is None:
                return None
            offset = int(graph.sizevars.optimization_hint(x.get_layout().offset, fallback=0))
            layouts.append((shape[0], shape[1], offset, x.get_dtype()))
        unflatten = getattr(node, "unflatten_args", None)
        if unflatten is None:              # the wrapper passes inputs, then constants
            unflatten = lambda tensors, constants: (list(tensors) + list(constants), {})
        return Probe(kernel, layouts, tuple(node.constant_args), dict(node.kwargs), unflatten)
    except Exception:
        return None


_SCRATCH: Dict[str, Optional[int]] = {}


def measure_scratch(probe: Probe) -> Optional[int]:
    """Bytes `probe`'s op allocates and frees inside itself (its peak of
    allocations during the call less the storages it returns), measured
    once per signature on this machine and thread count, on tensors of
    the layouts Inductor passes (floats random, integers and booleans
    zero, so every index is in range); None when the call fails."""
    import torch
    key = f"{probe.signature()}|{torch.get_num_threads()}"
    if key in _SCRATCH:
        return _SCRATCH[key]
    result: Optional[int] = None
    try:
        tensors = []
        for size, stride, offset, dtype in probe.layouts:
            numel = offset + 1 + sum((d - 1) * st for d, st in zip(size, stride) if d > 0)
            if any(d == 0 for d in size):
                numel = offset
            base = torch.empty(max(numel, 0), dtype=dtype)
            if dtype.is_floating_point or dtype.is_complex:
                base.normal_()
            else:
                base.zero_()
            tensors.append(base.as_strided(size, stride, offset))
        args, kwargs = probe.unflatten(tensors, probe.constant_args)
        kw = dict(probe.kwargs)
        kw.update(kwargs)
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            out = probe.op(*args, **kw)
        flat = [t for t in torch.utils._pytree.tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
        kept = {}
        for t in flat:
            st = t.untyped_storage()
            kept[st.data_ptr()] = st.nbytes()
        result = max(0, _peak_of(prof) - sum(kept.values()))
    except Exception:
        result = None
    _SCRATCH[key] = result
    return result


def _peak_of(prof: Any) -> int:
    """The highest running sum of a profile's CPU allocation events (as
    measure_step measures a step)."""
    from ..measure.torch_step import _cpu_peak_deltas
    return _cpu_peak_deltas(prof)[0]


@dataclass
class Prediction:
    """The peak of one training step as Inductor's programs run it.

    peak: bytes (static part and everything the plan counts outside the
    compiled programs included); at: "fwd" or "bwd" and the function,
    where it is; halves: (function, phase, peak) for every program;
    scratch: bytes of fallback-kernel scratch at the peak; unknown: lines
    of Inductor's wrappers this reader did not understand; unprobed: the
    fallback ops whose scratch could not be measured (counted as none).
    complete: no unknown line and nothing unprobed."""
    peak: int
    at: Tuple[str, str]
    halves: List[Tuple[str, str, int]]
    scratch: int = 0
    unknown: List[str] = field(default_factory=list)
    unprobed: List[str] = field(default_factory=list)
    #: gradients AccumulateGrad copies into their parameter's layout
    #: (accumulate_grad_copies): (forward input name, bytes)
    copies: List[Tuple[str, int]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.unknown and not self.unprobed

    def as_dict(self) -> Dict[str, Any]:
        return {"peak_bytes": self.peak, "function": self.at[0], "phase": self.at[1],
                "scratch_bytes": self.scratch, "complete": self.complete,
                "halves": [{"function": f, "phase": p, "peak_bytes": b} for f, p, b in self.halves],
                "unknown_lines": list(self.unknown), "unprobed_ops": list(self.unprobed),
                "layout_copies": [{"input": n, "bytes": b} for n, b in self.copies]}


def _segments(timeline: Sequence[Dict[str, Any]], function: str) -> List[Tuple[str, int, int]]:
    """The runs of one function's steps in the simulator's timeline:
    (phase, first index, last index), "recompute" counted as "bwd"."""
    out: List[Tuple[str, int, int]] = []
    for i, e in enumerate(timeline):
        if e.get("function") != function:
            continue
        phase = "fwd" if e.get("phase") == "fwd" else "bwd"
        if out and out[-1][0] == phase and out[-1][2] == i - 1:
            out[-1] = (phase, out[-1][1], i)
        else:
            out.append((phase, i, i))
    return out


def _live_after(timeline: Sequence[Dict[str, Any]], i: int) -> int:
    """Bytes live after step i's frees (its workspace and the values whose
    last use it is), before step i + 1: the report's live_after_bytes."""
    e = timeline[i]
    if "live_after_bytes" in e:
        return int(e["live_after_bytes"])
    return int(e["live_bytes"]) - int(e.get("workspace_bytes", 0) or 0)


def _dense(sizes: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether a layout is non-overlapping and dense (a permutation of a
    contiguous one)."""
    dims = sorted((st, d) for d, st in zip(sizes, strides) if d != 1)
    expect = 1
    for st, d in dims:
        if st != expect:
            return False
        expect *= d
    return True


def obeys_layout_contract(grad: Tuple[Tuple[int, ...], Tuple[int, ...]],
                          param: Tuple[Tuple[int, ...], Tuple[int, ...]]) -> bool:
    """torch's gradient layout contract (autograd's
    utils::obeys_layout_contract), which AccumulateGrad checks before it
    stores a new gradient as .grad: for a dense parameter, the gradient's
    strides equal the parameter's in every dimension of size other than 1
    (and no stride 0 in the others); else the gradient is contiguous."""
    (gs, gst), (ps, pst) = grad, param
    if tuple(gs) != tuple(ps):
        return False
    if _dense(ps, pst):
        for d, a, b in zip(gs, gst, pst):
            if d != 1 and a != b:
                return False
            if d == 1 and (a == 0 or b == 0):
                return False
        return True
    expect = 1
    for d, st in reversed(list(zip(gs, gst))):
        if d != 1 and st != expect:
            return False
        expect *= d
    return True


def accumulate_grad_copies(fwd: Program, bwd: Program, params: Sequence[bool]) -> List[Tuple[str, int]]:
    """The parameters whose new gradient AccumulateGrad copies when it
    assigns .grad (grads="assign": `clone_obey_contract`, a copy in the
    parameter's layout, the original freed after it): (input name, bytes)
    of each whose gradient, as the backward program returns it, breaks the
    layout contract."""
    out = []
    for j, is_param in enumerate(params):
        if not is_param or j >= len(fwd.input_layouts) or j >= len(bwd.output_layouts):
            continue
        pl, gl = fwd.input_layouts[j], bwd.output_layouts[j]
        if pl is not None and gl is not None and not obeys_layout_contract(gl, pl):
            out.append((fwd.inputs[j][0], fwd.inputs[j][1]))
    return out


def predict(report: Dict[str, Any], function: str, fwd: Program, bwd: Program, n_saved: int,
            probe_scratch: bool = True,
            segments: Optional[Sequence[Tuple[str, int, int]]] = None,
            params: Sequence[bool] = (), grads: str = "accumulate") -> Prediction:
    """The step's peak with `function`'s forward and backward run as
    Inductor's programs `fwd` and `bwd`, everything else as the plan
    (`report`, with its timeline) simulated it.  Each program is placed at
    its half's boundary with the rest of the step, where both agree on
    what is live (the plan's saved values, the function's outputs): the
    forward's end, the backward's start.  n_saved: how many of the
    forward's outputs are saved for the backward (its last outputs, the
    backward's first inputs).  Fallback kernels' scratch is measured
    (measure_scratch) unless probe_scratch is False.  segments: the
    (phase, first step, last step) runs of the report's timeline these
    programs replace (default: `function`'s, _segments).  params: which
    forward inputs are parameters; with grads="assign" the backward's end
    adds the largest of AccumulateGrad's layout copies
    (accumulate_grad_copies: one at a time, each original freed after its
    copy)."""
    timeline = report["timeline"]
    unprobed: List[str] = []

    def scratch(ev: tuple) -> int:
        probe = ev[-1]
        if not probe_scratch or probe is None:
            return 0
        got = measure_scratch(probe)
        if got is None:
            unprobed.append(str(probe.op))
            return 0
        return got

    f = fwd.simulate(lambda i, n: True, scratch)
    n_user = len(fwd.outputs) - n_saved
    held_out = set()
    for name in fwd.outputs[:max(n_user, 0)]:
        held_out.update(f.storage_of.get(name, ()))
    share: List[Any] = []
    held: List[bool] = []
    for i, _ in enumerate(bwd.inputs):
        if i < n_saved and n_user + i < len(fwd.outputs):
            sids = f.storage_of.get(fwd.outputs[n_user + i], ())
            share.append(("fwd",) + tuple(sids))
            held.append(not sids or any(s in f.held or s in held_out for s in sids))
        else:
            share.append(("bwd", i))
            held.append(False)
    b = bwd.simulate(lambda i, n: held[i], scratch, share)
    # what of the backward's start the plan's state between the halves
    # already holds: the saved values it may free (each storage once); its
    # other inputs (the tangents) arrive with the backward
    from_fwd: Dict[Any, int] = {}
    for i, (_, nbytes) in enumerate(bwd.inputs):
        if i < n_saved and not held[i]:
            from_fwd.setdefault(share[i], nbytes)
    saved_start = sum(from_fwd.values())
    copies = accumulate_grad_copies(fwd, bwd, params) if grads == "assign" else []
    copy_peak = b.end + max((n for _, n in copies), default=0)
    halves: List[Tuple[str, str, int]] = []
    best = (-1, ("", ""), 0)
    for phase, first, last in (_segments(timeline, function) if segments is None else segments):
        if phase == "fwd":
            level = _live_after(timeline, last) - f.end
            peak, sc = level + f.peak, f.peak_scratch
        else:
            before = _live_after(timeline, first - 1) if first > 0 else 0
            level = before - saved_start
            peak, sc = level + max(b.peak, copy_peak), b.peak_scratch if b.peak >= copy_peak else 0
        halves.append((function, phase, peak))
        if peak > best[0]:
            best = (peak, (function, phase), sc)
    return Prediction(peak=best[0], at=best[1], halves=halves, scratch=best[2],
                      unknown=list(fwd.unknown) + list(bwd.unknown), unprobed=sorted(set(unprobed)),
                      copies=copies)


def predict_step(results: Sequence[Any], probe_scratch: bool = True,
                 joint: Any = None) -> Optional[Prediction]:
    """The step's peak as Inductor runs it, for PartitionResults planned
    in one report (one graph's, or the graphs of a step planned together):
    every function whose halves Inductor compiled is replaced by its
    programs (predict); a function Inductor did not compile (or compiled
    from a cache) keeps the plan's simulated peaks, and the answer is then
    marked incomplete ("planned" in unknown).  A step planned as one
    stitched function (`joint`, a stitched _stacked.JointPlan) keeps the
    plan's peak, marked incomplete.  None when no graph's programs are
    known."""
    if not results:
        return None
    if joint is not None and getattr(joint, "stitched", False):
        # one stitched function: its calls' halves are not runs of the
        # timeline a program can replace (the plan's gradient sums between
        # calls are buffers the autograd engine does not make): the plan's
        # peak, marked incomplete
        report = joint.report
        at = report.get("peak_at") or {}
        return Prediction(peak=int(report["peak_bytes"]),
                          at=(str(at.get("function", "step")), str(at.get("phase", ""))),
                          halves=[], unknown=["planned: the step's graphs were planned as one "
                                              "stitched function (not replaced by Inductor's programs)"])
    report = results[0].report
    have: Dict[str, Any] = {}
    for r in results:
        progs = r.inductor_programs()
        if progs is not None and r.function:
            have[r.function] = (r, progs)
    if not have:
        return None
    timeline = report.get("timeline") or []
    functions: List[str] = []
    for e in timeline:
        if e.get("function") not in functions:
            functions.append(e.get("function"))
    halves: List[Tuple[str, str, int]] = []
    unknown: List[str] = []
    unprobed: List[str] = []
    copies: List[Tuple[str, int]] = []
    best: Optional[Tuple[int, Tuple[str, str], int]] = None
    for fn in functions:
        if fn in have:
            r, (fw, bw) = have[fn]
            p = predict(report, fn, fw, bw, len(r.saved), probe_scratch,
                        params=list(r.exported.params), grads=str(r.options.get("grads", "")))
            halves += p.halves
            unknown += p.unknown
            unprobed += p.unprobed
            copies += p.copies
            if best is None or p.peak > best[0]:
                best = (p.peak, p.at, p.scratch)
            continue
        unknown.append(f"planned: @{fn} was not compiled by Inductor (its simulated peaks kept)")
        for phase, first, last in _segments(timeline, fn):
            peak = max(int(e["live_bytes"]) for e in timeline[first:last + 1])
            halves.append((fn, phase, peak))
            if best is None or peak > best[0]:
                best = (peak, (fn, phase), 0)
    assert best is not None
    return Prediction(peak=best[0], at=best[1], halves=halves, scratch=best[2],
                      unknown=unknown, unprobed=sorted(set(unprobed)), copies=copies)
