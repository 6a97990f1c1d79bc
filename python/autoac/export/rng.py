"""Replayable randomness for the PyTorch partitioner (`rng="replay"`).

A random ATen op in AOT autograd's joint graph (dropout's `bernoulli_` on a
fresh buffer, `native_dropout`, `rand_like`, ...) draws from the global
generator of its device.  Recomputing it in the backward as it is would draw
different numbers (and advance the global stream a second time), so by
default (`rng="keep"`) it is exported under its own name, which autoac
classifies as random and never recomputes.

With `rng="replay"` the partitioner rewrites each such op, before export,
into two FX nodes, the scheme of PyTorch 2's `run_and_save_rng_state` /
`run_with_rng_state` (torch._prims.rng_prims, functionalize_rng_ops), which
PyTorch 1.13 does not have:

    state = rng_state("cpu")                          # the generator state, a uint8 tensor
    out   = rng_run(state, "cpu", "aten::bernoulli_.float", fresh, 0.9)

In the forward `rng_state` reads the state the op is about to use (reading
draws nothing) and `rng_run` runs the op as before, so the forward and the
global stream are exactly those of the original graph.  A backward that
recomputes `out` runs `rng_replay` instead: it sets the captured state, runs
the op (the same bits), and sets the global state back to what it was, so
the stream after the step is what `default_partition` leaves.

In the exported MLIR the state is `"autoac.rng_state"() -> ui8 tensor`: a
random op (never recomputed; saved when a replay needs it, its bytes the
saved state), and the op is `"autoac.replay"(%state, operands...)
{ac.replays = "torch.aten...."}`, which a cost table entry marks recomputable.
An op that is not replayable (an explicit generator argument, an in-place
fill of a buffer that is not a fresh one, a device whose generator state
cannot be read) keeps its ATen name and stays banned.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

import torch
import torch.fx as fx
import torch.utils._pytree as pytree

__all__ = ["STATE_OP", "REPLAY_OP", "RNG_MODES", "rng_state", "rng_run", "rng_replay",
           "make_replayable", "is_state_node", "is_replay_node", "mlir_name"]

STATE_OP = "autoac.rng_state"     #: MLIR name of the state capture (random: never recomputed)
REPLAY_OP = "autoac.replay"       #: MLIR name of a replayable random op
RNG_MODES = ("keep", "replay")

#: In-place ops that fill their whole first operand with random numbers.
_FILLS = {"bernoulli_", "uniform_", "normal_", "exponential_", "geometric_", "cauchy_",
          "log_normal_", "random_"}
#: Functional random ops: their result depends only on their operands and
#: the state of their device's generator.
_FUNCTIONAL = {"bernoulli", "native_dropout", "rand_like", "randn_like", "randint_like", "rand",
               "randn", "randint", "randperm", "normal", "poisson", "multinomial", "binomial",
               "_standard_gamma", "_sample_dirichlet", "_fused_dropout", "normal_functional"}
#: Functional ops that read only the layout of their first operand.
_LIKE = {"rand_like", "randn_like", "randint_like"}
#: Factories whose result a fill overwrites entirely.
_FRESH = {"empty_like", "empty", "empty_strided", "new_empty", "new_empty_strided", "zeros_like",
          "ones_like", "zeros", "ones", "new_zeros", "new_ones", "full", "full_like"}


# --------------------------------------------------------------------------
# runtime: what the forward and backward GraphModules call

def rng_state(device: str) -> torch.Tensor:
    """The state of `device`'s default generator, as a uint8 tensor (CPU:
    mt19937's 5056 bytes; CUDA: seed and Philox offset)."""
    d = torch.device(device)
    if d.type == "cuda":
        return torch.cuda.get_rng_state(d)
    if d.type == "cpu":
        return torch.get_rng_state()
    raise RuntimeError(f"autoac: no readable generator state on device {device}")


def _set_rng_state(device: str, state: torch.Tensor) -> None:
    d = torch.device(device)
    if d.type == "cuda":
        torch.cuda.set_rng_state(state, d)
    else:
        torch.set_rng_state(state)


_OPS: Dict[str, Any] = {}


def _op(name: str):
    op = _OPS.get(name)
    if op is None:
        ns, rest = name.split("::", 1)
        packet, _, overload = rest.partition(".")
        op = getattr(getattr(getattr(torch.ops, ns), packet), overload or "default")
        _OPS[name] = op
    return op


def _qualified_name(op) -> str:
    return f"{op._schema.name}.{op._overloadname}"


def rng_run(_state: torch.Tensor, _device: str, _op_name: str, _fresh: Optional[Tuple],
            *args: Any, **kwargs: Any) -> Any:
    """Runs the random op (the forward): the state is only an ordering
    dependence here.  `_fresh` = (shape, stride, dtype): the op's first
    argument is a new buffer of that layout (the buffer a fill overwrites,
    the tensor a rand_like reads the layout of)."""
    if _fresh is not None:
        shape, stride, dtype = _fresh
        args = (torch.empty_strided(shape, stride, dtype=dtype, device=_device),) + tuple(args)
    return _op(_op_name)(*args, **kwargs)


def rng_replay(_state: torch.Tensor, _device: str, _op_name: str, _fresh: Optional[Tuple],
               *args: Any, **kwargs: Any) -> Any:
    """Reruns the random op (the backward's recompute) with the generator
    state `_state` captured in the forward, then puts the global generator
    back as it was: the same bits, the global stream undisturbed."""
    before = rng_state(_device)
    _set_rng_state(_device, _state)
    try:
        return rng_run(_state, _device, _op_name, _fresh, *args, **kwargs)
    finally:
        _set_rng_state(_device, before)


def is_state_node(node: fx.Node) -> bool:
    return node.op == "call_function" and node.target is rng_state


def is_replay_node(node: fx.Node) -> bool:
    return node.op == "call_function" and node.target in (rng_run, rng_replay)


def mlir_name(node: fx.Node) -> Optional[str]:
    """The MLIR op name the exporter writes for a node of this module."""
    if is_state_node(node):
        return STATE_OP
    if is_replay_node(node):
        return REPLAY_OP
    return None


def replayed_op(node: fx.Node):
    """The ATen op a replay node runs."""
    return _op(node.args[2])


# --------------------------------------------------------------------------
# the graph rewrite

def _devices(graph: fx.Graph, inputs: Sequence[Any]) -> Dict[fx.Node, torch.device]:
    """Device of each node: placeholders from the inputs, a `device`
    argument that is given, else the first tensor operand's, else (a
    factory without one) the CPU."""
    dev: Dict[fx.Node, torch.device] = {}
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    for ph, t in zip(placeholders, inputs):
        if isinstance(t, torch.Tensor):
            dev[ph] = t.device
    for n in graph.nodes:
        if n.op != "call_function":
            continue
        d = n.kwargs.get("device")
        if d is not None:
            try:
                dev[n] = torch.device(d)
            except (TypeError, RuntimeError):
                pass
            continue
        for a in pytree.tree_flatten((n.args, n.kwargs))[0]:
            if isinstance(a, fx.Node) and a in dev:
                dev[n] = dev[a]
                break
        else:
            if not n.all_input_nodes:
                dev[n] = torch.device("cpu")
    return dev


def _argument(node: fx.Node, schema, name: str) -> Tuple[bool, Any]:
    for i, a in enumerate(schema.arguments):
        if a.name == name:
            if i < len(node.args) and not a.kwarg_only:
                return True, node.args[i]
            return True, node.kwargs.get(name, a.default_value if a.has_default_value() else None)
    return False, None


def _state_size(device: torch.device) -> Optional[int]:
    try:
        return int(rng_state(str(device)).numel())
    except Exception:  # noqa: BLE001 - no generator there: not replayable
        return None


def _layout(node: fx.Node) -> Optional[Tuple[Tuple[int, ...], Tuple[int, ...], torch.dtype]]:
    from .fx import node_tensor_info
    info = node_tensor_info(node)
    if info is None or info.stride is None or len(info.stride) != len(info.shape):
        return None
    return tuple(int(s) for s in info.shape), tuple(int(s) for s in info.stride), info.dtype


def make_replayable(graph: fx.Graph, inputs: Sequence[Any]) -> List[fx.Node]:
    """Rewrites every replayable random op of a joint graph into a state
    capture and an `rng_run` (module docstring); returns the new run nodes.
    In-place users must already read the in-place op's result
    (pytorch._redirect_inplace_uses)."""
    devices = _devices(graph, inputs)
    sizes: Dict[torch.device, Optional[int]] = {}
    made: List[fx.Node] = []
    for node in list(graph.nodes):
        t = node.target
        if node.op != "call_function" or not isinstance(t, torch._ops.OpOverload):
            continue
        if t._schema.name.split("::", 1)[0] != "aten":
            continue
        packet = t._overloadpacket.__name__
        fill = packet in _FILLS
        if not fill and packet not in _FUNCTIONAL:
            continue
        has_gen, gen = _argument(node, t._schema, "generator")
        if has_gen and gen is not None:
            continue                      # its own generator: not the global stream
        device = devices.get(node)
        if device is None or device.type not in ("cpu", "cuda"):
            continue
        if device not in sizes:
            sizes[device] = _state_size(device)
        if sizes[device] is None:
            continue
        fresh = None
        args = tuple(node.args)
        if fill:
            buf = args[0] if args else None
            if not (isinstance(buf, fx.Node) and buf.op == "call_function"
                    and isinstance(buf.target, torch._ops.OpOverload)
                    and buf.target._overloadpacket.__name__ in _FRESH
                    and set(buf.users) == {node}):
                continue                  # fills a tensor that holds something: a real write
            fresh = _layout(buf)
            if fresh is None:
                continue
            args = args[1:]
        elif any(a.alias_info is not None and a.alias_info.is_write for a in t._schema.arguments):
            continue
        elif packet in _LIKE and args and isinstance(args[0], fx.Node) and _layout(args[0]) is not None:
            # only the layout of `self` matters: do not make the replay wait for it
            fresh = _layout(args[0])
            args = args[1:]
        dev = str(device)
        with graph.inserting_before(node):
            state = graph.call_function(rng_state, (dev,))
            state.meta["val"] = torch.empty((sizes[device],), dtype=torch.uint8, device="meta")
            run = graph.call_function(rng_run, (state, dev, _qualified_name(t), fresh) + args,
                                      dict(node.kwargs))
        run.meta = dict(node.meta)
        node.replace_all_uses_with(run)
        graph.erase_node(node)
        if fill:
            _erase_dead_factories(graph, buf)
        made.append(run)
    return made


def _erase_dead_factories(graph: fx.Graph, node: fx.Node) -> None:
    """Erases a factory left without users, then its operands that became
    dead factories (empty_like(empty_like(x))): they only gave a layout."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.users or n.op != "call_function" or not isinstance(n.target, torch._ops.OpOverload) \
                or n.target._overloadpacket.__name__ not in _FRESH:
            continue
        inputs = n.all_input_nodes
        graph.erase_node(n)
        stack.extend(inputs)


