"""Graph breaks as stacked graphs: the joint graphs one `torch.compile`d step
runs, planned together under one budget (docs/python.md, "Graph breaks").

A model with graph breaks gives Dynamo several graphs, each traced by AOT
autograd to a joint graph of its own and, alone, planned as if nothing else
lived through it.  But what graph A saves stays allocated while every graph
after it runs its forward and its backward (A.fwd, B.fwd, B.bwd, A.bwd), and
a graph Dynamo reuses (the resume function of a block's graph break, called
once per block) runs several times in one step, each call's saves live at
once.  Here:

- `Capture` records, during one step, which graph each forward call ran
  (one entry per call, in order);
- `stacked_module` writes one joint function per call (a copy of its
  graph's, renamed `g<G>_c<I>`) in one module whose `ac.schedule` is the
  forwards in call order and the backwards in reverse (autograd's order for
  a chain of graphs), which the library plans together (contract section 1,
  "Several joint functions");
- `plan_stacked` plans that module under the budget.  A graph that runs
  several times has one compiled forward, so its calls must share a plan:
  the candidates (the saves common to its calls' plans, and each call's
  plan) are applied to every call with `plan-in` and the one with the
  lowest simulated peak kept, so the report is the peak of what runs;
- `JointPlan.lookup` gives a graph compiled again (the next step, after
  `torch._dynamo.reset()`) the report and function entry of its plan,
  matched by its exported text.
"""
from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .. import AutoacError, parse_size, plan as _plan

_HEADER = re.compile(r"func\.func @([A-Za-z0-9_$.]+)\(")


def _body(text: str) -> str:
    """The ops inside `module { ... }` of one exported joint graph."""
    start = text.index("{") + 1
    end = text.rindex("}")
    return text[start:end].strip("\n")


def normalized(text: str) -> str:
    """An exported graph's text with its function's name blanked: two
    compilations of the same graph compare equal."""
    return _HEADER.sub("func.func @_(", text, count=1)


def copy_name(graph: int, call: int) -> str:
    return f"g{graph}_c{call}"


def stacked_module(texts: Sequence[str], sequence: Sequence[int],
                   order: Optional[Sequence[Tuple[str, int]]] = None) -> Tuple[str, List[str]]:
    """(module text, function names): one function per entry of `sequence`
    (a graph index into `texts`), the k-th call of graph G named
    copy_name(G, k), and `ac.schedule` = `order` (("fwd" | "bwd", call
    index) as the step ran them: a pipeline stage's 1F1B), by default the
    forwards in order, the backwards in reverse."""
    names: List[str] = []
    seen: Dict[int, int] = {}
    bodies = []
    for g in sequence:
        k = seen.get(g, 0)
        seen[g] = k + 1
        name = copy_name(g, k)
        names.append(name)
        bodies.append(_HEADER.sub(f"func.func @{name}(", _body(texts[g]), count=1))
    if order is None:
        schedule = [f"{n}.fwd" for n in names] + [f"{n}.bwd" for n in reversed(names)]
    else:
        schedule = [f"{names[k]}.{kind}" for kind, k in order]
    attr = ", ".join(json.dumps(s) for s in schedule)
    return "module attributes {ac.schedule = [%s]} {\n%s\n}\n" % (attr, "\n".join(bodies)), names


@dataclass
class JointPlan:
    """The plan of one captured step's graphs, made together."""
    texts: List[str]                  #: each graph's exported text (normalized)
    sequence: List[int]               #: the graph of each forward call, in order
    names: List[str]                  #: the stacked module's function per call
    report: Dict[str, Any]            #: the library's report of the applied plan
    warnings: str
    module: str                       #: the stacked module planned
    candidates: int = 1               #: plans tried for the shared graphs
    #: stitched: the step as one joint function; entries[g] is graph g's
    #: function entry in its own SSA names (with its timeline)
    stitched: bool = False
    entries: Dict[int, Dict[str, Any]] = field(default_factory=dict)
    #: what the captured step ran outside the compiled graphs, or None
    outside: Optional["Outside"] = None

    def lookup(self, text: str) -> Optional[Tuple[int, Dict[str, Any], Dict[str, Any]]]:
        """(graph index, its function entry, the report as that graph's
        split reads it) for an exported graph, or None when this plan has no
        such graph."""
        key = normalized(text)
        for g, t in enumerate(self.texts):
            if t != key:
                continue
            if self.stitched:
                e = self.entries[g]
                fn = {k: v for k, v in e.items() if k != "timeline"}
                return g, fn, dict(self.report, functions=[fn], timeline=e["timeline"])
            want = copy_name(g, 0)
            for fn in self.report["functions"]:
                if fn["name"] == want:
                    return g, fn, self.report
        return None


def _plan_file(report_plan: Dict[str, Any], names: List[str], sequence: Sequence[int],
               saved_of: Dict[int, List[str]]) -> Dict[str, Any]:
    by_name = {f["name"]: f for f in report_plan["functions"]}
    fns = []
    for name, g in zip(names, sequence):
        fns.append({"name": name, "fingerprint": by_name[name]["fingerprint"],
                    "saved": sorted(saved_of[g]), "recomputed": []})
    return {"version": 1, "kind": "autoac-plan", "functions": fns}


def _shared_candidates(plan_json: Dict[str, Any], names: List[str],
                       sequence: Sequence[int]) -> List[Dict[int, List[str]]]:
    """The saved sets to try, one dict graph -> saved names per candidate:
    the saves common to a graph's calls, then each call's own (a graph run
    once keeps its plan in every candidate)."""
    saved = {f["name"]: list(f["saved"]) for f in plan_json["functions"]}
    calls: Dict[int, List[str]] = {}
    for name, g in zip(names, sequence):
        calls.setdefault(g, []).append(name)
    common = {g: sorted(set.intersection(*(set(saved[n]) for n in ns))) for g, ns in calls.items()}
    out = [common]
    most = max(len(ns) for ns in calls.values())
    for k in range(most):
        out.append({g: saved[ns[min(k, len(ns) - 1)]] for g, ns in calls.items()})
    return out


def _lowest_of(module: str, source: str, budget: Any, options: Dict[str, Any], tmp: str,
               plan_files: Sequence[Dict[str, Any]]):
    """(library result, count) of the plan files applied to `module` with
    `plan-in`: the one with the lowest simulated peak (ties: the fewest
    recompute seconds)."""
    best = None
    for n, plan_file in enumerate(plan_files):
        path = os.path.join(tmp, f"in{n}.json")
        with open(path, "w") as f:
            json.dump(plan_file, f)
        r = _plan(module, source_name=source, budget=budget, plan_in=path, **options)
        r.warnings = (r.warnings or "").replace(path, "<the shared graphs' plan>")
        key = (r.report["peak_bytes"], r.report.get("recompute_seconds", 0))
        if best is None or key < best[0]:
            best = (key, r)
    return best[1], len(plan_files)


def plan_stacked(texts: Sequence[str], sequence: Sequence[int], budget: Any,
                 options: Dict[str, Any], shapes: Optional[Sequence[Optional[GraphShape]]] = None,
                 calls: Optional[Sequence[Call]] = None,
                 order: Optional[Sequence[Tuple[str, int]]] = None,
                 repeated: int = 0) -> JointPlan:
    """Plans the calls of `sequence` (graph indices into `texts`, exported
    joint graphs) together under `budget` with the library `options`: as
    one stitched joint function when `shapes` and `calls` link up
    (plan_stitched), else as one function per call (stacked_module), which
    counts each tensor passed from a graph to the next on both sides.
    `order` (Capture.order): the entries as they ran when that is not the
    default; a stitched function has the default order only, so then one
    function per call.  `repeated` (repeated_static): static bytes of the
    module's functions that are the same tensors as an earlier function's
    (a stage's parameters, read by each microbatch's call): planned at the
    budget plus them, and taken off the report (unshifted)."""
    if not sequence:
        raise AutoacError("no joint graph ran in the captured step: nothing to plan together")
    if order is None and shapes is not None and calls is not None and \
            all(x is not None for x in shapes):
        got = plan_stitched(shapes, calls, budget, options)
        if got is not None:
            best, module, entries, tried = got
            return JointPlan(texts=[normalized(t) for t in texts], sequence=list(sequence),
                             names=["step"], report=best.report, warnings=best.warnings or "",
                             module=module, candidates=tried, stitched=True, entries=entries)
    module, names = stacked_module(texts, sequence, order)
    options = dict(options)
    options["mode"] = "annotate"
    if repeated and size_bytes(budget) is not None:
        budget = size_bytes(budget) + repeated
    with tempfile.TemporaryDirectory(prefix="autoac-stacked.") as tmp:
        out = os.path.join(tmp, "plan.json")
        first = _plan(module, source_name="<stacked step>", budget=budget, plan_out=out, **options)
        with open(out) as f:
            plan_json = json.load(f)
        if len(set(sequence)) == len(sequence):
            best, tried = first, 1
        else:
            best, tried = _lowest_of(module, "<stacked step>", budget, options, tmp,
                                     [_plan_file(plan_json, names, sequence, saved_of)
                                      for saved_of in _shared_candidates(plan_json, names, sequence)])
    report, warns = unshifted(best.report, best.warnings or "", repeated)
    return JointPlan(texts=[normalized(t) for t in texts], sequence=list(sequence), names=names,
                     report=report, warnings=warns, module=module, candidates=tried)


def size_bytes(budget: Any) -> Optional[int]:
    """A budget in bytes as the contract reads it (`24GB`, `1.5GiB`,
    `3e9`, an int: the library's parser), or None when it is none or not a
    size (planning then gives the library's own error)."""
    if budget is None or isinstance(budget, bool):
        return None
    if isinstance(budget, int):
        return budget
    try:
        return parse_size(str(budget))
    except AutoacError:
        return None


def _human(n: int) -> str:
    """acFormatBytes's text: "1 B", "270.13 MiB"."""
    v, u = float(n), 0
    while v >= 1024 and u < 4:
        v, u = v / 1024, u + 1
    return ("%.2f %s" if u else "%.0f %s") % (v, ["B", "KiB", "MiB", "GiB", "TiB"][u])


def repeated_static(param_bytes: int, grad_bytes: int, options: Dict[str, Any]) -> int:
    """The static bytes (parameters, their gradients and optimizer state,
    as the contract counts them) of parameters several calls share, counted
    once per call by the library for a module of one function per call."""
    factor = {"momentum": 1.0, "adam": 2.0}.get(str(options.get("optimizer", "none")), 0.0)
    grads = 0 if options.get("grads") == "assign" else grad_bytes
    return param_bytes + grads + int(round(factor * param_bytes))


def unshifted(report: Dict[str, Any], warnings: str, shift: int) -> Tuple[Dict[str, Any], str]:
    """The report and warnings of a plan made at budget + `shift` with
    `shift` more static bytes than run, as they read for what runs: every
    peak, live total and the static part `shift` lower (the static part is
    added to every step, so the plan is the one the true budget gives)."""
    if not shift:
        return report, warnings
    r = json.loads(json.dumps(report))
    for key in ("peak_bytes", "static_bytes"):
        if isinstance(r.get(key), int):
            r[key] -= shift
    if isinstance(r.get("budget_bytes"), int) and r["budget_bytes"] >= 0:
        r["budget_bytes"] -= shift
    for k, v in list((r.get("baseline_peak_bytes") or {}).items()):
        if isinstance(v, int):
            r["baseline_peak_bytes"][k] = v - shift
    for e in r.get("timeline", []):
        for key in ("live_bytes", "live_after_bytes"):
            if isinstance(e.get(key), int):
                e[key] -= shift
    text = re.sub(r"(\d+) bytes \(([^)]*)\)",
                  lambda m: "%d bytes (%s)" % (int(m.group(1)) - shift, _human(int(m.group(1)) - shift)),
                  warnings or "")
    return r, text


class Capture:
    """The forward calls of one step: `linked` holds, per call, the graph it
    ran (an index into `graphs`, the exported texts, in compile order) and
    the tensors it took and returned."""

    def __init__(self):
        self.graphs: List[str] = []
        self.shapes: List[Optional[GraphShape]] = []
        self.options: List[Dict[str, Any]] = []
        self.linked: List[Call] = []
        self.keep: List[Any] = []     # the tensors seen, so that their id()s stay unique
        self.index_of_result: Dict[int, int] = {}
        self.outside = Outside()      # what ran between the graphs, eagerly
        self.events: List[Tuple[str, int]] = []   # ("fwd" | "bwd", call) as they ran
        self._bwd_seen: set = set()
        self.param_flags: List[List[bool]] = []   # per graph: which primals are parameters
        self._params_seen: set = set()
        #: bytes of parameters (and of their gradients) an earlier call took
        #: already: the same tensors, which the library, counting each
        #: function's own parameters, would count again (repeated_static)
        self.repeated_param_bytes = 0
        self.repeated_grad_bytes = 0

    @property
    def calls(self) -> List[int]:
        """The graph of each forward call, in order."""
        return [c.graph for c in self.linked]

    def graph_for(self, result_index: int, result) -> int:
        if result_index not in self.index_of_result:
            key = normalized(result.mlir)
            if key in self.graphs:
                self.index_of_result[result_index] = self.graphs.index(key)
            else:
                self.graphs.append(key)
                self.shapes.append(graph_shape(result.exported))
                self.options.append(result.options)
                self.param_flags.append(list(getattr(result.exported, "params", [])))
                self.index_of_result[result_index] = len(self.graphs) - 1
        return self.index_of_result[result_index]

    def note(self, graph: int, args: Sequence[Any], outs: Any) -> None:
        """Records a forward call of `graph` that took `args` (flat) and
        returned `outs`."""
        import torch
        import torch.utils._pytree as pytree
        flat_out = pytree.tree_flatten(outs)[0]
        self.keep += [a for a in args if isinstance(a, torch.Tensor)] + \
            [o for o in flat_out if isinstance(o, torch.Tensor)]
        self.outside.walk(args, self.keep)
        self.linked.append(Call(graph=graph, args=[id(a) for a in args],
                                outs=[id(o) for o in flat_out],
                                outs_grad=[isinstance(o, torch.Tensor) and o.requires_grad
                                           for o in flat_out]))
        k = len(self.linked) - 1
        self.events.append(("fwd", k))
        flags = self.param_flags[graph] if graph < len(self.param_flags) else []
        for a, is_param in zip(args, flags):
            if not (is_param and isinstance(a, torch.Tensor)):
                continue
            if id(a) in self._params_seen:
                nbytes = a.numel() * a.element_size()
                self.repeated_param_bytes += nbytes
                if a.requires_grad:
                    self.repeated_grad_bytes += nbytes
            self._params_seen.add(id(a))
        # The backward of this call starts when autograd first reaches one
        # of its outputs' nodes (they lead to its one compiled backward).
        for node in {o.grad_fn for o in flat_out
                     if isinstance(o, torch.Tensor) and o.grad_fn is not None}:
            node.register_prehook(lambda *_, k=k: self._backward_started(k))

    def caller_inputs(self) -> List[Any]:
        """The tensors the calls took that are neither parameters nor an
        earlier call's outputs: what the caller held for them (the batch,
        a pipeline stage's microbatches and receive buffers)."""
        import torch
        by_id = {id(t): t for t in self.keep}
        made = {o for c in self.linked for o in c.outs}
        out, seen = [], set()
        for c in self.linked:
            flags = self.param_flags[c.graph] if c.graph < len(self.param_flags) else []
            for i, a in enumerate(c.args):
                t = by_id.get(a)
                if (isinstance(t, torch.Tensor) and a not in made and a not in seen and
                        not (i < len(flags) and flags[i])):
                    seen.add(a)
                    out.append(t)
        return out

    def _backward_started(self, k: int) -> None:
        if k not in self._bwd_seen:
            self._bwd_seen.add(k)
            self.events.append(("bwd", k))

    def order(self) -> Optional[List[Tuple[str, int]]]:
        """The step's entries as they ran, ("fwd" | "bwd", call), when every
        call's backward was seen and the order is not the default (every
        forward in call order, then the backwards in reverse: a chain of
        graphs); None otherwise (the default applies)."""
        n = len(self.linked)
        default = [("fwd", k) for k in range(n)] + [("bwd", k) for k in reversed(range(n))]
        if len(self._bwd_seen) != n or self.events == default:
            return None
        return list(self.events)


class Outside:
    """What a step ran outside every compiled graph: code Dynamo left eager
    (a frame it skipped, the rest of a loop after a graph break) whose
    autograd nodes save tensors for the backward that no plan of the graphs
    can see.  walk() counts them from a graph call's inputs back to the
    compiled graphs before it (or the leaves); code after the last graph is
    not reached."""

    def __init__(self):
        self.nodes = 0                #: eager autograd nodes found
        self.bytes = 0                #: storages they saved (deduplicated)
        self._seen_nodes: set = set()
        self._seen_storages: set = set()

    def walk(self, args: Sequence[Any], known: Sequence[Any] = ()) -> None:
        """Counts the eager nodes behind `args` (a call's flat inputs) and
        what they saved, leaving out parameters and the storages of `known`
        (the graphs' own tensors: the plan counts those)."""
        import torch
        stack = [a.grad_fn for a in args if isinstance(a, torch.Tensor) and a.grad_fn is not None]
        skip = {_storage_id(t) for t in known if isinstance(t, torch.Tensor)}
        while stack:
            node = stack.pop()
            if node is None or id(node) in self._seen_nodes:
                continue
            self._seen_nodes.add(id(node))
            name = type(node).__name__
            if name.startswith("CompiledFunction") or name == "AccumulateGrad":
                continue
            self.nodes += 1
            for t in _saved_tensors(node):
                key = _storage_id(t)
                if key in skip or key in self._seen_storages or (t.is_leaf and t.requires_grad):
                    continue
                self._seen_storages.add(key)
                self.bytes += t.untyped_storage().nbytes()
            stack += [n for n, _ in node.next_functions]

    def message(self) -> str:
        """The warning, or "" when nothing ran outside."""
        if not self.nodes:
            return ""
        return (f"{self.nodes} autograd op(s) ran outside the compiled graphs (code Dynamo ran "
                f"eagerly, e.g. after a graph break inside a loop), saving {self.bytes} bytes "
                f"for the backward that the plan does not count")


def _storage_id(t) -> Tuple[int, int]:
    s = t.untyped_storage()
    return (s.data_ptr(), s.nbytes())


def _saved_tensors(node) -> List[Any]:
    """The tensors an eager autograd node saved (its `_saved_*` fields)."""
    import torch
    out: List[Any] = []
    for attr in dir(node):
        if not attr.startswith("_saved_"):
            continue
        try:
            v = getattr(node, attr)
        except Exception:  # noqa: BLE001  (a field freed or not readable)
            continue
        for t in (v if isinstance(v, (tuple, list)) else (v,)):
            if isinstance(t, torch.Tensor) and t.layout == torch.strided:
                out.append(t)
    return out


# --------------------------------------------------------------------------
# One joint function for the whole step, when the calls' tensors link up

_VALUE = re.compile(r"%([A-Za-z0-9_]+)")
_TYPE = re.compile(r"!torch\.[A-Za-z_.]+<[^>]*>|!torch\.[A-Za-z_.]+|tensor<[^>]*>")


@dataclass
class GraphShape:
    """What stitching needs of one exported joint graph."""
    lines: List[str]                  #: its ops, one per line (the body)
    arg_types: List[str]
    nprimals: int
    params: List[bool]
    fwd_outputs: List[str]            #: SSA name per forward output
    grad_of: List[Optional[str]]      #: SSA name of each primal's gradient, or None
    type_of: Dict[str, str]           #: SSA name -> type of every returned value
    bwd: List[bool]                   #: per line: a backward op (reads a tangent)


def graph_shape(exported) -> Optional[GraphShape]:
    """GraphShape of an autoac.pytorch ExportedGraph, None when its text is
    not the flat one-op-per-line form stitching reads."""
    text = exported.text.splitlines()
    head = next((i for i, l in enumerate(text) if "func.func @" in l), None)
    ret = next((i for i in range(len(text) - 1, -1, -1) if text[i].strip().startswith("return")), None)
    if head is None or ret is None:
        return None
    args = re.findall(r"%arg(\d+): (" + _TYPE.pattern + ")", text[head].split(") -> (")[0])
    nprim = len(exported.primals)
    if [int(a) for a, _ in args] != list(range(len(args))) or len(args) != nprim + len(exported.tangents):
        return None
    lines = text[head + 1:ret]
    if any("{" in l.split("=", 1)[0] or l.rstrip().endswith("{") for l in lines):
        return None                   # a region op: not flat
    rparts = text[ret].strip()[len("return"):].split(" : ", 1)
    names = [n.strip() for n in rparts[0].split(",")] if rparts[0].strip() else []
    types = _TYPE.findall(rparts[1]) if len(rparts) > 1 else []
    if len(names) != len(types):
        return None
    out_node = next(n for n in exported.graph.nodes if n.op == "output")
    import torch.utils._pytree as pytree
    outs = pytree.tree_flatten(out_node.args)[0]
    nf = exported.num_fwd_outputs
    if len(outs) != nf + nprim or any(o is None for o in outs[:nf]):
        return None
    vn = exported.value_names
    fwd = [vn.get(o) for o in outs[:nf]]
    grads = [vn.get(o) if o is not None else None for o in outs[nf:]]
    if None in fwd:
        return None
    tangents = {f"%arg{nprim + t}" for t in range(len(exported.tangents))}
    tainted, bwd = set(tangents), []
    for l in lines:
        lhs, _, rhs = l.partition("=")
        reads = {"%" + m for m in _VALUE.findall(rhs.split(" : ")[0])}
        b = bool(reads & tainted)
        bwd.append(b)
        if b:
            tainted.update("%" + m for m in _VALUE.findall(lhs))
    return GraphShape(lines=lines, arg_types=[t for _, t in args], nprimals=nprim,
                      params=list(exported.params[:nprim]), fwd_outputs=fwd, grad_of=grads,
                      type_of=dict(zip(names, types)), bwd=bwd)


def _renamed(line: str, prefix: str, subst: Dict[str, str]) -> str:
    def one(m):
        name = "%" + m.group(1)
        return subst.get(name, f"%{prefix}{m.group(1)}")
    return _VALUE.sub(one, line)


def _with_save(line: str) -> str:
    """The op line with `ac.save` in its attribute dictionary."""
    lhs, eq, rhs = line.partition("= ")
    close = rhs.index(")") + 1             # operand list: no nested parens
    rest = rhs[close:]
    if rest.startswith(" <{"):
        depth, i = 0, 1
        while i < len(rest):
            depth += {"{": 1, "}": -1}.get(rest[i], 0)
            if rest[i] == ">" and depth == 0:
                break
            i += 1
        close += i + 1
        rest = rhs[close:]
    if rest.startswith(" {"):
        return lhs + eq + rhs[:close] + " {ac.save, " + rest[2:]
    return lhs + eq + rhs[:close] + " {ac.save}" + rest


@dataclass
class Call:
    """One forward call of the captured step: its graph and the identities
    (id()) of the tensors it took (per primal) and returned (per forward
    output), with which of those require a gradient."""
    graph: int
    args: List[int]
    outs: List[int]
    outs_grad: List[bool]


def stitched_function(shapes: Sequence[GraphShape], calls: Sequence[Call],
                      name: str = "step"
                      ) -> Optional[Tuple[str, Dict[int, set], Dict[str, Tuple[int, str]]]]:
    """(module text, per call the outputs later calls read, which it must
    save, in its own names, and the map from the module's value names to
    (call, name in its graph)) of one joint
    function for the step: each call's forward ops in call order, then the
    backward ops in reverse call order, a call's input that is an earlier
    call's output read as that value (its op marked ac.save: the later graph
    holds it, it cannot recompute it), and that output's tangent the sum of
    the gradients its readers return for it.  None when the calls do not fit
    (counts of inputs, outputs or tangents not the graph's)."""
    producer: Dict[int, Tuple[int, int]] = {}       # tensor id -> (call, output index)
    readers: Dict[Tuple[int, int], List[Tuple[int, int]]] = {}
    for k, c in enumerate(calls):
        s = shapes[c.graph]
        ntan = len(s.arg_types) - s.nprimals
        if len(c.args) != s.nprimals or len(c.outs) != len(s.fwd_outputs) or sum(c.outs_grad) != ntan:
            return None
        for i, t in enumerate(c.args):
            if t in producer and not s.params[i]:
                readers.setdefault(producer[t], []).append((k, i))
        for j, t in enumerate(c.outs):
            producer.setdefault(t, (k, j))
    pre = [f"c{k}_" for k in range(len(calls))]
    subst: List[Dict[str, str]] = [dict() for _ in calls]
    # in call order, so that an output that is its call's own (substituted)
    # input resolves through that call's names
    reads = sorted((kb, i, ka, j) for (ka, j), rs in readers.items() for kb, i in rs)
    for kb, i, ka, j in reads:
        subst[kb][f"%arg{i}"] = _renamed(shapes[calls[ka].graph].fwd_outputs[j], pre[ka], subst[ka])
    args, fwd_lines, bwd_blocks, results = [], [], [], []
    consumed = set(readers)
    saved_ops: Dict[int, set] = {}
    for (ka, j) in readers:
        saved_ops.setdefault(ka, set()).add(shapes[calls[ka].graph].fwd_outputs[j])
    used_grads: set = set()
    extras: List[List[str]] = [[] for _ in calls]
    # tangents last call first: a tangent is the sum of the gradients later
    # calls return for the output, each read through that call's names
    for k in reversed(range(len(calls))):
        s = shapes[calls[k].graph]
        t = 0
        for j, needs in enumerate(calls[k].outs_grad):
            if not needs:
                continue
            a = s.nprimals + t
            t += 1
            grads = []
            for kb, i in readers.get((k, j), []):
                gname = shapes[calls[kb].graph].grad_of[i]
                if gname is not None:
                    grads.append(_renamed(gname, pre[kb], subst[kb]))
                    used_grads.add((kb, i))
            if not grads:
                continue
            ty = s.arg_types[a]
            acc = grads[0]
            for n, gname in enumerate(grads[1:]):
                one, tot = f"%c{k}_t{j}_one{n}", f"%c{k}_t{j}_sum{n}"
                extras[k].append(f'    {one} = "torch.constant.int"() {{value = 1 : i64}} : () -> !torch.int')
                extras[k].append(f'    {tot} = "torch.aten.add_.Tensor"({acc}, {gname}, {one}) : '
                                 f'({ty}, {ty}, !torch.int) -> {ty}')
                acc = tot
            subst[k][f"%arg{a}"] = acc
    for k, c in enumerate(calls):
        s = shapes[c.graph]
        extra = extras[k]
        for a, ty in enumerate(s.arg_types):
            nm = f"%arg{a}"
            if nm in subst[k]:
                continue
            attr = " {ac.tangent}" if a >= s.nprimals else (" {ac.param}" if s.params[a] else "")
            args.append(f"%{pre[k]}arg{a}: {ty}{attr}")
        mine_saved = saved_ops.get(k, set())
        block = []
        for line, b in zip(s.lines, s.bwd):
            lhs = line.partition("=")[0]
            new = _renamed(line, pre[k], subst[k])
            if not b and any(("%" + m) in mine_saved for m in _VALUE.findall(lhs)):
                new = _with_save(new)
            (block if b else fwd_lines).append(new)
        bwd_blocks.append(extra + block)
        for j, o in enumerate(s.fwd_outputs):
            if (k, j) not in consumed:
                results.append((_renamed(o, pre[k], subst[k]), s.type_of[o], "{ac.output}"))
        for i, g in enumerate(s.grad_of):
            if g is not None and (k, i) not in used_grads:
                results.append((_renamed(g, pre[k], subst[k]), s.type_of[g], "{ac.grad}"))
    body = fwd_lines + [l for blk in reversed(bwd_blocks) for l in blk]
    # MLIR's printer numbering (arguments %argN, results %N in order), the
    # names the library's report and plan files use
    canon: Dict[str, str] = {}
    for n, a in enumerate(args):
        canon[a.split(":")[0][1:]] = f"arg{n}"
    results_seen = 0
    for line in body:
        m = _VALUE.match(line.strip())
        if m:
            canon[m.group(1)] = str(results_seen)
            results_seen += 1

    def fix(text: str) -> str:
        return _VALUE.sub(lambda m: "%" + canon.get(m.group(1), m.group(1)), text)
    orig_of: Dict[str, Tuple[int, str]] = {}
    for stitched_name, c in canon.items():
        k, _, orig = stitched_name[1:].partition("_")
        if k.isdigit() and not orig.startswith("t"):     # c<K>_t<J>_...: the sums stitching adds
            orig_of["%" + c] = (int(k), "%" + orig)
    sig = ", ".join(f"{t} {a}" for _, t, a in results)
    head = f"  func.func @{name}({fix(', '.join(args))}) -> ({sig}) attributes {{ac.joint}} {{"
    ret = f"    return {fix(', '.join(n for n, _, _ in results))} : {', '.join(t for _, t, _ in results)}"
    text = "module {\n" + head + "\n" + "\n".join([fix(l) for l in body] + [ret]) + "\n  }\n}\n"
    return text, saved_ops, orig_of


def _own_saved(shape: GraphShape, saved: Sequence[str], recomputed: Sequence[str]) -> List[str]:
    """Of a call's saved values (its own names), those its own backward
    reads: directly, or through forward ops it runs again or runs only for
    it (the unsaved forward values a backward line reads, back to saved
    values and inputs; a decomposed GELU's backward reads its input through
    forward-phase ops that no forward output needs, which the plan lists as
    neither saved nor recomputed).  An output only a later graph reads is
    that graph's input, not this graph's save."""
    kept = set(saved) | {v.split("#")[0] for v in saved}
    made: Dict[str, Set[str]] = {}        # value -> what its forward line reads
    need: List[str] = []
    for line, b in zip(shape.lines, shape.bwd):
        lhs, _, rhs = line.partition("=")
        ins = {"%" + m for m in _VALUE.findall(rhs.split(" : ")[0])}
        outs = {"%" + m for m in _VALUE.findall(lhs)}
        if b or outs & set(recomputed):
            need.extend(ins)
        elif not b:
            for o in outs:
                made[o] = ins
    reads: Set[str] = set()
    while need:
        v = need.pop()
        if v in reads:
            continue
        reads.add(v)
        base = v.split("#")[0]
        if v not in kept and base not in kept and base in made:
            need.extend(made[base])
    return [v for v in saved if v.split("#")[0] in reads or v in reads]


def plan_stitched(shapes: Sequence[GraphShape], calls: Sequence[Call], budget: Any,
                  options: Dict[str, Any]) -> Optional[Tuple[Any, str, Dict[int, Dict[str, Any]], int]]:
    """(library result, module, per-graph function entry, candidates tried)
    for the step as one stitched joint function, or None when it cannot be
    stitched.  A graph called several times gets one saved set for all its
    calls (candidates applied with plan-in, the lowest peak kept)."""
    st = stitched_function(shapes, calls)
    if st is None:
        return None
    module, must, orig_of = st
    canon_of = {v: c for c, v in orig_of.items()}

    def mine(entries, k):
        """Entries of call k, in its graph's own names."""
        out = []
        for e in entries:
            base, hash_, rest = e.get("value", "").partition("#")
            hit = orig_of.get(base)
            if hit is not None and hit[0] == k:
                out.append(dict(e, value=hit[1] + hash_ + rest))
        return out
    options = dict(options)
    options["mode"] = "annotate"
    first_call: Dict[int, int] = {}
    calls_of: Dict[int, List[int]] = {}
    for k, c in enumerate(calls):
        first_call.setdefault(c.graph, k)
        calls_of.setdefault(c.graph, []).append(k)
    with tempfile.TemporaryDirectory(prefix="autoac-stitched.") as tmp:
        out = os.path.join(tmp, "plan.json")
        best = _plan(module, source_name="<stitched step>", budget=budget, plan_out=out, **options)
        tried = 1
        if any(len(ks) > 1 for ks in calls_of.values()):
            with open(out) as f:
                pj = json.load(f)
            fn = best.report["functions"][0]

            def own(k):
                sv = [e["value"] for e in mine(fn.get("saved", []), k)]
                rc = [e["value"] for e in mine(fn.get("recomputed", []), k)]
                return sv, set(_own_saved(shapes[calls[k].graph], sv, rc))

            per = {k: own(k) for k in range(len(calls))}
            cands = [{g: set.intersection(*(per[k][1] for k in ks)) for g, ks in calls_of.items()}]
            for n in range(max(len(ks) for ks in calls_of.values())):
                cands.append({g: per[ks[min(n, len(ks) - 1)]][1] for g, ks in calls_of.items()})
            files = []
            for cand in cands:
                saved = []
                for k, c in enumerate(calls):
                    for v in sorted(cand[c.graph] | must.get(k, set())):
                        base, hash_, rest = v.partition("#")
                        saved.append(canon_of[(k, base)] + hash_ + rest)
                files.append({"version": 1, "kind": "autoac-plan", "functions": [
                    {"name": "step", "fingerprint": pj["functions"][0]["fingerprint"],
                     "saved": sorted(set(saved)), "recomputed": []}]})
            best, tried = _lowest_of(module, "<stitched step>", budget, options, tmp, files)
    fn = best.report["functions"][0]
    entries = {}
    for g, k in first_call.items():
        rec = mine(fn.get("recomputed", []), k)
        saved = mine(fn.get("saved", []), k)
        kept = set(_own_saved(shapes[g], [e["value"] for e in saved], [e["value"] for e in rec]))
        entries[g] = {"name": f"step.g{g}", "saved": [e for e in saved if e["value"] in kept],
                      "recomputed": rec, "offloaded": mine(fn.get("offloaded", []), k),
                      "timeline": [dict(e, function=f"step.g{g}") for e in
                                   mine(best.report.get("timeline", []), k)]}
    return best, module, entries, tried
