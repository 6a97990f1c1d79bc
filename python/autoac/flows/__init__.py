"""The torch-mlir and IREE flows, run end to end (docs/flows.md).

    python3 -m autoac.flows iree MODEL --budget B [--budget B2 ...] [--json out.json]

IREE flow: MODEL (autoac.flows.models: mlp, cnn, gpt-block) traced with
torch 2.x AOT autograd and imported by torch-mlir's FX importer
(autoac.export.torch_mlir), lowered to linalg on tensors by torch-mlir-opt
(autoac.measure.TORCH_TO_LINALG), planned and split by autoac there (ac-opt
--ac-mode=split: @f_fwd and @f_bwd, the saved set explicit as what @f_fwd
returns to @f_bwd), then compiled by iree-compile for llvm-cpu with the two
halves as separate entry points (IREE fuses and CSEs inside a function, so
it cannot merge a recompute in @f_bwd with the forward's op), and run with
iree.runtime on the local-sync device: one training step, forward, the
saved values handed to the backward, backward.  The gradients are compared
with PyTorch's (eager, the same model and inputs) and the device allocator's
statistics give the peak IREE allocated, beside the plan's figure; the
unplanned program is autoac's save-all split.

autoac runs between torch-mlir-opt and IREE on linalg, not before IREE on
the torch dialect: the peak autoac plans is then the one of the program the
CPU flow compiles, and IREE's own torch input conversion is not needed (IREE
reads the linalg module printed in generic form by MLIR 22).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))  # python/autoac/flows -> the repository
LLVM = "/usr/lib/llvm-22/bin"

#: gradients equal to PyTorch's within this, elementwise (float32, other
#: kernels and summation orders): |iree - torch| <= ATOL + RTOL * |torch|.
#: ATOL is set by the smallest case measured: the CNN's second conv bias,
#: whose gradient is 0 analytically (a bias before batch norm), is 4.7e-7
#: in PyTorch and 2.2e-5 in IREE, rounding in a 512-term sum.
RTOL, ATOL = 1e-4, 5e-5


def _bin_dir() -> str:
    return os.path.dirname(sys.executable)


def _tool(name: str) -> str:
    p = os.path.join(_bin_dir(), name)
    return p if os.path.exists(p) else name


def _run(cmd: Sequence[str], what: str) -> subprocess.CompletedProcess:
    p = subprocess.run(list(cmd), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {p.returncode}): {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return p


def _ac_opt() -> str:
    build = os.environ.get("AUTOAC_BUILD") or os.path.join(ROOT, "build")
    return os.path.join(build, "bin", "ac-opt")


def lower_to_linalg(torch_path: str, out_path: str) -> str:
    """torch-mlir-opt's lowering of a torch-dialect module (generic text both
    ways across the version boundary); returns MLIR 22's custom-form text."""
    from ..measure import TORCH_TO_LINALG
    gen, lin = out_path + ".torch.generic", out_path + ".linalg.generic"
    _run([os.path.join(LLVM, "mlir-opt"), "--allow-unregistered-dialect", "--mlir-print-op-generic",
          torch_path, "-o", gen], "mlir-opt (generic form)")
    _run([_tool("torch-mlir-opt"), gen, "--pass-pipeline=" + TORCH_TO_LINALG, "--mlir-print-op-generic",
          "-o", lin], "torch-mlir-opt")
    text = _run([os.path.join(LLVM, "mlir-opt"), lin], "mlir-opt (reading torch-mlir-opt's output)").stdout
    with open(out_path, "w") as f:
        f.write(text)
    return text


def plan_split(linalg_path: str, out_path: str, budget: Optional[str], strategy: str = "greedy"
               ) -> Dict[str, Any]:
    """ac-opt --ac-mode=split at the budget; returns the report."""
    rep = out_path + ".report.json"
    cmd = [_ac_opt(), linalg_path, "--ac-mode=split", "--ac-strategy=" + strategy,
           "--ac-report=" + rep, "-o", out_path]
    if budget:
        cmd.append("--ac-budget=" + budget)
    _run(cmd, "ac-opt")
    with open(rep) as f:
        return json.load(f)


def _wrapper_calls(text: str, fname: str):
    """From the split's @f: the forward's and backward's operands and the
    returned values, as "%argN" / "%0#k" / "%1#k" strings."""
    body = text[text.index(f"func.func @{fname}("):]
    body = body[:body.index("\n  }")]
    fwd = re.search(r"= call @%s_fwd\(([^)]*)\)" % re.escape(fname), body)
    bwd = re.search(r"= call @%s_bwd\(([^)]*)\)" % re.escape(fname), body)
    ret = re.search(r"^\s*return ([^:]*):", body, re.M)
    split = lambda s: [x.strip() for x in s.split(",") if x.strip()]  # noqa: E731
    return split(fwd.group(1)), split(bwd.group(1)), split(ret.group(1))


def compile_iree(planned_path: str, vmfb: str, flags: Sequence[str] = ()) -> None:
    gen = planned_path + ".generic"
    _run([os.path.join(LLVM, "mlir-opt"), "--mlir-print-op-generic", planned_path, "-o", gen],
         "mlir-opt (generic form for IREE)")
    _run([_tool("iree-compile"), gen, "--iree-hal-target-device=local",
          "--iree-hal-local-target-device-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host",
          *flags, "-o", vmfb], "iree-compile")


def run_step(vmfb: str, text: str, fname: str, inputs: Sequence[Any]) -> Dict[str, Any]:
    """One training step of the compiled split on a fresh local-sync device:
    the joint arguments uploaded, @f_fwd, its saved results handed to
    @f_bwd, @f_bwd.  Returns the joint results (host arrays, in @f's result
    order) and the allocator statistics before and after."""
    import iree.runtime as rt
    device = rt.get_driver("local-sync").create_default_device()
    config = rt.Config(device=device)
    ctx = rt.SystemContext(config=config)
    ctx.add_vm_module(rt.VmModule.mmap(config.vm_instance, vmfb))
    mod = ctx.modules.module
    fwd_args, bwd_args, rets = _wrapper_calls(text, fname)
    args = {f"%arg{i}": rt.asdevicearray(device, a) for i, a in enumerate(inputs)}
    before = dict(device.allocator.statistics)

    def val(name: str, fwd_out, bwd_out):
        if name.startswith("%arg"):
            return args[name]
        base, _, k = name.partition("#")
        outs = fwd_out if base == "%0" else bwd_out
        return outs[int(k or 0)]

    f_out = mod[f"{fname}_fwd"](*[args[a] for a in fwd_args])
    f_out = list(f_out) if isinstance(f_out, (list, tuple)) else [f_out]
    mid = dict(device.allocator.statistics)
    b_out = mod[f"{fname}_bwd"](*[val(a, f_out, None) for a in bwd_args])
    b_out = list(b_out) if isinstance(b_out, (list, tuple)) else [b_out]
    after = dict(device.allocator.statistics)
    results = [val(r, f_out, b_out).to_host() for r in rets]
    return {"results": results, "before": before, "after_forward": mid, "after": after}


def run_step_isolated(vmfb: str, planned_path: str, fname: str, inputs: Sequence[Any],
                      work: str) -> Dict[str, Any]:
    """run_step in a process of its own: the allocator's statistics (its
    peak) are the process's device's, which iree.runtime caches."""
    import numpy as np
    src, dst = vmfb + ".inputs.npz", vmfb + ".results.npz"
    np.savez(src, *inputs)
    _run([sys.executable, "-m", "autoac.flows", "_step", vmfb, planned_path, fname, src, dst],
         "the IREE step")
    with np.load(dst, allow_pickle=False) as z:
        stats = json.loads(str(z["stats"]))
        results = [z[f"r{i}"] for i in range(stats["n"])]
    return {"results": results, "before": stats["before"], "after_forward": stats["after_forward"],
            "after": stats["after"]}


def _step_main(vmfb, planned_path, fname, src, dst) -> int:
    import numpy as np
    with np.load(src, allow_pickle=False) as z:
        inputs = [z[f"arr_{i}"] for i in range(len(z.files))]
    with open(planned_path) as f:
        text = f.read()
    out = run_step(vmfb, text, fname, inputs)
    stats = json.dumps({"n": len(out["results"]), "before": out["before"],
                        "after_forward": out["after_forward"], "after": out["after"]})
    np.savez(dst, stats=np.array(stats), **{f"r{i}": r for i, r in enumerate(out["results"])})
    return 0


def _torch_reference(model, inputs):
    import torch
    loss = model(*inputs).sum()
    params = [p for p in model.parameters()]
    grads = torch.autograd.grad(loss, params)
    return loss.detach(), {id(p): g for p, g in zip(params, grads)}


def resolve_model(model: Any, inputs: Optional[Sequence[Any]] = None):
    """(model, inputs, name) for a flow: a name of autoac.flows.models, a
    `FILE.py:NAME` spec (NAME() returns (model, inputs), as `python3 -m
    autoac measure-torch` takes it), or an nn.Module with `inputs`."""
    from .models import flow_model
    if isinstance(model, str):
        from ..__main__ import _is_file_spec, _model_stem, _user_model
        if _is_file_spec(model):
            m, ins = _user_model(model)
            return m, ins, _model_stem(model)
        m, ins = flow_model(model)
        return m, ins, model
    if inputs is None:
        raise ValueError("a model given as a module needs its example inputs (inputs=...)")
    return model, tuple(inputs), type(model).__name__


def _budget_key(budget: Optional[str]) -> float:
    from ..measure import parse_size
    return float("inf") if budget in (None, "", "none") else float(parse_size(budget))


def choose_measured(rows: List[Dict[str, Any]]) -> None:
    """The program the flow hands over at each budget: of save-all and the
    plans made at this budget or a larger one, the one whose *measured* IREE
    peak is lowest (ties: the row's own plan).  IREE plans
    its own transients, so a plan autoac simulates lower can run higher
    there (docs/flows.md); choosing by measurement makes the handed-over
    program's peak never above save-all's and never higher at a lower
    budget.  Sets each row's `chosen` (a label), `chosen_iree_peak` and
    `fallback` (True when the chosen program is not the row's own plan)."""
    base = rows[0]
    best = base
    base.update(chosen=base["plan"], chosen_iree_peak=base["iree_peak"], fallback=False)
    for row in sorted(rows[1:], key=lambda r: -_budget_key(r["budget"])):
        if row["grads_ok"] and row["iree_peak"] <= best["iree_peak"]:
            best = row
        row.update(chosen=best["plan"], chosen_iree_peak=best["iree_peak"],
                   chosen_vmfb=best.get("vmfb"), fallback=best is not row)


def iree_flow(model: Any, budgets: Sequence[Optional[str]], work: Optional[str] = None,
              log=print, iree_flags: Sequence[str] = (),
              inputs: Optional[Sequence[Any]] = None) -> Dict[str, Any]:
    """The IREE flow for one model (resolve_model: a flow model's name, a
    FILE.py:NAME spec, or an nn.Module with `inputs`) at each budget (None:
    autoac's starting plan) and save-all; returns a dict of rows, each with
    the plan's and IREE's measured peak and the program chosen by
    measurement (choose_measured)."""
    import numpy as np
    import torch
    from ..export.torch_mlir import export_joint_torch_mlir
    from ..export.trace import module_state

    work = work or tempfile.mkdtemp(prefix="autoac-iree.")
    os.makedirs(work, exist_ok=True)
    model, inputs, model_name = resolve_model(model, inputs)
    fname = re.sub(r"[^A-Za-z0-9_]", "_", model_name)
    imported = export_joint_torch_mlir(model, inputs, name=fname)
    tpath = os.path.join(work, "torch.mlir")
    with open(tpath, "w") as f:
        f.write(imported.text)
    lpath = os.path.join(work, "linalg.mlir")
    lower_to_linalg(tpath, lpath)

    # The joint arguments: inputs, then parameters and buffers (module_state
    # order), then the tangent of the summed loss; AOT autograd dedups none
    # here.  Reference gradients from PyTorch on the same model (a copy, so
    # that batch norm's running statistics are the traced ones).
    import copy
    ref_model = copy.deepcopy(model)
    ref_loss, ref_grads = _torch_reference(ref_model, inputs)
    ref_buffers = [b.detach().numpy() for b in ref_model.buffers()]
    named_state = module_state(model)
    state = [t for _, t in named_state]
    ref_state = [t for _, t in module_state(ref_model)]
    primals = list(inputs) + state
    ntangent = sum(1 for n in imported.graph.nodes if n.op == "placeholder" and "tangents" in str(n.target))
    joint_inputs = [t.detach().numpy().copy() for t in primals] + \
        [np.ones((), dtype=np.float32) for _ in range(ntangent)]
    nprim = len(primals)

    rows = []
    for label, budget, strategy in [("save-all", None, "save-all")] + \
            [(f"greedy @ {b}" if b else "greedy", b, "greedy") for b in budgets]:
        tag = re.sub(r"[^A-Za-z0-9]+", "_", label)
        ppath = os.path.join(work, f"planned_{tag}.mlir")
        rep = plan_split(lpath, ppath, budget, strategy)
        with open(ppath) as f:
            ptext = f.read()
        vmfb = os.path.join(work, f"planned_{tag}.vmfb")
        compile_iree(ppath, vmfb, iree_flags)
        step = run_step_isolated(vmfb, ppath, fname, joint_inputs, work)
        # Gradients: result i >= num_fwd_outputs is FX output result_of_output[i],
        # the gradient of primal (that index - num_fwd_outputs).
        worst = 0.0
        ok = True
        details = []
        for res, out_index in zip(step["results"], imported.result_of_output):
            if out_index < imported.num_fwd_outputs:
                # The loss (the one scalar float output), and the new values
                # of buffers the forward writes (batch norm's running
                # statistics, which torch 2.x's joint graph returns first):
                # each equal to one of PyTorch's buffers after its step.
                if res.shape == () and res.dtype.kind == "f":
                    ok &= bool(np.allclose(res, ref_loss.numpy(), rtol=RTOL, atol=ATOL))
                else:
                    ok &= any(b.shape == res.shape and
                              np.allclose(res, b, rtol=RTOL, atol=ATOL) for b in ref_buffers)
                continue
            p = out_index - imported.num_fwd_outputs
            if p >= nprim:
                continue
            g = ref_grads.get(id(ref_state[p - len(inputs)])) if p >= len(inputs) else None
            if g is None:
                continue
            g = g.numpy()
            err = float(np.max(np.abs(res - g) / (ATOL + RTOL * np.abs(g)))) if g.size else 0.0
            details.append(dict(param=named_state[p - len(inputs)][0], of_tolerance=err,
                                max_abs_error=float(np.max(np.abs(res - g))) if g.size else 0.0,
                                max_abs=float(np.max(np.abs(g))) if g.size else 0.0))
            worst = max(worst, err)
            ok &= err <= 1.0
        before, after = step["before"], step["after"]
        row = dict(model=model_name, plan=label, budget=budget,
                   plan_peak=rep["peak_bytes"], saved_bytes=rep["saved_bytes"],
                   feasible=rep["feasible"],
                   iree_peak=after["device_bytes_peak"],
                   iree_forward_peak=step["after_forward"]["device_bytes_peak"],
                   iree_inputs=before["device_bytes_allocated"] - before["device_bytes_freed"],
                   iree_step_peak=after["device_bytes_peak"] - (before["device_bytes_allocated"]
                                                                - before["device_bytes_freed"]),
                   grads_ok=ok, worst_grad_error=worst, grads=details, vmfb=vmfb)
        rows.append(row)
        log("  %-8s %-18s plan peak %9d  saved %8d  IREE peak %9d (forward %d, inputs %d)  "
            "grads %s (worst %.3f of tol)" % (
                model_name, label, row["plan_peak"], row["saved_bytes"], row["iree_peak"],
                row["iree_forward_peak"], row["iree_inputs"], "equal" if ok else "DIFFER", worst))
    choose_measured(rows)
    for row in rows[1:]:
        if row["fallback"]:
            log("  %-8s %-18s IREE peak %d above %s's %d: the flow hands over %s's program" % (
                model_name, row["plan"], row["iree_peak"], row["chosen"], row["chosen_iree_peak"],
                row["chosen"]))
    return {"model": model_name, "rtol": RTOL, "atol": ATOL, "iree_flags": list(iree_flags),
            "rows": rows, "work": work}


def coverage(models: Sequence[str] = ("mlp", "cnn", "gpt-block")) -> str:
    """The op-name coverage table (markdown) of the models as torch-mlir's
    FX importer writes them: every torch-dialect op name, its count per
    model, and whether autoac's cost model knows it (the report's
    `unknown_ops`, planned with no budget)."""
    from .. import plan
    from ..export.torch_mlir import export_joint_torch_mlir
    from .models import flow_model
    counts: Dict[str, Dict[str, int]] = {}
    unknown = set()
    for m in models:
        model, inputs = flow_model(m)
        im = export_joint_torch_mlir(model, inputs, name=m.replace("-", "_"))
        for op in re.findall(r'"(torch\.[\w.]+)"\(', im.text):
            counts.setdefault(op, {}).setdefault(m, 0)
            counts[op][m] += 1
        rep = plan(im.text, source_name=f"<{m}>").report
        unknown.update(u["name"] for u in rep["unknown_ops"])
    lines = ["| op | " + " | ".join(models) + " | cost model |",
             "|---|" + "---|" * len(models) + "---|"]
    for op in sorted(counts):
        lines.append(f"| `{op}` | " + " | ".join(str(counts[op].get(m, "")) for m in models) +
                     " | " + ("**unknown**" if op in unknown else "known") + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_step"]:
        return _step_main(*argv[1:6])
    ap = argparse.ArgumentParser(prog="python3 -m autoac.flows", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("iree", help="the IREE flow on a model at budgets")
    i.add_argument("model", help="mlp | cnn | gpt-block | FILE.py:NAME (NAME() returns (model, inputs))")
    i.add_argument("--budget", action="append", default=[])
    i.add_argument("--json")
    i.add_argument("--iree-flag", action="append", default=[],
                   help="an extra iree-compile flag (e.g. --iree-stream-partitioning-favor=min-peak-memory)")
    i.add_argument("--keep", help="keep the intermediate files in this folder")
    sub.add_parser("coverage", help="the op-name coverage table of the flow models (markdown)")
    a = ap.parse_args(argv)
    if a.cmd == "coverage":
        print(coverage())
        return 0
    out = iree_flow(a.model, a.budget or [None], work=a.keep, iree_flags=a.iree_flag)
    print("%-18s %12s %12s  %-18s %12s" % ("program", "plan peak", "IREE peak", "handed over",
                                           "its IREE peak"))
    for r in out["rows"]:
        print("%-18s %12d %12d  %-18s %12d" % (r["plan"], r["plan_peak"], r["iree_peak"],
                                               r["chosen"], r["chosen_iree_peak"]))
    if a.json:
        from .. import write_output
        write_output(a.json, json.dumps(out, indent=1))
    return 0 if all(r["grads_ok"] for r in out["rows"]) else 1

