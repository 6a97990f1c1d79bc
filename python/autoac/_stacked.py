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
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import AutoacError, plan as _plan

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


def stacked_module(texts: Sequence[str], sequence: Sequence[int]) -> Tuple[str, List[str]]:
    """(module text, function names): one function per entry of `sequence`
    (a graph index into `texts`), the k-th call of graph G named
    copy_name(G, k), and `ac.schedule` = forwards in order, backwards in
    reverse."""
    names: List[str] = []
    seen: Dict[int, int] = {}
    bodies = []
    for g in sequence:
        k = seen.get(g, 0)
        seen[g] = k + 1
        name = copy_name(g, k)
        names.append(name)
        bodies.append(_HEADER.sub(f"func.func @{name}(", _body(texts[g]), count=1))
    schedule = [f"{n}.fwd" for n in names] + [f"{n}.bwd" for n in reversed(names)]
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
    taken: Dict[int, int] = field(default_factory=dict)

    def lookup(self, text: str) -> Optional[Tuple[int, Dict[str, Any]]]:
        """(graph index, the report's function entry of its first call) for
        an exported graph, or None when this plan has no such graph."""
        key = normalized(text)
        for g, t in enumerate(self.texts):
            if t == key:
                want = copy_name(g, 0)
                for fn in self.report["functions"]:
                    if fn["name"] == want:
                        self.taken[g] = self.taken.get(g, 0) + 1
                        return g, fn
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


def plan_stacked(texts: Sequence[str], sequence: Sequence[int], budget: Any,
                 options: Dict[str, Any]) -> JointPlan:
    """Plans the calls of `sequence` (graph indices into `texts`, exported
    joint graphs) together under `budget` with the library `options`."""
    if not sequence:
        raise AutoacError("no joint graph ran in the captured step: nothing to plan together")
    module, names = stacked_module(texts, sequence)
    options = dict(options)
    options["mode"] = "annotate"
    with tempfile.TemporaryDirectory(prefix="autoac-stacked.") as tmp:
        out = os.path.join(tmp, "plan.json")
        first = _plan(module, source_name="<stacked step>", budget=budget, plan_out=out, **options)
        with open(out) as f:
            plan_json = json.load(f)
        if len(set(sequence)) == len(sequence):
            best, tried = first, 1
        else:
            best, tried = None, 0
            for saved_of in _shared_candidates(plan_json, names, sequence):
                path = os.path.join(tmp, f"in{tried}.json")
                with open(path, "w") as f:
                    json.dump(_plan_file(plan_json, names, sequence, saved_of), f)
                tried += 1
                r = _plan(module, source_name="<stacked step>", budget=budget, plan_in=path,
                          **options)
                r.warnings = (r.warnings or "").replace(path, "<the shared graphs' plan>")
                if best is None or (r.report["peak_bytes"], r.report.get("recompute_seconds", 0)) < \
                        (best.report["peak_bytes"], best.report.get("recompute_seconds", 0)):
                    best = r
    return JointPlan(texts=[normalized(t) for t in texts], sequence=list(sequence), names=names,
                     report=best.report, warnings=best.warnings or "", module=module,
                     candidates=tried)


class Capture:
    """The forward calls of one step: `calls` holds, per call, the index of
    the graph it ran (into `graphs`, the exported texts, in compile order)."""

    def __init__(self):
        self.graphs: List[str] = []
        self.options: List[Dict[str, Any]] = []
        self.calls: List[int] = []
        self.index_of_result: Dict[int, int] = {}

    def graph_for(self, result_index: int, text: str, options: Dict[str, Any]) -> int:
        key = normalized(text)
        if result_index not in self.index_of_result:
            if key in self.graphs:
                self.index_of_result[result_index] = self.graphs.index(key)
            else:
                self.graphs.append(key)
                self.options.append(options)
                self.index_of_result[result_index] = len(self.graphs) - 1
        return self.index_of_result[result_index]
