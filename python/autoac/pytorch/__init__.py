"""autoac for PyTorch: export AOT autograd's joint graph as MLIR, and plan
activation checkpointing inside `aot_function` / `aot_module`.

    import autoac.pytorch as act
    text = act.export_joint(model, (x,))                 # MLIR for ac-opt
    pf = act.partition_fn(budget="24GB")                 # functorch partitioner
    compiled = functorch.compile.aot_module(model, fw_compiler=..., partition_fn=pf)
    pf.last.report["peak_bytes"]

Needs PyTorch 1.13 with functorch (Debian's python3-torch), or torch 2.x.
See docs/python.md.

The door's package: this module (export_joint, the partitioner, the split,
the boxed runtime, aot_module / aot_function); _compile.py (the
torch.compile backend and Inductor's custom partitioner, torch 2.x),
_stacked.py (graph breaks planned together), _onednn.py (oneDNN limited to
AVX2).  The joint graph is traced and written by autoac.export; a step is
measured by autoac.measure.torch_step (`measure_step` below).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, Union

import torch
import torch.fx as fx
import torch.nn as nn
import torch.utils._pytree as pytree

from .. import AutoacError, plan as _plan
from ..export import rng as _rng
from . import _onednn
from ..export.fx import ExportError, ExportedGraph, _aten_mlir_name, export_graph
from ..export.trace import JointTrace, function_name, module_state, trace_joint

# Before any convolution runs: the cpu profiles model oneDNN's AVX2 kernels
# (autoac/pytorch/_onednn.py; AUTOAC_ONEDNN_ISA=native keeps oneDNN's own choice).
_onednn.state()


def onednn_isa() -> _onednn.OneDnnIsa:
    """What the door did about oneDNN's instruction set when it was imported
    (status "pinned", "avx2", "native", "too-late", "requested", "absent"
    or "unknown"; docs/python.md, "CPU kernels")."""
    return _onednn.state()


__all__ = ["ExportError", "ExportedGraph", "export_joint", "export_graph", "trace_joint",
           "partition_fn", "split_joint", "PartitionResult", "aot_function", "aot_module",
           "saved_tensor_bytes", "boxed_runtime", "wrap_compiler", "measure_step", "default_grads",
           "GRAD_MODES", "onednn_isa", "backend", "partitioner", "AutoacPartitioner"]


def export_joint(model_or_fn: Callable, example_inputs: Sequence[Any], *, name: Optional[str] = None,
                 loss: Any = "auto", tracing: str = "auto",
                 params: Optional[Sequence[int]] = None) -> str:
    """Traces `loss(model(*inputs))` (an nn.Module; loss defaults to `.sum()`)
    or `fn(*inputs)` (a plain function) with AOT autograd and returns the
    joint forward+backward graph as MLIR text in autoac's contract form.

    tracing: "fake" (FakeTensor: nothing is computed), "real" (runs on the
    given tensors), or "auto" (fake, then real if fake fails).  For plain
    functions, nn.Parameter arguments and those at the indices in `params`
    are marked {ac.param}.  Raises ExportError (an AutoacError) naming the op
    that cannot be written or why tracing failed."""
    return export_joint_graph(model_or_fn, example_inputs, name=name, loss=loss,
                              tracing=tracing, params=params).text


def export_joint_graph(model_or_fn: Callable, example_inputs: Sequence[Any], *,
                       name: Optional[str] = None, loss: Any = "auto", tracing: str = "auto",
                       params: Optional[Sequence[int]] = None) -> ExportedGraph:
    """Like export_joint, returning the ExportedGraph (text plus the map
    between SSA names and FX nodes)."""
    jt = trace_joint(model_or_fn, example_inputs, loss=loss, tracing=tracing, params=params)
    if name is None:
        name = function_name(model_or_fn)
    return export_graph(jt.graph_module, jt.num_fwd_outputs, jt.params, name=name)


# --------------------------------------------------------------------------
# splitting a joint FX graph by a save set

def _fwd_bwd_outputs(joint: fx.GraphModule) -> Tuple[List[Any], List[Any]]:
    """The joint graph's forward outputs and gradients.  torch 2.x's AOT
    autograd tells the partitioner how many outputs are the forward's
    (`num_fwd_outputs`, kept on the module); torch 1.13's joint module has it
    in its output structure."""
    n_fwd = getattr(joint, "_autoac_num_fwd_outputs", None)
    if n_fwd is None:
        n_fwd = joint._out_spec.children_specs[0].num_leaves
    outs = pytree.tree_flatten([n.args for n in joint.graph.nodes if n.op == "output"])[0]
    return outs[:n_fwd], outs[n_fwd:]


def _inputs_of(node: fx.Node) -> List[fx.Node]:
    return [a for a in pytree.tree_flatten((node.args, node.kwargs))[0] if isinstance(a, fx.Node)]


def _ancestors(roots: Sequence[Any]) -> Set[fx.Node]:
    seen: Set[fx.Node] = set()
    stack = [r for r in roots if isinstance(r, fx.Node)]
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(_inputs_of(n))
    return seen


def _redirect_inplace_uses(graph: fx.Graph) -> None:
    """After `y = x.op_(...)`, later users of x read y: the value semantics
    the MLIR export gives the graph, made explicit in FX."""
    from ..export.fx import _inplace_return_alias
    order = {n: i for i, n in enumerate(graph.nodes)}
    for node in list(graph.nodes):
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        alias = _inplace_return_alias(node.target._schema)
        if alias is None or len(node.target._schema.returns) != 1:
            continue
        ai = alias[0]
        src = node.args[ai] if ai < len(node.args) else None
        if not isinstance(src, fx.Node):
            continue
        for user in list(src.users):
            if user is not node and order[user] > order[node]:
                user.replace_input_with(src, node)


# convolution_backward makes grad_output and input contiguous in the
# layout it computes in (torch 1.13, ATen's convolution_backward:
# `.contiguous(backend_memory_format)`, channels-last when the input or the
# weight is, else the default): a copy the size of the operand inside the
# op when it is laid out otherwise (measured: a channels-last 4x64x4x4
# grad_output of an NCHW patch-embedding convolution adds its 16384 bytes).
_CONV_BACKWARD_COPIED = (0, 1)


def _aten_base(node: fx.Node) -> Optional[str]:
    """The base name of the ATen op a call node runs ("convolution_backward"),
    or None for any other node."""
    if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
        return None
    return node.target._schema.name.split("::")[-1]


def _meta_of(node: Any) -> Optional[torch.Tensor]:
    from ..export.fx import node_tensor_info
    info = node_tensor_info(node) if isinstance(node, fx.Node) else None
    if info is None or info.stride is None or len(info.stride) != len(info.shape):
        return None
    return torch.empty_strided(info.shape, info.stride, dtype=info.dtype, device="meta")


def _channels_last(t: Optional[torch.Tensor]) -> bool:
    return t is not None and t.dim() == 4 and not t.is_contiguous() and \
        t.is_contiguous(memory_format=torch.channels_last)


def _make_operands_contiguous(graph: fx.Graph) -> int:
    """Before a convolution_backward, the copies it would make of
    grad_output and input (_CONV_BACKWARD_COPIED) as explicit clones in the
    graph, so that the plan counts their bytes where the kernel holds them
    (the kernel then finds them laid out as it computes).  Returns the
    number of clones inserted."""
    added = 0
    for node in list(graph.nodes):
        if _aten_base(node) != "convolution_backward":
            continue
        fmt = torch.channels_last if (_channels_last(_meta_of(node.args[1])) or
                                      _channels_last(_meta_of(node.args[2]))) \
            else torch.contiguous_format
        for i in _CONV_BACKWARD_COPIED:
            x = node.args[i]
            meta = _meta_of(x)
            if meta is None or meta.is_contiguous(memory_format=fmt):
                continue
            with graph.inserting_before(node):
                c = graph.call_function(torch.ops.aten.clone.default, (x,), {"memory_format": fmt})
            made = meta.contiguous(memory_format=fmt)
            c.meta = dict(x.meta)
            if isinstance(x.meta.get("val"), torch.Tensor):
                c.meta["val"] = x.meta["val"].contiguous(memory_format=fmt)
            tm = x.meta.get("tensor_meta")
            if tm is not None and hasattr(tm, "_replace"):
                c.meta["tensor_meta"] = tm._replace(
                    stride=made.stride(),
                    **({"memory_format": fmt} if "memory_format" in getattr(tm, "_fields", ()) else {}))
            args = list(node.args)
            args[i] = c
            node.args = tuple(args)
            added += 1
    return added


def _small_output_weight_grads(graph: fx.Graph) -> int:
    """How many non-transposed weight gradients (convolution_backward) have
    at most 8 output channels: on two or more threads oneDNN books
    per-thread reduction space for them that the cpu profiles do not model
    (docs/cost-model.md, "Workspaces": 3-35 KB each)."""
    n = 0
    for node in graph.nodes:
        if _aten_base(node) != "convolution_backward" or len(node.args) < 8 or node.args[7] is True:
            continue
        w = _meta_of(node.args[2])
        if w is not None and w.dim() >= 3 and w.shape[0] <= 8:
            n += 1
    return n


_BATCH_NORMS = ("native_batch_norm", "cudnn_batch_norm", "miopen_batch_norm",
                "_native_batch_norm_legit")


def _without_state_updates(node: fx.Node) -> None:
    """A recomputed training-mode batch norm must not update the running
    statistics a second time (PyTorch 1.13's native_batch_norm mutates them
    without saying so in its schema): its copy gets None for running_mean
    and running_var, which changes none of its results."""
    t = node.target
    if isinstance(t, torch._ops.OpOverload) and \
            t._overloadpacket.__name__ == "_native_batch_norm_legit_functional":
        _legit_without_stats(node)
        return
    if not isinstance(t, torch._ops.OpOverload) or t._overloadpacket.__name__ not in _BATCH_NORMS:
        return
    names = [a.name for a in t._schema.arguments]
    if "running_mean" not in names or "training" not in names:
        return
    args = list(node.args)
    ti = names.index("training")
    training = args[ti] if ti < len(args) else node.kwargs.get("training")
    if training is not True:
        return
    for key in ("running_mean", "running_var"):
        i = names.index(key)
        if i < len(args):
            args[i] = None
        elif key in node.kwargs:
            node.kwargs = dict(node.kwargs, **{key: None})
    node.args = tuple(args)


def _writes_primal(node: fx.Node) -> bool:
    """An op writing into a placeholder (an input mutation AOT autograd
    keeps in the graph)."""
    t = node.target
    if node.op != "call_function" or not isinstance(t, torch._ops.OpOverload):
        return False
    for i, a in enumerate(t._schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            v = node.args[i] if i < len(node.args) else node.kwargs.get(a.name)
            if isinstance(v, fx.Node) and v.op == "placeholder":
                return True
    return False


def _recompute_inputs(node: fx.Node) -> List[fx.Node]:
    """What a backward copy of forward node `node` reads: its inputs, less
    the running statistics of a torch 2.x functional training batch norm
    (its copy runs without them: _legit_without_stats)."""
    t = node.target
    if isinstance(t, torch._ops.OpOverload) and \
            t._overloadpacket.__name__ == "_native_batch_norm_legit_functional" and \
            len(node.args) >= 6 and node.args[5] is True:
        stats = {node.args[3], node.args[4]}
        return [a for a in _inputs_of(node) if a not in stats]
    return _inputs_of(node)


def _legit_without_stats(node: fx.Node) -> None:
    """torch 2.x's functional training batch norm
    (`_native_batch_norm_legit_functional(x, w, b, running_mean, running_var,
    training, momentum, eps)`, whose results 3 and 4 are the updated
    statistics the forward copies into the buffers) recomputed as
    `_native_batch_norm_legit.no_stats(x, w, b, training, momentum, eps)`:
    results 0-2 the same, and the backward reads no running statistic (a
    buffer the forward's epilogue has written since: saving it would fail
    autograd's version check)."""
    names = [a.name for a in node.target._schema.arguments]
    args = dict(zip(names, node.args))
    args.update(node.kwargs)
    if args.get("training") is not True:
        return
    node.target = torch.ops.aten._native_batch_norm_legit.no_stats
    node.args = (args["input"], args["weight"], args["bias"], True, args["momentum"], args["eps"])
    node.kwargs = {}
    val = node.meta.get("val")
    if isinstance(val, (list, tuple)) and len(val) >= 3:
        node.meta["val"] = tuple(val[:3])


@dataclass
class SplitInfo:
    saved: List[fx.Node]          #: what the forward returns after its outputs, in order
    recomputed: List[fx.Node]     #: forward nodes the backward recomputes
    primals_saved: List[fx.Node]  #: primal inputs among `saved`


def split_joint(joint: fx.GraphModule, saved_values: Sequence[fx.Node],
                simulated: Optional[Dict[fx.Node, int]] = None,
                offloaded: Sequence[fx.Node] = (), device: Any = None
                ) -> Tuple[fx.GraphModule, fx.GraphModule, SplitInfo]:
    """Splits a joint graph into forward and backward GraphModules, saving
    `saved_values` (forward nodes) for the backward.  The forward takes the
    primals and returns its outputs then the saved values (plus the primals
    the backward reads); the backward takes those then the tangents and
    returns the gradients, recomputing every forward node it needs that is
    not saved, each copy placed right before its first use.  `simulated`
    (node -> rank, from `simulated_order`) puts the backward's own nodes in the
    order autoac simulated (it moves ops that do not depend on a tangent to
    their first use); without it they keep the joint graph's order.
    `offloaded` (saved forward nodes): the forward returns a copy of each in
    host memory (`aten._to_copy` to the CPU, pinned when `device` is a CUDA
    device, non-blocking) made right after it, and the backward copies it
    back to `device` right before its first use (docs/rewrite.md, "Offload")."""
    sp = _Split(joint, saved_values, offloaded, device)
    fwd_graph = sp.forward_graph()
    bwd_graph = _BackwardBuilder(sp).build(simulated)
    fwd_graph.lint()
    bwd_graph.lint()
    return (fx.GraphModule(joint, fwd_graph), fx.GraphModule(joint, bwd_graph),
            SplitInfo(saved=sp.saved_out, recomputed=sp.recomputed,
                      primals_saved=sp.primals_saved))


class _Split:
    """split_joint's analysis of the joint graph: which nodes are forward
    values, which the backward needs (recomputing the unsaved forward ones),
    what the forward returns for it; and the forward graph."""

    def __init__(self, joint: fx.GraphModule, saved_values: Sequence[fx.Node],
                 offloaded: Sequence[fx.Node], device: Any):
        self.graph = graph = joint.graph
        self.fwd_outs, self.bwd_outs = _fwd_bwd_outputs(joint)
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        self.tangents = [n for n in placeholders if "tangents" in str(n.target)]
        self.order = {n: i for i, n in enumerate(graph.nodes)}
        self.tangent_set = set(self.tangents)
        self._forward_values()
        self.saved: List[fx.Node] = []
        for s in saved_values:
            if s not in self.forward_nodes:
                raise AutoacError(f"cannot save %{s.name}: it is not a forward value")
            if s not in self.saved:
                self.saved.append(s)
        self.saved_set = set(self.saved)
        self._backward_needs()
        self.offload_set = set(offloaded)
        for s in self.offload_set:
            if s not in self.saved_set:
                raise AutoacError(f"cannot offload %{s.name}: it is not saved")
        self.dev = torch.device(device) if device is not None else torch.device("cpu")
        self.host: Dict[fx.Node, fx.Node] = {}

    def _forward_values(self) -> None:
        self.depends_on_tangent: Set[fx.Node] = set()
        for n in self.graph.nodes:
            if n in self.tangent_set or any(a in self.depends_on_tangent for a in _inputs_of(n)):
                self.depends_on_tangent.add(n)
        self.forward_nodes = {n for n in _ancestors(self.fwd_outs)
                              if n not in self.depends_on_tangent}
        # Every result of a forward multi-result op is a forward value (the
        # planner's phases are per op), used by the forward outputs or not.
        for n in list(self.forward_nodes):
            for u in n.users:
                if _is_free(u) and u not in self.depends_on_tangent:
                    self.forward_nodes.add(u)

    def _backward_needs(self) -> None:
        """Walks the backward from the gradients, stopping at saved values
        and tangents."""
        self.needed: Set[fx.Node] = set()
        primals_needed: Set[fx.Node] = set()
        self.used_saved: Set[fx.Node] = set()
        stack = [o for o in self.bwd_outs if isinstance(o, fx.Node)]
        while stack:
            n = stack.pop()
            if n in self.saved_set:
                self.used_saved.add(n)
                continue
            if n in self.tangent_set:
                continue
            if n.op == "placeholder":
                primals_needed.add(n)
                continue
            if n in self.needed:
                continue
            self.needed.add(n)
            stack.extend(_recompute_inputs(n) if n in self.forward_nodes else _inputs_of(n))
        self.recomputed = sorted((n for n in self.needed if n in self.forward_nodes),
                                 key=self.order.get)
        self.primals_saved = sorted(primals_needed, key=self.order.get)
        self.saved_out = [s for s in self.saved if s in self.used_saved] + self.primals_saved

    def forward_graph(self) -> fx.Graph:
        """Everything the outputs and the saved values need, and the writes
        into primal inputs torch 2.x keeps in the graph (a batch norm's
        running statistics copied into its buffers: `copy_(primals_4,
        new)`), which nothing reads and the forward must still do; each
        offloaded save copied to the host right after it."""
        effects = [n for n in self.graph.nodes if _writes_primal(n) and not n.users
                   and n not in self.depends_on_tangent]
        fwd_needed = _ancestors(list(self.fwd_outs) + self.saved_out + effects)
        fwd_graph = fx.Graph()
        env: Dict[fx.Node, fx.Node] = {}
        for n in self.graph.nodes:
            if n.op == "placeholder":
                if n in self.tangent_set:
                    continue
                env[n] = fwd_graph.placeholder(n.name)
                env[n].meta = dict(n.meta)
            elif n.op == "output":
                continue
            elif n in fwd_needed:
                if n in self.depends_on_tangent:
                    raise AutoacError(f"cannot split: forward value %{n.name} depends on a tangent")
                env[n] = fwd_graph.node_copy(n, lambda x: env[x])
                if n in self.offload_set and n in self.used_saved:
                    self.host[n] = fwd_graph.call_function(
                        torch.ops.aten._to_copy.default, (env[n],),
                        {"device": torch.device("cpu"), "pin_memory": self.dev.type == "cuda",
                         "non_blocking": True})
                    self.host[n].meta = dict(n.meta, autoac_offload=True)
        fwd_graph.output([env[o] if isinstance(o, fx.Node) else o for o in self.fwd_outs] +
                         [self.host.get(s, env[s]) for s in self.saved_out])
        return fwd_graph


class _BackwardBuilder:
    """split_joint's backward: saved values and tangents in; backward nodes
    in the simulated order (else joint order), each recomputed forward node
    emitted just before its first user.  Built after the forward graph (it
    reads which saves went to the host)."""

    def __init__(self, sp: _Split):
        self.sp = sp
        self.g = fx.Graph()
        self.benv: Dict[fx.Node, fx.Node] = {}
        self.on_host: Dict[fx.Node, fx.Node] = {}
        for s in sp.saved_out:
            ph = self.g.placeholder(s.name)
            ph.meta = dict(s.meta)
            if s in sp.host:
                self.on_host[s] = ph
            else:
                self.benv[s] = ph
        for t in sp.tangents:
            self.benv[t] = self.g.placeholder(t.name)
            self.benv[t].meta = dict(t.meta)
        self.recompute_set = set(sp.recomputed)

    def arg(self, x: fx.Node) -> fx.Node:
        # An offloaded save is copied back right before its first use.
        if x not in self.benv and x in self.on_host:
            self.benv[x] = self.g.call_function(
                torch.ops.aten._to_copy.default, (self.on_host[x],),
                {"device": self.sp.dev, "non_blocking": True})
            self.benv[x].meta = dict(x.meta, autoac_prefetch=True)
        return self.benv[x]

    def copy_node(self, cur: fx.Node) -> None:
        # a copy's dropped inputs (running statistics) become None here and
        # leave its arguments in _without_state_updates
        rec = cur in self.recompute_set
        skip = set(_inputs_of(cur)) - set(_recompute_inputs(cur)) if rec else set()
        self.benv[cur] = self.g.node_copy(cur, lambda x: None if x in skip else self.arg(x))
        if rec:
            self.benv[cur].meta = dict(cur.meta, autoac_recomputed=True)
            _without_state_updates(self.benv[cur])
            if _rng.is_replay_node(cur):
                # rerun with the state captured in the forward
                self.benv[cur].target = _rng.rng_replay

    def _missing(self, n: fx.Node) -> Set[fx.Node]:
        """Everything n needs that the backward has not made yet."""
        todo: Set[fx.Node] = set()
        stack = [n]
        while stack:
            cur = stack.pop()
            if cur in self.benv or cur in todo:
                continue
            todo.add(cur)
            ins = _recompute_inputs(cur) if cur in self.recompute_set else _inputs_of(cur)
            for a in ins:
                if a not in self.benv and a not in self.on_host:
                    if a not in self.sp.needed:
                        raise AutoacError(f"cannot split: %{cur.name} needs %{a.name}, "
                                          "which the backward does not have")
                    stack.append(a)
        return todo

    def emit(self, n: fx.Node) -> fx.Node:
        if n in self.benv or n in self.on_host:
            return self.arg(n)
        # What n needs is made in joint order (the simulator runs a recompute
        # group in op order, right before its anchor; a depth-first order
        # would make one operand's chain before another's and change what is
        # live).
        for cur in sorted(self._missing(n), key=self.sp.order.get):
            if cur in self.benv:
                continue
            if cur in self.recompute_set and _rng.is_state_node(cur):
                # a capture rerun in the backward would read the wrong state
                raise AutoacError(f"cannot split: the backward would recompute the generator "
                                  f"state %{cur.name}, which must be saved")
            self.copy_node(cur)
            # Each result the backward reads is taken out of a multi-result
            # op right away: the tuple dies with its last getitem, so a
            # result nobody reads is freed at once and none waits in the
            # tuple for a late getitem.
            for u in cur.users:
                if _is_free(u) and u in self.sp.needed and u not in self.benv:
                    self.copy_node(u)
        return self.benv[n]

    def build(self, simulated: Optional[Dict[fx.Node, int]]) -> fx.Graph:
        # Alias ops (detach, t, view, ...) cost nothing; emitting them lazily
        # too keeps recomputation from being pulled to the start of the
        # backward by the detach chains autograd leaves there (a view keeps
        # its base's storage alive either way).  getitems are emitted with
        # their producer.
        sp = self.sp
        own = [n for n in sp.graph.nodes
               if n in sp.needed and n not in self.recompute_set and not _is_alias_op(n)]
        for n in _in_simulated_order(own, simulated):
            self.emit(n)
        self.g.output([self.emit(o) if isinstance(o, fx.Node) else o for o in sp.bwd_outs])
        return self.g


def _in_simulated_order(nodes: List[fx.Node], order: Optional[Dict[fx.Node, int]]) -> List[fx.Node]:
    """`nodes` (in joint order) sorted by `order`; a node without a rank keeps
    its place after the ranked node before it in joint order."""
    if not order:
        return nodes
    keyed, last = [], -1
    for i, n in enumerate(nodes):
        last = order.get(n, last)
        keyed.append((last, n not in order, i, n))
    return [k[-1] for k in sorted(keyed, key=lambda k: k[:3])]


def simulated_order(report: Dict[str, Any], function: str, exported: "ExportedGraph"
                    ) -> Dict[fx.Node, int]:
    """FX node -> rank of its op in the backward of `function` as autoac's
    simulator ran it (the report's timeline: its `bwd` and `recompute` steps),
    so the split runs the backward in the order whose peak was planned."""
    order: Dict[fx.Node, int] = {}
    for step in report.get("timeline", []):
        if step.get("function") != function or step.get("phase") not in ("bwd", "recompute"):
            continue
        value = step.get("value")
        node = exported.node_of(value.split("#")[0]) if value else None
        if node is None and value:
            node = exported.node_of(value)
            node = node.args[0] if node is not None and _is_free(node) else node
        if node is not None and node not in order:
            order[node] = len(order)
    return order


# --------------------------------------------------------------------------
# the partitioner

def _split_by_tags(joint: fx.GraphModule, joint_inputs, saved: Sequence[fx.Node],
                   recomputed: Set[fx.Node], kwargs: Dict[str, Any]):
    """The plan applied the way torch applies its own (apply="tags"): each
    forward node the plan saves tagged MUST_SAVE, each it recomputes
    MUST_RECOMPUTE, and torch's min-cut partitioner splits the graph (so
    Inductor sees torch's own recompute form).  Returns (fw, bw, SplitInfo)
    of what torch decided."""
    from torch._functorch.partitioners import min_cut_rematerialization_partition
    from torch.utils.checkpoint import CheckpointPolicy
    fwd_outs, _ = _fwd_bwd_outputs(joint)
    forward = _ancestors(fwd_outs)
    keep = set(saved)
    for n in joint.graph.nodes:
        if n.op != "call_function" or n not in forward:
            continue
        if n in keep:
            n.meta["recompute"] = CheckpointPolicy.MUST_SAVE
        elif n in recomputed:
            n.meta["recompute"] = CheckpointPolicy.MUST_RECOMPUTE
        else:
            n.meta.pop("recompute", None)
    num_fwd = kwargs.get("num_fwd_outputs")
    if num_fwd is None:
        num_fwd = len(fwd_outs)
    extra = {}
    if kwargs.get("static_lifetime_input_indices") is not None:
        extra["static_lifetime_input_indices"] = kwargs["static_lifetime_input_indices"]
    fw, bw = min_cut_rematerialization_partition(joint, joint_inputs, compiler="inductor",
                                                 num_fwd_outputs=num_fwd, **extra)
    by_name = {n.name: n for n in joint.graph.nodes}
    out = next(n for n in fw.graph.nodes if n.op == "output")
    flat = pytree.tree_flatten(out.args)[0]
    saved_now = [by_name[x.name] for x in flat[num_fwd:] if isinstance(x, fx.Node) and x.name in by_name]
    rec = [by_name[n.name] for n in bw.graph.nodes
           if n.op == "call_function" and n.name in by_name and by_name[n.name] in forward]
    return fw, bw, SplitInfo(saved=saved_now, recomputed=rec,
                             primals_saved=[n for n in saved_now if n.op == "placeholder"])


@dataclass
class PartitionResult:
    """What one partitioning call decided."""
    report: Dict[str, Any]            #: autoac's JSON report (contract section 4)
    warnings: str                     #: autoac's diagnostics (e.g. unreachable budget)
    mlir: str                         #: the exported joint graph
    exported: ExportedGraph
    saved: List[str]                  #: FX node names the forward saves (activations, then primals)
    saved_values: List[str]           #: the same as the report's SSA names
    recomputed: List[str]             #: FX node names the backward recomputes
    planned_recomputed: List[str]     #: FX node names the plan lists as recomputed
    unplanned_recomputed: List[str]   #: recomputed by the split but not in the plan (should be empty)
    offloaded: List[str] = field(default_factory=list)  #: FX node names kept in host memory
    fw_module: Optional[fx.GraphModule] = None
    bw_module: Optional[fx.GraphModule] = None
    options: Dict[str, Any] = field(default_factory=dict)  #: the library options it was planned with
    joint: bool = False               #: planned with the step's other graphs (_stacked.JointPlan)
    function: str = ""                #: the report's function this graph is
    #: keys of the forward's and backward's programs once Inductor compiled
    #: them (_inductor_memory.program; "" on torch 1.13)
    inductor_keys: Tuple[str, str] = ("", "")

    @property
    def saved_bytes(self) -> int:
        """The plan's saved_bytes."""
        return int(self.report["saved_bytes"])

    def inductor_programs(self):
        """(forward, backward) _inductor_memory.Program as Inductor compiled
        this graph's halves, or None until it compiled both (the backward
        compiles at the first backward) or when it compiled from a cache."""
        from . import _inductor_memory as im
        fw, bw = (im.program(k) if k else None for k in self.inductor_keys)
        return (fw, bw) if fw is not None and bw is not None else None


class _AutoacPartition:
    """The callable partition_fn returns; `.results` holds one PartitionResult
    per graph partitioned, `.last` the latest."""

    def __init__(self, budget, num_params, strict_plan, rng, options):
        self.budget = budget
        self.num_params = num_params
        self.strict_plan = strict_plan
        self.rng = rng
        self.options = options
        self.results: List[PartitionResult] = []
        #: "split" (autoac splits the graph) or "tags" (MUST_SAVE /
        #: MUST_RECOMPUTE tags and torch's min-cut partitioner)
        self.apply = "split"
        #: the step's graphs planned together (_stacked.JointPlan), or None
        self.joint = None

    @property
    def last(self) -> Optional[PartitionResult]:
        return self.results[-1] if self.results else None

    def _params_mask(self, joint: fx.GraphModule, joint_inputs,
                     static: Optional[Sequence[int]] = None) -> List[bool]:
        primals = [n for n in joint.graph.nodes if n.op == "placeholder" and "tangents" not in str(n.target)]
        if self.num_params is not None:
            return [i < self.num_params for i in range(len(primals))]
        # torch 2.x names the inputs that live through the step (the
        # parameters and buffers dynamo lifted into graph inputs)
        chosen = set(int(i) for i in (static or ()))
        if getattr(self, "param_indices", None) is not None:
            return [i in self.param_indices for i in range(len(primals))]
        hint = getattr(self, "param_hint", None)
        if hint is not None and len(hint) == len(primals):
            chosen |= {i for i, p in enumerate(hint) if p}
        try:
            flat = list(joint_inputs[0])
        except Exception:  # noqa: BLE001
            flat = []
        flat += [None] * (len(primals) - len(flat))
        return [i in chosen or isinstance(a, nn.Parameter) for i, a in enumerate(flat)][:len(primals)]

    def __call__(self, joint_module: fx.GraphModule, joint_inputs,
                 **kwargs: Any) -> Tuple[fx.GraphModule, fx.GraphModule]:
        # torch 2.x passes num_fwd_outputs (and, from Inductor,
        # compiler= and static_lifetime_input_indices=).
        if kwargs.get("num_fwd_outputs") is not None:
            joint_module._autoac_num_fwd_outputs = kwargs["num_fwd_outputs"]
        _redirect_inplace_uses(joint_module.graph)
        _make_operands_contiguous(joint_module.graph)
        if self.rng == "replay":
            _rng.make_replayable(joint_module.graph, pytree.tree_flatten(joint_inputs)[0])
        joint_module.recompile()
        fwd_outs, _ = _fwd_bwd_outputs(joint_module)
        # The report names values as the exported text prints them (autoac
        # keeps the input's names even where it moves ops), so the exporter's
        # own name -> node mapping reads the plan.
        mask = self._params_mask(joint_module, joint_inputs, kwargs.get("static_lifetime_input_indices"))
        exported = export_graph(joint_module, len(fwd_outs), mask,
                                name=f"joint{len(self.results)}")
        options = dict(self.options)
        options["mode"] = "annotate"
        if options.get("device") in (None, ""):
            options["device"] = device_profile(pytree.tree_flatten(joint_inputs)[0])
        # Offload only when asked (offload="auto"): the forward then copies
        # the plan's offloaded saves to host memory and the backward copies
        # them back before their first use (split_joint).
        if options.get("offload") in (None, ""):
            options["offload"] = "off"
        tensors = [t for t in pytree.tree_flatten(joint_inputs)[0] if isinstance(t, torch.Tensor)]
        device = tensors[0].device if tensors else torch.device("cpu")
        # "autoac.replay" is a replayable random op to the library's cost
        # model (docs/cost-model.md, RNG_REPLAY): recomputable as it is.
        hit = self.joint.lookup(exported.text) if self.joint is not None else None
        if hit is not None:
            fn, report = hit[1], hit[2]
            notes = [self.joint.warnings]
        else:
            result = _plan(exported.text, source_name=f"<{exported.name}>", budget=self.budget,
                           **options)
            report, fn = result.report, result.report["functions"][0]
            notes = [result.warnings]
            if self.joint is not None:
                notes.append(f"warning: autoac: graph @{exported.name} is not one of the captured "
                             "step's graphs: planned alone, as if nothing else lived through it")
        if str(options["device"]).startswith("cpu"):
            small = _small_output_weight_grads(joint_module.graph) if torch.get_num_threads() > 1 else 0
            if small:
                notes.append(
                    f"warning: autoac: {small} convolution weight gradient(s) with at most 8 output "
                    f"channels on {torch.get_num_threads()} threads: oneDNN's per-thread reduction "
                    "space for them is not modelled, so the step's peak may exceed the plan's by "
                    "up to about 35 KB each (one thread: modelled)")
            isa = _onednn.state()
            if isa.warning:
                notes.append(isa.warning)
                if not _onednn.WARNED:
                    _onednn.WARNED = True
                    warnings.warn(isa.warning, RuntimeWarning, stacklevel=2)
        warnings_text = "\n".join(w for w in notes if w)

        def lookup(entry) -> Optional[fx.Node]:
            value = entry["value"]
            if entry.get("op", "").startswith(("torch.constant.", "torch.prim.")):
                return None
            node = exported.node_of(value)
            if node is None:
                raise AutoacError(f"the plan names {value} ({entry.get('op')}), which is no FX value "
                                  "of the joint graph")
            op_node = node.args[0] if _is_free(node) else node
            if op_node.op == "get_attr" and entry.get("op") == "torch.vtensor.literal":
                return node           # a graph constant (get_attr): the exporter's literal
            if entry.get("op") and _mlir_op_name(op_node) != entry["op"]:
                raise AutoacError(f"report value {value} is '{entry['op']}' but FX node "
                                  f"%{op_node.name} is '{_mlir_op_name(op_node)}': name mapping out of step")
            return node

        saved_nodes = [n for n in (lookup(e) for e in fn.get("saved", [])) if n is not None]
        planned: Set[fx.Node] = set()
        for entry in fn.get("recomputed", []):
            node = lookup(entry)
            if node is not None:
                planned.add(node)
                if _is_free(node):
                    planned.add(node.args[0])
                else:
                    planned.update(u for u in node.users if _is_free(u))
        offloaded = [n for n in (lookup(e) for e in fn.get("offloaded", [])) if n is not None]
        if self.apply == "tags":
            if offloaded:
                raise AutoacError("apply='tags' cannot offload (torch's partitioner has no host "
                                  "copies): use apply='split' or offload='off'")
            fw, bw, info = _split_by_tags(joint_module, joint_inputs, saved_nodes, planned, kwargs)
        else:
            fw, bw, info = split_joint(joint_module, saved_nodes,
                                       simulated=simulated_order(report, fn["name"], exported),
                                       offloaded=offloaded, device=device)
        unplanned = [n.name for n in info.recomputed if n not in planned and not _is_free(n)]
        if unplanned and self.strict_plan and self.apply == "split":
            raise AutoacError("the split recomputes forward nodes the plan neither saves nor "
                              f"recomputes: {', '.join(unplanned)}")
        value_of = dict(exported.value_names)
        keys = _watch_inductor(fw, bw)
        self.results.append(PartitionResult(
            report=report, warnings=warnings_text, mlir=exported.text, exported=exported,
            saved=[n.name for n in info.saved],
            saved_values=[value_of.get(n, "?") for n in info.saved],
            recomputed=[n.name for n in info.recomputed],
            offloaded=[n.name for n in offloaded],
            planned_recomputed=sorted(n.name for n in planned),
            unplanned_recomputed=unplanned, fw_module=fw, bw_module=bw, options=options,
            joint=hit is not None, function=fn["name"], inductor_keys=keys))
        return fw, bw


def _watch_inductor(fw: fx.GraphModule, bw: fx.GraphModule) -> Tuple[str, str]:
    """Asks _inductor_memory to read the programs Inductor compiles the two
    halves into (torch 2.x; nothing on torch 1.13, which has no Inductor)."""
    try:
        from . import _inductor_memory as im
        return im.watch(fw), im.watch(bw)
    except (ImportError, AttributeError):
        return ("", "")


def device_profile(tensors: Sequence[Any]) -> str:
    """The device profile the door plans a graph for when no `device` is
    given: on the CPU, PyTorch's CPU kernels on torch.get_num_threads()
    threads (autoac.cpu_profile: their workspaces, docs/cost-model.md); on a
    GPU, the library's default profile."""
    from .. import cpu_profile
    on_gpu = any(isinstance(t, torch.Tensor) and t.device.type != "cpu" for t in tensors)
    return "h100" if on_gpu else cpu_profile(torch.get_num_threads())


def _is_alias_op(node: fx.Node) -> bool:
    """A view/alias op: its result aliases an input and nothing is written."""
    import operator
    if node.op != "call_function":
        return False
    if node.target is operator.getitem:
        return True
    if not isinstance(node.target, torch._ops.OpOverload):
        return False
    schema = node.target._schema
    if any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments):
        return False
    return bool(schema.returns) and all(r.alias_info is not None for r in schema.returns)




def _mlir_op_name(node: fx.Node) -> str:
    rng_name = _rng.mlir_name(node)
    if rng_name is not None:
        return rng_name
    t = node.target
    if not isinstance(t, torch._ops.OpOverload):
        return str(t)
    return _aten_mlir_name(t)


def _is_free(node: fx.Node) -> bool:
    """getitem of a multi-result op: no op of its own in the MLIR."""
    import operator
    return node.op == "call_function" and node.target is operator.getitem


#: How gradients reach .grad (the contract's `grads` option): "accumulate"
#: (zero_grad(set_to_none=False): the backward's gradients are added into
#: the .grad tensors that already exist), "assign" (set_to_none=True: .grad
#: is None before the backward and takes the new gradient), "buffers" (the
#: backward writes into gradient buffers that exist for the whole step: the
#: compiled MLIR program's runtime, ac-opt's default).
GRAD_MODES = ("accumulate", "assign", "buffers")


def default_grads() -> str:
    """PyTorch's own default for this version: Optimizer.zero_grad and
    Module.zero_grad set gradients to None from torch 2.0 on ("assign"),
    zero them in place before ("accumulate")."""
    major = int(torch.__version__.split(".")[0])
    return "assign" if major >= 2 else "accumulate"


def default_tangents() -> str:
    """How long the backward's tangents live in this torch's AOT autograd
    runtime: torch 2.x's CompiledFunction.backward hands them over in the
    list it steals, so they die at their last use ("last-use"); torch
    1.13's autograd engine holds them through the backward ("held")."""
    major = int(torch.__version__.split(".")[0])
    return "last-use" if major >= 2 else "held"


def partition_fn(budget: Union[str, int, None] = None, *, num_params: Optional[int] = None,
                 params: Optional[Sequence[int]] = None,
                 strict_plan: bool = True, rng: str = "keep", **options: Any) -> _AutoacPartition:
    """A partitioner for functorch's aot_function / aot_module that plans with
    autoac: the joint graph is exported to MLIR, planned under `budget`
    (any contract option as a keyword: strategy="greedy", device="a100",
    optimizer="adam", reserve=..., strict=...), and split so that the forward
    saves exactly the plan's saved values and the backward recomputes the
    rest.  `num_params`: how many leading primals are parameters/buffers;
    `params`: the indices of the primals that are (default: those that are
    nn.Parameter on torch 1.13; on torch 2.x the partitioner sees fake
    tensors, so it takes the inputs AOT autograd calls static, and those
    act.aot_function saw to be nn.Parameter).  With strict_plan (default) a
    split that would recompute something the plan did not list is an error.
    `rng`: "keep" (default) never recomputes a random op, its result (the
    dropout mask) is saved when the backward needs it; "replay" lets the
    backward recompute the random ops whose randomness can be replayed
    (dropout, bernoulli, rand_like, ... drawing from the global generator):
    the forward captures the generator state each uses, the plan may save
    that state instead of the result, and the backward reruns the op with
    the state restored and the global generator put back afterwards, so
    results, gradients and the random stream are bit-equal to
    default_partition's.  `apply`: "split" (default: autoac splits the
    graph, the backward in the order whose peak was simulated) or "tags"
    (the plan as MUST_SAVE / MUST_RECOMPUTE tags on the joint graph, split
    by torch's min-cut partitioner, as torch applies SAC; docs/fidelity.md,
    "Tags or our split").  Each call's PartitionResult is in `.results` /
    `.last`."""
    if "mode" in options:
        options.pop("mode")
    options.setdefault("grads", default_grads())
    options.setdefault("tangents", default_tangents())
    if options["grads"] in (None, ""):
        options["grads"] = default_grads()
    if options["grads"] not in GRAD_MODES:
        raise AutoacError(f"invalid grads '{options['grads']}' (accepted: {', '.join(GRAD_MODES)})")
    if rng not in _rng.RNG_MODES:
        raise AutoacError(f"invalid rng '{rng}' (accepted: {', '.join(_rng.RNG_MODES)})")
    apply = options.pop("apply", "split") or "split"
    if apply not in ("split", "tags"):
        raise AutoacError(f"invalid apply '{apply}' (accepted: split, tags)")
    part = _AutoacPartition(budget, num_params, strict_plan, rng, options)
    part.apply = apply
    part.param_indices = tuple(int(i) for i in params) if params is not None else None
    return part


class _BoxedCodeGen(fx.graph.CodeGen):
    """FX code that takes its inputs as one list, binds each to a local and
    clears the list: FX's own `x = None` after a value's last use then frees
    each input there (an input nothing reads is never bound).  The backward's
    caller (functorch's CompiledFunction.backward) hands over the list of
    saved tensors and tangents with steal_args=True, so what the backward
    was given lives exactly as the simulator counts it."""

    def __init__(self, unused: Set[str]):
        super().__init__()
        self.unused = unused

    def gen_fn_def(self, free_vars: List[str], maybe_return_annotation: str) -> str:
        names = [v.split(":")[0].split("=")[0].strip() for v in free_vars]
        names = [n for n in names if n != "self"]
        lines = [f"def forward(self, args_list){maybe_return_annotation}:"]
        lines += [f"    {n} = args_list[{i}]" for i, n in enumerate(names) if n not in self.unused]
        lines.append("    args_list.clear()")
        return "\n".join(lines)


def boxed_runtime(gm: fx.GraphModule) -> Callable:
    """The door's runtime for a forward or backward GraphModule: a boxed
    callable (functorch's `_boxed_call` convention: one list argument) that
    runs a copy of `gm`'s graph eagerly, freeing every input and every
    intermediate right after its last use.  `gm` itself is left as it is."""
    graph = fx.Graph()
    out = graph.graph_copy(gm.graph, {})
    graph.output(out)
    unused = {n.name for n in graph.nodes if n.op == "placeholder" and not n.users}
    graph.set_codegen(_BoxedCodeGen(unused))
    runner = fx.GraphModule(gm, graph)

    def run(args):
        return runner.forward(args)
    run._boxed_call = True
    run.graph_module = runner
    return run


def _boxed_identity(gm: fx.GraphModule, _inputs):
    return boxed_runtime(gm)


def _runs_gm_as_is(f: Any, gm: fx.GraphModule) -> bool:
    """Whether compiled function `f` just runs `gm` eagerly: `gm` itself, its
    forward, or functorch's make_boxed_func of either (functorch's `nop`)."""
    def same(x):
        return x is gm or (getattr(x, "__self__", None) is gm and
                           getattr(x, "__func__", None) is getattr(type(gm), "forward", None))
    if same(f):
        return True
    cells = getattr(f, "__closure__", None) or ()
    return getattr(f, "_boxed_call", False) and len(cells) == 1 and \
        getattr(f, "__code__", None) is not None and f.__code__.co_name == "g" and \
        same(cells[0].cell_contents)


def wrap_compiler(compiler: Optional[Callable]) -> Callable:
    """A forward/backward compiler for AOT autograd that gives the door's
    runtime (boxed_runtime) where the user's compiler would run the graph
    eagerly as it is (returns the GraphModule, its forward, or functorch's
    make_boxed_func/nop of them): same results, inputs freed at last use.
    Any other compiled function is returned untouched; how it holds its
    inputs is its own (docs/python.md, "The door's runtime")."""
    if compiler is None:
        return _boxed_identity

    def compile_graph(gm: fx.GraphModule, example_inputs):
        f = compiler(gm, example_inputs)
        return boxed_runtime(gm) if _runs_gm_as_is(f, gm) else f
    compile_graph.user_compiler = compiler
    return compile_graph


def aot_function(fn: Callable, budget: Union[str, int, None] = None, *, num_params: Optional[int] = None,
                 fw_compiler: Optional[Callable] = None, bw_compiler: Optional[Callable] = None,
                 **options: Any):
    """functorch.compile.aot_function with autoac's partitioner (and eager
    GraphModules as compilers unless given).  The partitioner is the returned
    function's `.partition` attribute."""
    from functorch.compile import aot_function as _aot_function
    pf = partition_fn(budget, num_params=num_params, **options)
    compiled = _aot_function(fn, fw_compiler=wrap_compiler(fw_compiler),
                             bw_compiler=wrap_compiler(bw_compiler or fw_compiler),
                             partition_fn=pf)

    def call(*args, **kwargs):
        # torch 2.x hands the partitioner fake tensors, which are no
        # nn.Parameter: which primals are parameters is read here
        seen, mask = set(), []
        for a in pytree.tree_flatten((args, kwargs))[0]:
            if isinstance(a, torch.Tensor) and id(a) not in seen:
                seen.add(id(a))
                mask.append(isinstance(a, nn.Parameter))
        pf.param_hint = mask
        return compiled(*args, **kwargs)
    call.partition = pf
    call.compiled = compiled
    return call


def aot_module(module: nn.Module, budget: Union[str, int, None] = None, *,
               fw_compiler: Optional[Callable] = None, bw_compiler: Optional[Callable] = None,
               **options: Any) -> nn.Module:
    """functorch.compile.aot_module with autoac's partitioner; parameters and
    buffers are marked {ac.param}.  The partitioner is `.partition`."""
    from functorch.compile import aot_module as _aot_module
    # AOT autograd passes a tensor shared by several names (tied weights) once
    n = len({id(t) for _, t in module_state(module)})
    pf = partition_fn(budget, num_params=n, **options)
    compiled = _aot_module(module, fw_compiler=wrap_compiler(fw_compiler),
                           bw_compiler=wrap_compiler(bw_compiler or fw_compiler),
                           partition_fn=pf)
    compiled.partition = pf
    return compiled


def saved_tensor_bytes(saved: Sequence[Any], exclude: Sequence[torch.Tensor] = ()) -> int:
    """Bytes of the tensors a forward saves, each storage counted once (a view
    and its base together cost the base), storages of `exclude` (parameters,
    inputs) not counted."""
    def key(t: torch.Tensor):
        s = t.storage() if hasattr(t, "storage") else None
        return (s.data_ptr(), t.device) if s is not None else id(t)
    skip = {key(t) for t in exclude if isinstance(t, torch.Tensor)}
    seen: Dict[Any, int] = {}
    for t in saved:
        if not isinstance(t, torch.Tensor):
            continue
        k = key(t)
        if k in skip:
            continue
        nbytes = t.storage().nbytes() if hasattr(t.storage(), "nbytes") else t.numel() * t.element_size()
        seen[k] = max(seen.get(k, 0), nbytes)
    return sum(seen.values())


def measure_step(*args, **kwargs):
    """See autoac.measure.torch_step.measure_step."""
    from ..measure.torch_step import measure_step as _measure_step
    return _measure_step(*args, **kwargs)


def backend(*args, **kwargs):
    """A torch.compile backend planning with autoac; see autoac.pytorch._compile.backend."""
    from ._compile import backend as _backend
    return _backend(*args, **kwargs)


def partitioner(*args, **kwargs):
    """autoac as Inductor's custom_partitioner_fn; see autoac.pytorch._compile.partitioner."""
    from ._compile import partitioner as _partitioner
    return _partitioner(*args, **kwargs)


def __getattr__(name):
    if name == "AutoacPartitioner":
        from ._compile import AutoacPartitioner
        return AutoacPartitioner
    raise AttributeError(name)


def measure_compiled_step(*args, **kwargs):
    """See autoac.measure.torch_step.measure_compiled_step."""
    from ..measure.torch_step import measure_compiled_step as _m
    return _m(*args, **kwargs)
