"""Tracing a model or function into AOT autograd's joint graph."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Tuple

import torch
import torch.fx as fx
import torch.nn as nn

from .fx import ExportError


class _Captured(Exception):
    """Raised from the capturing partition_fn to stop AOT autograd once the
    joint graph is in hand (nothing is compiled or run afterwards)."""


@dataclass
class JointTrace:
    graph_module: fx.GraphModule
    num_fwd_outputs: int
    params: List[bool]     # per primal: parameter/buffer?
    tracing: str           # "fake" or "real"


def _num_fwd_outputs(gm: fx.GraphModule) -> int:
    n = getattr(gm, "_autoac_num_fwd_outputs", None)
    if n is not None:
        return n
    spec = getattr(gm, "_out_spec", None)
    if spec is not None and getattr(spec, "children_specs", None):
        return spec.children_specs[0].num_leaves
    raise ExportError("cannot export: the joint graph has no output structure (_out_spec)")


@contextlib.contextmanager
def _fake_tensors(enabled: bool):
    """torch 1.13's functorch traces on real or fake tensors as its config
    says; torch 2.x's AOT autograd always traces on fake tensors (no data,
    no allocation), so there the switch is a no-op."""
    try:
        from functorch._src import config
    except ImportError:
        yield
        return
    old = config.use_fake_tensor
    config.use_fake_tensor = enabled
    try:
        yield
    finally:
        config.use_fake_tensor = old


def _short(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    first = text[0] if text else ""
    if len(first) > 300:
        first = first[:300] + "..."
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


def module_state(model: nn.Module) -> List[Tuple[str, torch.Tensor]]:
    """(name, tensor) of every parameter then every buffer, duplicates kept,
    in the order aot_module passes them."""
    try:      # torch 1.13: functorch's polyfill (no remove_duplicate there)
        from functorch._src.named_members_polyfill import _named_buffers, _named_parameters
        return list(_named_parameters(model, remove_duplicate=False)) + \
            list(_named_buffers(model, remove_duplicate=False))
    except ImportError:
        return list(model.named_parameters(remove_duplicate=False)) + \
            list(model.named_buffers(remove_duplicate=False))


def _loss_of(out: Any, loss: Any) -> Any:
    if loss is None or loss is False or loss == "none":
        return out
    if callable(loss):
        return loss(out)
    if loss == "sum":
        if isinstance(out, torch.Tensor):
            return out.sum()
        if isinstance(out, (list, tuple)):
            tensors = [o for o in out if isinstance(o, torch.Tensor)]
            if not tensors:
                raise ExportError("cannot export: the model returned no tensor to sum into a loss")
            total = tensors[0].sum()
            for t in tensors[1:]:
                total = total + t.sum()
            return total
        if isinstance(out, dict):
            return _loss_of(list(out.values()), "sum")
        raise ExportError(f"cannot export: the model returned a {type(out).__name__}, "
                          "not a tensor (pass loss=callable)")
    raise ExportError(f"unknown loss '{loss}' (accepted: 'sum', 'none', or a callable)")


def function_name(model_or_fn: Callable) -> str:
    """The MLIR function name an exported joint graph gets by default: the
    module's class name or the function's name, every character that is not
    a letter, digit or `_` as `_`, prefixed `f_` when it would not start
    with a letter or `_`."""
    base = type(model_or_fn).__name__ if isinstance(model_or_fn, nn.Module) else \
        getattr(model_or_fn, "__name__", "joint")
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in base) or "joint"
    return name if name[0].isalpha() or name[0] == "_" else "f_" + name


def trace_joint(model_or_fn: Callable, example_inputs: Sequence[Any], *, loss: Any = "auto",
                tracing: str = "auto", params: Optional[Sequence[int]] = None,
                decompositions: Optional[dict] = None) -> JointTrace:
    """Traces the joint forward+backward graph.  For an nn.Module the step is
    `loss(model(*inputs))` (default: `.sum()`), its parameters and buffers
    the leading primals.  For a plain function the step is `fn(*inputs)` as
    is (loss applies only when given); arguments that are nn.Parameter, or
    whose index is in `params`, are parameters.  `decompositions`: a table
    AOT autograd applies while tracing (the torch-mlir import's)."""
    if tracing not in ("auto", "fake", "real"):
        raise ExportError(f"unknown tracing '{tracing}' (accepted: auto, fake, real)")
    from functorch.compile import aot_function
    from torch.nn.utils import stateless

    if not isinstance(example_inputs, (list, tuple)):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)

    if isinstance(model_or_fn, nn.Module):
        model = model_or_fn
        named = module_state(model)
        names = [n for n, _ in named]
        # Buffers are cloned: a real-tensor trace runs the model, and batch
        # norm would otherwise update the caller's running statistics.
        clones = {id(b): b.detach().clone() for b in model.buffers()}
        state = [clones.get(id(t), t) for _, t in named]
        step_loss = "sum" if loss == "auto" else loss

        n_in = len(example_inputs)

        # Data inputs first, then parameters and buffers (the corpus order).
        def step(*args):
            out = stateless.functional_call(model, dict(zip(names, args[n_in:])), tuple(args[:n_in]))
            return _loss_of(out, step_loss)
        flat = list(example_inputs) + state
        param_mask = [False] * n_in + [True] * len(state)
    elif callable(model_or_fn):
        fn = model_or_fn
        step_loss = None if loss == "auto" else loss

        def step(*args):
            return _loss_of(fn(*args), step_loss)
        flat = list(example_inputs)
        chosen = set(params or ())
        param_mask = [isinstance(a, nn.Parameter) or i in chosen for i, a in enumerate(flat)]
    else:
        raise ExportError(f"cannot export a {type(model_or_fn).__name__}: pass an nn.Module or a function")

    for i, a in enumerate(flat):
        if not isinstance(a, torch.Tensor):
            raise ExportError(f"cannot export: input #{i} is a {type(a).__name__}, not a tensor")

    captured = {}

    def capture(joint_module, joint_inputs, **kwargs):
        if kwargs.get("num_fwd_outputs") is not None:      # torch 2.x says it
            joint_module._autoac_num_fwd_outputs = kwargs["num_fwd_outputs"]
        captured["gm"] = joint_module
        raise _Captured()

    def attempt(fake: bool):
        compiled = aot_function(step, fw_compiler=lambda g, _: g, partition_fn=capture,
                                decompositions=decompositions)
        with _fake_tensors(fake), torch.random.fork_rng(devices=[]), torch.enable_grad():
            try:
                compiled(*flat)
            except _Captured:
                return captured["gm"]
        raise ExportError("cannot trace: AOT autograd finished without handing over a joint graph "
                          "(does the step produce a tensor that requires grad?)")

    modes = {"auto": [True, False], "fake": [True], "real": [False]}[tracing]
    errors = []
    for fake in modes:
        captured.clear()
        try:
            gm = attempt(fake)
        except ExportError as e:
            errors.append(str(e))
            continue
        except Exception as e:  # noqa: BLE001 - report the tracer's failure briefly
            errors.append(f"{'fake' if fake else 'real'} tensors: {_short(e)}")
            continue
        # Drop leading/trailing primals AOT deduplicated? aot_function keeps
        # every distinct input; duplicated tensors are passed once.
        n_ph = sum(1 for n in gm.graph.nodes if n.op == "placeholder" and "tangents" not in str(n.target))
        mask = param_mask
        if n_ph != len(flat):
            # duplicate tensors (tied weights) are deduplicated by AOT autograd
            seen, mask = set(), []
            for a, p in zip(flat, param_mask):
                if id(a) in seen:
                    continue
                seen.add(id(a))
                mask.append(p)
        return JointTrace(gm, _num_fwd_outputs(gm), mask[:n_ph], "fake" if fake else "real")
    name = type(model_or_fn).__name__ if isinstance(model_or_fn, nn.Module) else \
        getattr(model_or_fn, "__name__", "function")
    raise ExportError(f"cannot trace {name}: " + " | ".join(errors))
