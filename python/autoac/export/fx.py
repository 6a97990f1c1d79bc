"""Writes an AOT-autograd joint FX graph as torch-mlir generic-form MLIR.

The output follows docs/contract.md and the corpus (examples/corpus): one
`func.func` carrying `ac.joint`; arguments are the primals (parameters and
buffers marked `{ac.param}`, data inputs unmarked) then the tangents
(`{ac.tangent}`); results are the forward outputs (`{ac.output}`) then the
gradients (`{ac.grad}`, gradients that are None are left out).  Every ATen
call becomes `"torch.aten.<name>[.<overload>]"(...)` with all schema
arguments (defaults filled in); scalars, lists, None, dtypes, devices become
`torch.constant.*` / `torch.prim.ListConstruct` ops placed right before
their user; multi-result ops (tuples and tensor lists) become one op with
several results, a result that is None typed `!torch.none`.  Ops that write
an operand in place (bernoulli_, add_, ...) carry `{ac.save}`: running them
again in a recompute would repeat the write.  The partitioner's
rng="replay" nodes (autoac/export/rng.py) are written as "autoac.rng_state" (the
captured generator state) and "autoac.replay" (the random op, its ATen name
in `ac.replays`).

SSA names are written exactly as MLIR's AsmState prints them: `%argN` for
arguments and `%K` (`%K#i` for the i-th result of a multi-result op) for op
results, K counting the ops that have results in order of definition.  So the
names in autoac's report ("value": "%12") are the names in the exported text,
and `ExportedGraph.node_of` maps them back to FX nodes.
"""
from __future__ import annotations

import math
import operator
import struct
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import torch
import torch.fx as fx
import torch.utils._pytree as pytree

from .. import AutoacError
from . import rng as _rng


class ExportError(AutoacError):
    """The graph (or model) cannot be written as autoac MLIR; the message names
    the op and FX node at fault."""


# --------------------------------------------------------------------------
# types

DTYPES = {
    torch.float64: "f64", torch.float32: "f32", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.int64: "si64", torch.int32: "si32",
    torch.int16: "si16", torch.int8: "si8", torch.uint8: "ui8", torch.bool: "i1",
}

# c10::ScalarType codes, the integers torch-mlir uses for dtype arguments.
SCALAR_TYPE_CODES = {
    torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
    torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.complex32: 8,
    torch.complex64: 9, torch.complex128: 10, torch.bool: 11, torch.qint8: 12,
    torch.quint8: 13, torch.qint32: 14, torch.bfloat16: 15,
}
LAYOUT_CODES = {torch.strided: 0, torch.sparse_coo: 1}
MEMORY_FORMAT_CODES = {torch.contiguous_format: 0, torch.preserve_format: 1,
                       torch.channels_last: 2, torch.channels_last_3d: 3}


@dataclass(frozen=True)
class TensorInfo:
    shape: Tuple[int, ...]
    dtype: torch.dtype
    stride: Optional[Tuple[int, ...]] = None


def _node_label(node: fx.Node) -> str:
    if node.op == "call_function":
        return _target_label(node.target)
    return f"{node.op} {node.target}"


def _target_label(target: Any) -> str:
    if isinstance(target, torch._ops.OpOverload):
        return str(target)                       # aten.addmm.default
    return getattr(target, "__qualname__", None) and (
        f"{getattr(target, '__module__', '') or ''}.{target.__qualname__}".lstrip(".")) or repr(target)


def _fail(node: fx.Node, why: str) -> ExportError:
    return ExportError(f"cannot export '{_node_label(node)}' (node %{node.name}): {why}")


def vtensor_type(info: TensorInfo, node: fx.Node) -> str:
    dt = DTYPES.get(info.dtype)
    if dt is None:
        raise _fail(node, f"unknown dtype {str(info.dtype).replace('torch.', '')} "
                          f"(accepted: {', '.join(str(d).replace('torch.', '') for d in DTYPES)})")
    dims = []
    for d in info.shape:
        if not isinstance(d, int):
            raise _fail(node, f"symbolic dimension {d} (autoac needs static shapes)")
        dims.append(str(d))
    return f"!torch.vtensor<[{','.join(dims)}],{dt}>"


def _info_of_meta(meta: Any) -> Optional[TensorInfo]:
    if meta is None:
        return None
    if isinstance(meta, torch.Tensor):
        return TensorInfo(tuple(int(s) for s in meta.shape), meta.dtype, tuple(meta.stride()))
    shape = getattr(meta, "shape", None)
    dtype = getattr(meta, "dtype", None)
    if shape is None or dtype is None:
        return None
    stride = getattr(meta, "stride", None)
    return TensorInfo(tuple(shape), dtype, tuple(stride) if stride is not None else None)


def node_tensor_info(node: fx.Node) -> Optional[TensorInfo]:
    """Shape/dtype recorded on an FX node by the tracer (tensor_meta or val)."""
    info = _info_of_meta(node.meta.get("tensor_meta"))
    if info is None and isinstance(node.meta.get("val"), torch.Tensor):
        info = _info_of_meta(node.meta["val"])
    return info


# --------------------------------------------------------------------------
# result metadata for ops whose outputs the tracer did not describe

def _example_tensor(info: TensorInfo, device: str) -> torch.Tensor:
    if info.stride is not None and len(info.stride) == len(info.shape):
        t = torch.empty_strided(info.shape, info.stride, dtype=info.dtype, device=device)
    else:
        t = torch.empty(info.shape, dtype=info.dtype, device=device)
    if device != "meta":
        t.zero_()
    return t


def _run_for_metadata(node: fx.Node) -> Any:
    """Runs the node's op on meta tensors (else CPU zeros) built from its
    inputs' metadata, for the shapes of results the tracer left undescribed."""
    errors = []
    for device in ("meta", "cpu"):
        def conv(a):
            if isinstance(a, fx.Node):
                info = node_tensor_info(a)
                if info is None:
                    raise _fail(node, f"input %{a.name} has no tensor metadata")
                return _example_tensor(info, device)
            return a
        try:
            args = pytree.tree_map(conv, node.args)
            kwargs = pytree.tree_map(conv, node.kwargs)
            with torch.no_grad():
                return node.target(*args, **kwargs)
        except ExportError:
            raise
        except Exception as e:  # noqa: BLE001 - any kernel failure means "try the next device"
            first = str(e).strip().splitlines()[0] if str(e).strip() else ""
            first = first.split(". ")[0]
            errors.append(f"{device}: {type(e).__name__}: {first[:160]}")
    raise _fail(node, "no tensor metadata, and running it on meta or CPU tensors failed ("
                + "; ".join(errors) + ")")


# --------------------------------------------------------------------------
# the exported graph

def _real_tensors():
    """A context in which real tensors are read as themselves: torch 2.x
    calls the partitioner under AOT autograd's FakeTensorMode, where reading
    a graph constant (a real tensor: swin_t's relative position index)
    raises."""
    try:
        from torch._subclasses.fake_tensor import unset_fake_temporarily
        return unset_fake_temporarily()
    except ImportError:                      # torch 1.13: no fake mode around it
        import contextlib
        return contextlib.nullcontext()


@dataclass
class ExportedGraph:
    """The MLIR text of one joint graph and the map between its SSA names and
    the FX nodes."""
    text: str
    name: str
    graph: fx.Graph
    num_fwd_outputs: int
    primals: List[fx.Node]
    tangents: List[fx.Node]
    params: List[bool]
    #: printed SSA name ("%arg3", "%12", "%7#1") of every tensor-valued FX node
    value_names: Dict[fx.Node, str] = field(default_factory=dict)
    #: the reverse: SSA name -> FX node (constants have no FX node)
    nodes_by_name: Dict[str, fx.Node] = field(default_factory=dict)
    #: SSA result base name ("%7") -> the FX call node of a multi-result op
    multi_result_ops: Dict[str, fx.Node] = field(default_factory=dict)

    def node_of(self, value: str) -> Optional[fx.Node]:
        """FX node for a report value name ("%12", "%7#1", "%arg0"); None for
        a constant or list the exporter itself created."""
        if value in self.nodes_by_name:
            return self.nodes_by_name[value]
        if "#" not in value and value in self.multi_result_ops:
            return self.multi_result_ops[value]
        return None

    def names_in(self, planned_ir: str, tag_attr: str = "fx_node") -> Dict[str, fx.Node]:
        """SSA name -> FX node in a module autoac printed (annotate mode) from
        a text exported with `tag_attr`: the names the report uses, whatever
        order the planner left the ops in.  "%K#i" maps to the getitem node
        of result i, "%K" to the node itself."""
        import re
        by_fx = {n.name: n for n in self.graph.nodes}
        pat = re.compile(r'^\s*(%[0-9]+)(?::(\d+))? = "[^"]+"\(.*?\{[^{}]*\b' + re.escape(tag_attr)
                         + r' = "([^"]+)"')
        out: Dict[str, fx.Node] = {}
        for line in planned_ir.splitlines():
            m = pat.match(line)
            if not m or m.group(3) not in by_fx:
                continue
            node = by_fx[m.group(3)]
            if m.group(2):
                out[m.group(1)] = node        # the op itself, for "%K"
                for u in node.users:
                    if u.op == "call_function" and u.target is operator.getitem:
                        out[f"{m.group(1)}#{u.args[1]}"] = u
            else:
                items = [u for u in node.users
                         if u.op == "call_function" and u.target is operator.getitem]
                out[m.group(1)] = items[0] if len(items) == 1 and items[0].args[1] == 0 else node
        return out

    def op_node_of(self, value: str) -> Optional[fx.Node]:
        """The FX call node whose op defines `value` (the multi-result op for
        "%7#1", not its getitem)."""
        base = value.split("#", 1)[0]
        if base in self.multi_result_ops:
            return self.multi_result_ops[base]
        return self.nodes_by_name.get(value)


def _float_attr(v: float) -> str:
    if math.isfinite(v):
        return f"{v:.17e} : f64"
    return "0x%016X : f64" % struct.unpack("<Q", struct.pack("<d", v))[0]


def _mlir_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\' or not (32 <= ord(ch) < 127):
            out.extend("\\%02X" % b for b in ch.encode("utf-8"))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _aten_mlir_name(target) -> str:
    """torch-mlir's name of an ATen overload: torch.aten.add.Tensor."""
    ns = target._schema.name.split("::", 1)[0]
    name = f"torch.{ns}.{target._overloadpacket.__name__}"
    return name if target._overloadname == "default" else f"{name}.{target._overloadname}"


#: Ops that write an operand their schema does not mark as written (PyTorch
#: 1.13): rrelu_with_noise fills `noise` with the slopes it draws.
_HIDDEN_WRITES = {"rrelu_with_noise": "noise"}


def _hidden_writes(graph: fx.Graph) -> set:
    """Nodes whose tensor an op of _HIDDEN_WRITES writes: they carry
    {ac.save}, as the value the backward reads is the one written (a
    recomputed rrelu noise buffer would be an empty one)."""
    out = set()
    for n in graph.nodes:
        t = n.target
        if n.op != "call_function" or not isinstance(t, torch._ops.OpOverload):
            continue
        arg = _HIDDEN_WRITES.get(t._overloadpacket.__name__)
        if arg is None:
            continue
        names = [a.name for a in t._schema.arguments]
        i = names.index(arg)
        v = n.args[i] if i < len(n.args) else n.kwargs.get(arg)
        if isinstance(v, fx.Node):
            out.add(v)
    return out


def _is_tangent(node: fx.Node) -> bool:
    return node.op == "placeholder" and "tangents" in str(node.target)


def _inplace_return_alias(schema) -> Optional[Tuple[int, int]]:
    """(argument index, return index) of an op that writes an argument and
    returns it (add_, bernoulli_, ...)."""
    for i, a in enumerate(schema.arguments):
        ai = a.alias_info
        if ai is not None and ai.is_write:
            for j, r in enumerate(schema.returns):
                ri = r.alias_info
                if ri is not None and set(ri.before_set) == set(ai.before_set):
                    return i, j
    return None


def _schema_elem_type(type_str: str) -> Optional[str]:
    t = type_str.replace(" ", "")
    while t.startswith("Optional[") and t.endswith("]"):
        t = t[len("Optional["):-1]
    if t.startswith("List[") and t.endswith("]"):
        inner = t[len("List["):-1]
        return {"int": "int", "SymInt": "int", "float": "float", "bool": "bool",
                "Tensor": "vtensor", "Optional[Tensor]": "optional<vtensor>"}.get(inner, "any")
    return None


class _Writer:
    def __init__(self, graph: fx.Graph, num_fwd_outputs: int, params: Sequence[bool], name: str,
                 root: Any = None, tag_attr: Optional[str] = None):
        self.graph = graph
        self.tag_attr = tag_attr
        self.root = root
        self.num_fwd_outputs = num_fwd_outputs
        self.params_in = params
        self.name = name
        self.lines: List[str] = []
        self.counter = 0
        self.env: Dict[fx.Node, Any] = {}        # node -> (name, type) or list of them
        self.alias: Dict[fx.Node, fx.Node] = {}  # mutated input -> in-place op
        self.indent = "    "
        self.hidden_written = _hidden_writes(graph)

    # -- values ------------------------------------------------------------
    def fresh(self) -> str:
        n = f"%{self.counter}"
        self.counter += 1
        return n

    def const(self, op: str, attr: Optional[str], type_: str) -> Tuple[str, str]:
        name = self.fresh()
        attr_text = f" {{value = {attr}}}" if attr is not None else ""
        self.lines.append(f'{self.indent}{name} = "{op}"(){attr_text} : () -> {type_}')
        return name, type_

    def value(self, node: fx.Node, user: fx.Node) -> Tuple[str, str]:
        while node in self.alias:
            node = self.alias[node]
        v = self.env.get(node)
        if v is None:
            raise _fail(user, f"operand %{node.name} has no value (it was not exported)")
        if isinstance(v, list):
            raise _fail(user, f"operand %{node.name} is a tuple of results, not one value")
        return v

    def operand(self, v: Any, user: fx.Node, schema_type: Optional[str] = None) -> Tuple[str, str]:
        if isinstance(v, fx.Node):
            return self.value(v, user)
        if v is None:
            return self.const("torch.constant.none", None, "!torch.none")
        if isinstance(v, bool):
            return self.const("torch.constant.bool", "true" if v else "false", "!torch.bool")
        if isinstance(v, int):
            return self.const("torch.constant.int", f"{v} : i64", "!torch.int")
        if isinstance(v, float):
            return self.const("torch.constant.float", _float_attr(v), "!torch.float")
        if isinstance(v, str):
            return self.const("torch.constant.str", _mlir_string(v), "!torch.str")
        if isinstance(v, torch.dtype):
            if v not in SCALAR_TYPE_CODES:
                raise _fail(user, f"unknown dtype argument {v}")
            return self.const("torch.constant.int", f"{SCALAR_TYPE_CODES[v]} : i64", "!torch.int")
        if isinstance(v, torch.layout):
            return self.const("torch.constant.int", f"{LAYOUT_CODES.get(v, 0)} : i64", "!torch.int")
        if isinstance(v, torch.memory_format):
            return self.const("torch.constant.int", f"{MEMORY_FORMAT_CODES.get(v, 1)} : i64", "!torch.int")
        if isinstance(v, torch.device):
            return self.const("torch.constant.device", _mlir_string(str(v)), "!torch.Device")
        if isinstance(v, (list, tuple)):
            elems = [self.operand(e, user) for e in v]
            elem = _schema_elem_type(schema_type) if schema_type else None
            kinds = {t for _, t in elems}
            if elem in (None, "any"):
                if not elems:
                    elem = "int"
                elif kinds <= {"!torch.int"}:
                    elem = "int"
                elif kinds <= {"!torch.float"}:
                    elem = "float"
                elif kinds <= {"!torch.bool"}:
                    elem = "bool"
                elif all(k.startswith("!torch.vtensor") for k in kinds):
                    elem = "vtensor"
                elif all(k.startswith("!torch.vtensor") or k == "!torch.none" for k in kinds):
                    elem = "optional<vtensor>"
                else:
                    elem = "any"
            name = self.fresh()
            self.lines.append(
                f'{self.indent}{name} = "torch.prim.ListConstruct"({", ".join(n for n, _ in elems)})'
                f' : ({", ".join(t for _, t in elems)}) -> !torch.list<{elem}>')
            return name, f"!torch.list<{elem}>"
        if isinstance(v, torch.Tensor):
            raise _fail(user, "a tensor constant is inlined in the call (lift it to an input)")
        raise _fail(user, f"cannot write an argument of type {type(v).__name__} ({v!r})")

    def result_type(self, value_info: Any, node: fx.Node) -> str:
        if value_info is None:
            return "!torch.none"
        if isinstance(value_info, TensorInfo):
            return vtensor_type(value_info, node)
        if isinstance(value_info, bool):
            return "!torch.bool"
        if isinstance(value_info, int):
            return "!torch.int"
        if isinstance(value_info, float):
            return "!torch.float"
        raise _fail(node, f"result of type {type(value_info).__name__} has no MLIR type")

    # -- nodes -------------------------------------------------------------
    def result_infos(self, node: fx.Node, schema) -> Tuple[bool, List[Any]]:
        """(is_multi, infos): infos[i] is TensorInfo / None / python scalar."""
        returns = schema.returns
        getitems: Dict[int, fx.Node] = {}
        for u in node.users:
            if u.op == "call_function" and u.target is operator.getitem:
                getitems[u.args[1]] = u
        list_return = len(returns) == 1 and str(returns[0].type).replace(" ", "") in (
            "List[Tensor]", "List[Optional[Tensor]]")
        if len(returns) == 0:
            return False, []
        if len(returns) == 1 and not list_return:
            info = node_tensor_info(node)
            if info is None:
                if str(returns[0].type) != "Tensor":
                    val = _run_for_metadata(node)
                    if isinstance(val, torch.Tensor):
                        return False, [_info_of_meta(val)]
                    return False, [val]
                val = _run_for_metadata(node)
                if not isinstance(val, torch.Tensor):
                    raise _fail(node, "no tensor metadata")
                info = _info_of_meta(val)
            return False, [info]
        # tuple or list results
        mask = None
        for i, a in enumerate(schema.arguments):
            if a.name == "output_mask":
                mask = node.args[i] if i < len(node.args) else node.kwargs.get("output_mask")
        if list_return:
            count = None
            val = None
            if isinstance(node.meta.get("val"), (list, tuple)):
                count = len(node.meta["val"])
            infos_known = {i: node_tensor_info(g) for i, g in getitems.items()}
            if count is None or any(v is None for v in infos_known.values()):
                val = _run_for_metadata(node)
                count = len(val)
            infos = []
            for i in range(count):
                info = infos_known.get(i)
                if info is None:
                    if val is None:
                        val = _run_for_metadata(node)
                    info = _info_of_meta(val[i])
                infos.append(info)
            return True, infos
        infos: List[Any] = []
        val = None
        for i in range(len(returns)):
            if mask is not None and i < len(mask) and not mask[i]:
                infos.append(None)
                continue
            g = getitems.get(i)
            info = node_tensor_info(g) if g is not None else None
            if info is None:
                if val is None:
                    val = _run_for_metadata(node)
                item = val[i]
                info = _info_of_meta(item) if isinstance(item, torch.Tensor) else item
            infos.append(info)
        return True, infos

    def call(self, node: fx.Node) -> None:
        target = node.target
        if target is operator.getitem:
            parent, idx = node.args
            pv = self.env.get(parent) if isinstance(parent, fx.Node) else None
            if not isinstance(pv, list) or not isinstance(idx, int) or not -len(pv) <= idx < len(pv):
                raise _fail(node, "getitem of something that is not a multi-result op")
            if pv[idx][1] == "!torch.none":
                raise _fail(node, f"result {idx} of %{parent.name} is None")
            self.env[node] = pv[idx]
            return
        if _rng.is_state_node(node):
            self.rng_state(node)
            return
        if _rng.is_replay_node(node):
            self.replay(node)
            return
        if not isinstance(target, torch._ops.OpOverload):
            raise _fail(node, "not an ATen operator (only torch.ops.* calls can be exported)")
        schema = target._schema
        op_name = _aten_mlir_name(target)

        is_multi, infos = self.result_infos(node, schema)
        result_types = [self.result_type(i, node) for i in infos]
        operands = self.schema_operands(node, schema.arguments, node.args, node.kwargs)
        # An op that writes one of its operands (bernoulli_, add_, ...) must
        # run exactly once: recomputing it would repeat the write.
        attr_list = ["ac.save"] if any(a.alias_info is not None and a.alias_info.is_write
                                       for a in schema.arguments) or node in self.hidden_written else []
        self.emit(node, op_name, operands, attr_list, is_multi, result_types)

        alias = _inplace_return_alias(schema)
        if alias is not None and not is_multi:
            ai, _ = alias
            src = node.args[ai] if ai < len(node.args) else node.kwargs.get(schema.arguments[ai].name)
            if isinstance(src, fx.Node):
                self.alias[src] = node

    def schema_operands(self, node: fx.Node, arguments, args: Sequence[Any],
                        kwargs: Dict[str, Any]) -> List[Tuple[str, str]]:
        """Every schema argument as an operand (defaults filled in)."""
        operands: List[Tuple[str, str]] = []
        nargs = len(args)
        for i, a in enumerate(arguments):
            if i < nargs and not a.kwarg_only:
                v = args[i]
            elif a.name in kwargs:
                v = kwargs[a.name]
            elif a.has_default_value():
                v = a.default_value
            elif str(a.type).startswith("Optional["):
                v = None
            else:
                raise _fail(node, f"argument '{a.name}' is missing")
            operands.append(self.operand(v, node, str(a.type)))
        return operands

    def rng_state(self, node: fx.Node) -> None:
        """rng="replay": the generator state a replayable random op uses, a
        random op of its own, and {ac.save} whatever autoac makes of the
        name: never recomputed, it reads the live stream."""
        info = node_tensor_info(node)
        if info is None:
            raise _fail(node, "generator state without tensor metadata")
        self.emit(node, _rng.STATE_OP, [], ["ac.save"], False, [vtensor_type(info, node)])

    def replay(self, node: fx.Node) -> None:
        """rng="replay": a random op rerun from its captured generator state,
        "autoac.replay"(%state, the op's operands) {ac.replays = "torch.aten...."};
        a fill of a fresh buffer and a rand_like have no operand for it
        (they read only its layout, which is the result type)."""
        state, _device, _name, fresh = node.args[:4]
        target = _rng.replayed_op(node)
        schema = target._schema
        is_multi, infos = self.result_infos(node, schema)
        result_types = [self.result_type(i, node) for i in infos]
        arguments = schema.arguments[1:] if fresh is not None else schema.arguments
        operands = [self.value(state, node)] + self.schema_operands(node, arguments, node.args[4:],
                                                                    node.kwargs)
        self.emit(node, _rng.REPLAY_OP, operands,
                  [f"ac.replays = {_mlir_string(_aten_mlir_name(target))}"], is_multi, result_types)

    def emit(self, node: fx.Node, op_name: str, operands: List[Tuple[str, str]], attr_list: List[str],
             is_multi: bool, result_types: List[str]) -> None:
        names = ", ".join(n for n, _ in operands)
        types = ", ".join(t for _, t in operands)
        attr_list = list(attr_list)
        if self.tag_attr:
            attr_list.append(f'{self.tag_attr} = "{node.name}"')
        attrs = " {" + ", ".join(attr_list) + "}" if attr_list else ""
        if not result_types:
            self.lines.append(f'{self.indent}"{op_name}"({names}){attrs} : ({types}) -> ()')
            self.env[node] = []
            return
        base = self.fresh()
        if is_multi:
            lhs = f"{base}:{len(result_types)}" if len(result_types) > 1 else base
            rt = "(" + ", ".join(result_types) + ")"
            vals = [(f"{base}#{i}" if len(result_types) > 1 else base, t)
                    for i, t in enumerate(result_types)]
            self.env[node] = vals
        else:
            lhs, rt = base, result_types[0]
            self.env[node] = (base, result_types[0])
        self.lines.append(f'{self.indent}{lhs} = "{op_name}"({names}){attrs} : ({types}) -> {rt}')

    def literal(self, node: fx.Node) -> None:
        """A tensor constant of the graph module (get_attr) as
        torch.vtensor.literal with its exact contents."""
        with _real_tensors():
            self._literal(node)

    def _literal(self, node: fx.Node) -> None:
        obj: Any = self.root
        for part in str(node.target).split("."):
            obj = getattr(obj, part, None)
        if not isinstance(obj, torch.Tensor):
            raise _fail(node, "graph constant is not a tensor")
        t = obj.detach().to("cpu").contiguous()
        info = TensorInfo(tuple(t.shape), t.dtype)
        vt = vtensor_type(info, node)
        dt = DTYPES[t.dtype]
        builtin = f"tensor<{'x'.join(str(d) for d in t.shape)}{'x' if t.dim() else ''}{dt}>"
        if t.dtype == torch.bool or t.numel() <= 16:
            if t.dtype == torch.bool:
                vals = ["true" if v else "false" for v in t.flatten().tolist()]
            elif t.is_floating_point():
                vals = [_float_attr(float(v)).split(" :")[0] for v in t.flatten().tolist()]
            else:
                vals = [str(int(v)) for v in t.flatten().tolist()]
            if t.dim() == 0:
                body = vals[0]
            else:
                body = _nest(vals, list(t.shape))
        else:
            raw = t.view(torch.uint8) if t.dtype != torch.bfloat16 else t.view(torch.int16).view(torch.uint8)
            body = '"0x' + bytes(raw.flatten().tolist()).hex().upper() + '"'
        name = self.fresh()
        tag = f', {self.tag_attr} = "{node.name}"' if self.tag_attr else ""
        self.lines.append(f'{self.indent}{name} = "torch.vtensor.literal"() '
                          f'{{value = dense<{body}> : {builtin}{tag}}} : () -> {vt}')
        self.env[node] = (name, vt)

    def write(self) -> ExportedGraph:
        placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        primals = [n for n in placeholders if not _is_tangent(n)]
        tangents = [n for n in placeholders if _is_tangent(n)]
        if [n for n in placeholders] != primals + tangents:
            raise ExportError("cannot export: tangents must follow the primals among the graph inputs")
        params = list(self.params_in) + [False] * max(0, len(primals) - len(self.params_in))
        arg_text = []
        for i, n in enumerate(primals + tangents):
            info = node_tensor_info(n)
            if info is None:
                raise _fail(n, "no tensor metadata (graph inputs must be tensors with static shapes)")
            t = vtensor_type(info, n)
            self.env[n] = (f"%arg{i}", t)
            attr = " {ac.tangent}" if i >= len(primals) else (" {ac.param}" if params[i] else "")
            arg_text.append(f"%arg{i}: {t}{attr}")

        outputs: List[Any] = []
        for n in self.graph.nodes:
            if n.op in ("placeholder",):
                continue
            if n.op == "call_function":
                self.call(n)
            elif n.op == "output":
                outputs = pytree.tree_flatten(n.args)[0]
            elif n.op == "get_attr":
                self.literal(n)
            else:
                raise _fail(n, f"unsupported FX node kind '{n.op}'")

        if self.num_fwd_outputs > len(outputs):
            raise ExportError(f"cannot export: {self.num_fwd_outputs} forward outputs declared "
                              f"but the graph returns {len(outputs)} values")
        res, res_types, res_attrs = [], [], []
        for i, o in enumerate(outputs):
            if o is None:
                continue
            if not isinstance(o, fx.Node):
                raise ExportError(f"cannot export: graph output #{i} is a Python {type(o).__name__}, not a tensor")
            name, t = self.value(o, o)
            res.append(name)
            res_types.append(t)
            res_attrs.append("{ac.output}" if i < self.num_fwd_outputs else "{ac.grad}")

        sig = ", ".join(f"{t} {a}" for t, a in zip(res_types, res_attrs))
        head = (f"  func.func @{self.name}({', '.join(arg_text)}) -> ({sig}) attributes {{ac.joint}} {{")
        ret = (f"{self.indent}return {', '.join(res)} : {', '.join(res_types)}" if res
               else f"{self.indent}return")
        text = "module {\n" + head + "\n" + "\n".join(self.lines + [ret]) + "\n  }\n}\n"

        exported = ExportedGraph(text=text, name=self.name, graph=self.graph,
                                 num_fwd_outputs=self.num_fwd_outputs, primals=primals,
                                 tangents=tangents, params=params[:len(primals)])
        for node, v in self.env.items():
            if isinstance(v, tuple):
                exported.value_names[node] = v[0]
                exported.nodes_by_name.setdefault(v[0], node)
            elif isinstance(v, list) and v:
                exported.multi_result_ops[v[0][0].split("#", 1)[0]] = node
        # getitem nodes win over nothing; a multi-result op's "%K#i" maps to its getitem
        return exported


def _nest(vals: List[str], shape: List[int]) -> str:
    if not shape:
        return vals[0]
    if len(shape) == 1:
        return "[" + ", ".join(vals) + "]"
    step = len(vals) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(vals[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])) + "]"


def _check_name(name: str) -> str:
    import re
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        raise ExportError(f"invalid function name '{name}' (letters, digits, _ . $)")
    return name


def export_graph(graph: Union[fx.Graph, fx.GraphModule], num_fwd_outputs: int,
                 params: Union[Sequence[bool], int, None] = None,
                 name: str = "joint", tag_attr: Optional[str] = None) -> ExportedGraph:
    """Writes a joint FX graph (as AOT autograd hands a partitioner: primal
    placeholders then `tangents_*` placeholders; output = forward outputs then
    gradients) as MLIR.  `params`: a mask over the primals, or the number of
    leading primals that are parameters/buffers.  Raises ExportError naming
    the op that cannot be written.  `tag_attr`: also put the FX node's name
    on each op as a string attribute of that name (`{fx_node = "addmm_1"}`),
    which survives any reordering a consumer does."""
    g = graph.graph if isinstance(graph, fx.GraphModule) else graph
    root = graph if isinstance(graph, fx.GraphModule) else getattr(g, "owning_module", None)
    nprimals = sum(1 for n in g.nodes if n.op == "placeholder" and not _is_tangent(n))
    if params is None:
        mask: List[bool] = []
    elif isinstance(params, int):
        mask = [i < params for i in range(nprimals)]
    else:
        mask = [bool(p) for p in params]
    return _Writer(g, num_fwd_outputs, mask, _check_name(name), root, tag_attr).write()
