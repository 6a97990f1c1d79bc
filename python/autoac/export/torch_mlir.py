"""The joint graph imported by torch-mlir's own FX importer (docs/flows.md).

`export_joint_torch_mlir(model, inputs)` traces `loss(model(*inputs))` with
torch 2.x AOT autograd (autoac.export.trace, as `export_joint` does), decomposes
what torch-mlir cannot lower (`native_layer_norm_backward`,
`native_batch_norm_backward`, and torch-mlir's own decomposition table),
imports the joint FX graph with `torch_mlir.extras.fx_importer.FxImporter`
and marks it with the contract's attributes (`ac.joint`, `ac.param`,
`ac.tangent`, `ac.output`, `ac.grad`).  The text is printed in MLIR's
generic form, which Debian's MLIR 22 (autoac's) reads with unregistered
dialects; torch-mlir is built on a newer MLIR whose custom syntax it cannot.

Every op the importer makes for an FX node is located at a name location
holding the node's name (`loc("addmm_1")`), and the SSA names the report
uses (`%12`, `%7#1`, `%arg3`) are computed from the module the way MLIR's
printer numbers them, so report entries map back to FX nodes
(`ImportedGraph.node_of`), checked against the op's name.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

import torch
import torch.fx as fx

from .. import AutoacError
from .fx import ExportError

__all__ = ["available", "ImportedGraph", "import_joint_graph", "export_joint_torch_mlir",
           "decompositions", "torch_mlir_version"]


def available() -> Optional[str]:
    """None when torch-mlir's FX importer can be imported, else why not."""
    try:
        import torch_mlir.extras.fx_importer  # noqa: F401
        from torch_mlir.dialects import torch as _  # noqa: F401
    except Exception as e:  # noqa: BLE001 - any failure means "not usable"
        return f"torch-mlir is not importable ({type(e).__name__}: {e})"
    return None


def torch_mlir_version() -> str:
    try:
        from importlib.metadata import version
        return version("torch-mlir")
    except Exception:  # noqa: BLE001
        return "unknown"


def _require() -> None:
    why = available()
    if why:
        raise ExportError(f"--importer torch-mlir: {why}; install the pins of "
                          "python/requirements-mlir.txt (scripts/mlir-env.sh prints a Python that has them)")


def decompositions(which: str = "torch-mlir") -> Dict[Any, Callable]:
    """The decomposition table applied while tracing.  "backward": only the
    backward ops torch-mlir has no lowering for (native_layer_norm_backward,
    native_batch_norm_backward) and the ops returning lists of tensors
    (split, split_with_sizes, unbind, chunk: slices); "torch-mlir": those plus torch-mlir's own
    table (what `torch_mlir.fx.export_and_import` applies); "none"."""
    from torch._decomp import get_decompositions
    aten = torch.ops.aten
    # torch-mlir has no lowering for the two backward ops; the split ops
    # return a !torch.list of tensors that autoac cannot size (slices instead).
    needed = get_decompositions([aten.native_layer_norm_backward, aten.native_batch_norm_backward,
                                 aten.split.Tensor, aten.split_with_sizes, aten.unbind.int,
                                 aten.chunk])
    if which == "none":
        return {}
    if which == "backward":
        return needed
    if which == "torch-mlir":
        _require()
        from torch_mlir.extras.fx_decomp_util import get_decomposition_table
        table = dict(get_decomposition_table())
        table.update(needed)
        return table
    raise ExportError(f"unknown decompositions '{which}' (accepted: torch-mlir, backward, none)")


@dataclass
class ImportedGraph:
    """A joint graph imported by torch-mlir: the generic MLIR text and the map
    between the SSA names autoac's report uses and the FX nodes."""
    text: str
    name: str
    graph: fx.Graph
    num_fwd_outputs: int
    params: List[bool]
    #: for each result of the function: the FX output index it is
    result_of_output: List[int] = field(default_factory=list)
    #: SSA name ("%arg3", "%12", "%7#1") -> FX node (getitem nodes for "#i")
    nodes_by_name: Dict[str, fx.Node] = field(default_factory=dict)
    #: SSA base name ("%7") of a multi-result op -> its FX call node
    multi_result_ops: Dict[str, fx.Node] = field(default_factory=dict)
    #: SSA name -> the MLIR op name that defines it
    op_names: Dict[str, str] = field(default_factory=dict)

    def node_of(self, value: str) -> Optional[fx.Node]:
        """The FX node of a report value name; None for a value the importer
        made itself (a constant, a list)."""
        if value in self.nodes_by_name:
            return self.nodes_by_name[value]
        if "#" not in value and value in self.multi_result_ops:
            return self.multi_result_ops[value]
        return None

    def value_names(self) -> Dict[fx.Node, str]:
        return {n: v for v, n in self.nodes_by_name.items()}


def _op_target_name(node: fx.Node) -> str:
    t = node.target
    if isinstance(t, torch._ops.OpOverload):
        ns, rest = t.name().split("::", 1)
        base, _, overload = rest.partition(".")
        return f"torch.{ns}.{base}" + (f".{overload}" if overload and overload != "default" else "")
    return str(t)


def _strip_none_outputs(gm: fx.GraphModule) -> List[int]:
    """Removes the None gradients (inputs that need none) from the output;
    returns, per remaining output, its index in the original output list."""
    out = next(n for n in gm.graph.nodes if n.op == "output")
    vals = list(out.args[0]) if isinstance(out.args[0], (list, tuple)) else [out.args[0]]
    keep = [i for i, v in enumerate(vals) if v is not None]
    out.args = ([vals[i] for i in keep],)
    gm.recompile()
    return keep


def import_joint_graph(gm: fx.GraphModule, num_fwd_outputs: int, params: Sequence[bool],
                       name: str = "joint") -> ImportedGraph:
    """Imports a joint FX graph (primals, then `tangents_*` placeholders;
    output = forward outputs then gradients; nodes carrying meta["val"]) with
    torch-mlir's FxImporter and writes the contract's joint function."""
    _require()
    from torch_mlir import ir
    from torch_mlir.dialects import torch as torch_d
    from torch_mlir.extras import fx_importer as fxi

    import re
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        raise ExportError(f"invalid function name '{name}' (letters, digits, _ . $)")
    result_of_output = _strip_none_outputs(gm)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    tangent = ["tangents" in str(n.target) for n in placeholders]
    mask = list(params) + [False] * (len(placeholders) - len(params))

    class _NamedLocations(fxi.ContextCache):
        """Each FX node's ops at a name location holding the node's name."""
        __slots__ = ()

        def get_node_location(self, node):  # noqa: D401 - importer hook
            return ir.Location.name(node.name, context=self._c)

    context = ir.Context()
    torch_d.register_dialect(context)
    importer = fxi.FxImporter(context=context)
    importer._cc = _NamedLocations(context, py_attr_tracker=importer._py_attr_tracker)
    try:
        func = importer.import_stateless_graph(gm.graph, func_name=name)
    except Exception as e:  # noqa: BLE001 - name the importer's failure
        raise ExportError(f"torch-mlir's FX importer failed on '{name}': {type(e).__name__}: {e}") from e

    with context, ir.Location.unknown():
        op = func.operation if hasattr(func, "operation") else func
        op.attributes["ac.joint"] = ir.UnitAttr.get()
        unit = ir.UnitAttr.get()
        arg_attrs = []
        for is_param, is_tangent in zip(mask, tangent):
            d = {}
            if is_tangent:
                d["ac.tangent"] = unit
            elif is_param:
                d["ac.param"] = unit
            arg_attrs.append(ir.DictAttr.get(d))
        op.attributes["arg_attrs"] = ir.ArrayAttr.get(arg_attrs)
        res_attrs = [ir.DictAttr.get({"ac.output": unit} if i < num_fwd_outputs else {"ac.grad": unit})
                     for i in result_of_output]
        op.attributes["res_attrs"] = ir.ArrayAttr.get(res_attrs)

    by_fx = {n.name: n for n in gm.graph.nodes}
    imported = ImportedGraph(text="", name=name, graph=gm.graph, num_fwd_outputs=num_fwd_outputs,
                             params=mask, result_of_output=result_of_output)
    for i, ph in enumerate(placeholders):
        imported.nodes_by_name[f"%arg{i}"] = ph
    # MLIR's printer numbers the results of a function's ops in order from %0
    # (a function is isolated from above), "%N" for one result, "%N#i" for
    # each of several.
    counter = 0
    block = op.regions[0].blocks[0]
    loc_name = re.compile(r'^loc\("([^"]+)"')
    for inner in block.operations:
        o = inner.operation
        nres = len(o.results)
        if nres == 0:
            continue
        base = f"%{counter}"
        counter += 1
        m = loc_name.match(str(o.location))
        node = by_fx.get(m.group(1)) if m else None
        opname = o.name
        if nres == 1:
            imported.op_names[base] = opname
        else:
            for k in range(nres):
                imported.op_names[f"{base}#{k}"] = opname
        if node is None or node.op != "call_function" or node.target is operator.getitem:
            continue
        if _op_target_name(node) != opname and opname != "torch.operator":
            continue    # a constant or list made for the node's arguments
        if nres == 1:
            imported.nodes_by_name[base] = node
        else:
            imported.multi_result_ops[base] = node
            for u in node.users:
                if u.op == "call_function" and u.target is operator.getitem:
                    imported.nodes_by_name[f"{base}#{u.args[1]}"] = u
    imported.text = importer.module.operation.get_asm(print_generic_op_form=True,
                                                      enable_debug_info=True)
    return imported


def export_joint_torch_mlir(model_or_fn: Callable, example_inputs: Sequence[Any], *,
                            name: Optional[str] = None, loss: Any = "auto", tracing: str = "auto",
                            params: Optional[Sequence[int]] = None,
                            decompose: str = "torch-mlir") -> ImportedGraph:
    """Traces the joint graph as `autoac.pytorch.export_joint` does (torch
    2.x AOT autograd, the decompositions `decompose` names applied: see
    `decompositions`) and imports it with torch-mlir's FX importer."""
    _require()
    from .trace import function_name, trace_joint
    jt = trace_joint(model_or_fn, example_inputs, loss=loss, tracing=tracing, params=params,
                     decompositions=decompositions(decompose))
    if name is None:
        name = function_name(model_or_fn)
    return import_joint_graph(jt.graph_module, jt.num_fwd_outputs, jt.params, name=name)


def check_plan_names(imported: ImportedGraph, report: Dict[str, Any]) -> Dict[str, List[fx.Node]]:
    """The FX nodes of a report's saved and recomputed values ({"saved": [...],
    "recomputed": [...]}); raises AutoacError when a report value names an
    op other than the one the importer made there (the name mapping would be
    out of step)."""
    fn = report["functions"][0]
    out: Dict[str, List[fx.Node]] = {"saved": [], "recomputed": []}
    for key in out:
        for entry in fn.get(key, []):
            value, op = entry["value"], entry.get("op")
            base = value.split("~", 1)[0]
            if base.startswith("%arg"):
                continue
            known = imported.op_names.get(base)
            if known is None or (op and known != op):
                raise AutoacError(f"report value {value} is '{op}' but the imported module has "
                                  f"'{known}' there: name mapping out of step")
            node = imported.node_of(base)
            if node is not None:
                out[key].append(node)
    return out
