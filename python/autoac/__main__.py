"""Command line: python3 -m autoac <command> ...

  plan FILE.mlir --budget 24GB [--strategy S] [--report r.json] [-o out.mlir]
                                            plan a module, print before/after
  export MODEL --batch N --out model.mlir   joint graph of a well-known model as MLIR
  models                                    the MODEL names export accepts
  timeline REPORT.json --out t.png          live-memory picture of a report
  pareto SWEEP.csv --out p.svg              Pareto frontier of an ac-opt sweep
  measure model.mlir [--budget=B] ...       simulated against measured peak (tools/ac-measure;
                                            `measure --help` for its options)
  measure-torch MODEL --budget B [--budget B2 ...]
                                            one PyTorch training step through the door:
                                            planned against measured peak, gradients checked

MODEL is a torchvision classification model (resnet18, mobilenet_v2, vit_b_16,
... as listed by `models`), `transformer` (nn.TransformerEncoder, like the
corpus; --layers --d-model --heads --ffn --seq), `transformer-lm` (the same
with a causal mask), `mlp` (--layers --d-model), or the flows' small `cnn` and
`gpt-block` (autoac.flows.models).  measure-torch also takes
FILE.py:NAME, NAME a function returning (model, inputs).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import List, Optional, Tuple


def _torchvision_names() -> List[str]:
    try:
        import torchvision
        from torchvision.models import list_models
        return list_models(module=torchvision.models)
    except Exception:  # noqa: BLE001 - torchvision missing or older
        return []


BUILTIN = ("transformer", "transformer-lm", "mlp", "cnn", "gpt-block")

_DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64"}


def build_model(name: str, args) -> Tuple[object, tuple]:
    """(model, example inputs) for a model name and the export options."""
    import torch
    import torch.nn as nn
    from .pytorch import ExportError
    if name in ("transformer", "transformer-lm"):
        layer = nn.TransformerEncoderLayer(args.d_model, args.heads, args.ffn, dropout=args.dropout,
                                           batch_first=True)
        encoder = nn.TransformerEncoder(layer, args.layers)
        x = torch.randn(args.batch, args.seq, args.d_model)
        if name == "transformer":
            return encoder, (x,)
        mask = torch.triu(torch.full((args.seq, args.seq), float("-inf")), diagonal=1)

        import inspect
        # torch 2.x asks whether a mask is causal by comparing its values
        # (data-dependent, untraceable on fake tensors) unless told so
        says_causal = "is_causal" in inspect.signature(encoder.forward).parameters

        class CausalEncoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.encoder = encoder

            def forward(self, inp, m):
                if says_causal:
                    return self.encoder(inp, mask=m, is_causal=True)
                return self.encoder(inp, mask=m)
        return CausalEncoder(), (x, mask)
    if name in ("cnn", "gpt-block"):
        from .flows.models import flow_model
        return flow_model(name, args.batch if args.batch > 1 else 0)
    if name == "mlp":
        layers = []
        for _ in range(args.layers):
            layers += [nn.Linear(args.d_model, args.d_model), nn.ReLU()]
        return nn.Sequential(*layers), (torch.randn(args.batch, args.d_model),)
    names = _torchvision_names()
    if name not in names:
        raise ExportError(f"unknown model '{name}' (accepted: {', '.join(BUILTIN)}, or a torchvision "
                          "model: run `python3 -m autoac models`)")
    import torchvision
    builder = torchvision.models.get_model_builder(name) if hasattr(torchvision.models, "get_model_builder") \
        else getattr(torchvision.models, name)
    kwargs = {}
    size = args.image_size
    if name == "inception_v3":
        kwargs.update(aux_logits=False, init_weights=False)
        size = size or 299
    elif name == "googlenet":
        kwargs.update(aux_logits=False, init_weights=False)
    elif name.startswith("vit_"):
        size = size or 224
        kwargs["image_size"] = size
    model = builder(weights=None, **kwargs)
    return model, (torch.randn(args.batch, 3, size or 224, size or 224),)


def _export(args) -> int:
    import torch
    from . import AutoacError
    from .pytorch import export_joint
    torch.manual_seed(0)
    model, inputs = _model_for(args)
    if args.eval:
        model.eval()
    dtype = getattr(torch, _DTYPES[args.dtype])
    if dtype != torch.float32:
        model = model.to(dtype)
        inputs = tuple(t.to(dtype) if t.is_floating_point() else t for t in inputs)
    name = args.name or "".join(c if c.isalnum() else "_" for c in _model_stem(args.model))
    t0 = time.time()
    if args.importer == "torch-mlir":
        from .export.torch_mlir import export_joint_torch_mlir
        text = export_joint_torch_mlir(model, inputs, name=name, tracing=args.tracing,
                                       decompose=args.decompose).text
    else:
        text = export_joint(model, inputs, name=name, tracing=args.tracing)
    from . import write_output
    write_output(args.out, text)
    if not args.quiet:
        ops = sum(1 for line in text.splitlines() if '"torch.aten.' in line)
        print(f"autoac: wrote {args.out}: @{name}, {ops} aten ops, {time.time() - t0:.1f}s", file=sys.stderr)
    if args.plan:
        from . import plan
        r = plan(text, source_name=args.out, mode="annotate", budget=args.budget)
        rep = r.report
        print(f"autoac: peak {rep['peak_bytes']} bytes, saved {rep['saved_bytes']} bytes, "
              f"feasible {rep['feasible']}", file=sys.stderr)
    return 0


def _user_model(spec: str):
    """(model, inputs) from FILE.py:NAME, NAME() returning them."""
    import importlib.util
    from . import AutoacError
    path, _, attr = spec.rpartition(":")
    spec_ = importlib.util.spec_from_file_location("autoac_user_model", path)
    if spec_ is None or spec_.loader is None:
        raise AutoacError(f"cannot load '{path}': not a Python file")
    mod = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(mod)
    fn = getattr(mod, attr, None)
    if not callable(fn):
        raise AutoacError(f"'{path}' has no function '{attr}' returning (model, inputs)")
    got = fn()
    if not (isinstance(got, tuple) and len(got) == 2):
        raise AutoacError(f"{spec}: expected (model, inputs), got {type(got).__name__}")
    model, inputs = got
    return model, tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)


def _is_file_spec(model: str) -> bool:
    """Whether a model argument is FILE.py:NAME (else a built-in name)."""
    return ":" in model and model.rsplit(":", 1)[0].endswith(".py")


def _model_stem(model: str) -> str:
    """A name for a model argument: FILE.py:NAME gives FILE_NAME (no folders)."""
    if _is_file_spec(model):
        path, _, attr = model.rpartition(":")
        return os.path.splitext(os.path.basename(path))[0] + "_" + attr
    return model


def _model_for(args):
    """(model, inputs): a FILE.py:NAME spec (_user_model) or a built-in name."""
    if _is_file_spec(args.model):
        return _user_model(args.model)
    return build_model(args.model, args)


def _measure_torch(args) -> int:
    import torch
    from .pytorch import measure_step
    torch.manual_seed(args.seed)
    model, inputs = _model_for(args)
    options = {}
    for name in ("strategy", "device", "optimizer", "reserve"):
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    budgets = args.budget or [None]
    print(f"{'budget':>14} {'planned':>14} {'measured':>14} {'error %':>8} {'feasible':>8} "
          f"{'<= budget':>9} {'grads equal':>11} {'no scratch':>14}")
    bad = 0
    for b in budgets:
        m = measure_step(model, inputs, None if b in (None, "none") else b, rng=args.rng,
                         grads=args.grads, compare=not args.no_compare, seed=args.seed, **options)
        within = m.within_budget
        eq = "-" if m.grads_equal is None else ("yes" if m.grads_equal else "NO")
        print(f"{'none' if m.budget is None else m.budget:>14} {m.planned_peak:>14} {m.measured_peak:>14} "
              f"{m.error_percent:>+8.2f} {str(m.feasible).lower():>8} {str(within).lower():>9} {eq:>11} "
              f"{'-' if m.measured_no_scratch is None else m.measured_no_scratch:>14}")
        if m.unequal:
            print(f"  gradients differ: {', '.join(m.unequal[:8])}", file=sys.stderr)
        bad += (m.feasible and not within) or m.grads_equal is False or \
            (args.tolerance is not None and abs(m.error_percent) > args.tolerance)
    print(f"(bytes; {m.device}, grads={m.grads}, rng={m.rng}; peak measured by "
          f"{'torch.cuda.max_memory_allocated' if m.device.startswith('cuda') else 'torch.profiler memory events'}; "
          "no scratch: without what an op allocates and frees before it returns)")
    return 3 if bad else 0


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def plan_summary(path: str, report: dict) -> str:
    """A readable before/after of one plan: the save-all and min-cut peaks
    against the plan's, what is saved and recomputed, and the overhead."""
    base = report.get("baseline_peak_bytes") or {}
    funcs = report.get("functions") or []
    saved = sum(len(f.get("saved") or []) for f in funcs)
    recomputed = sum(len(f.get("recomputed") or []) for f in funcs)
    budget = report.get("budget_bytes")
    lines = [f"{path}: strategy {report.get('strategy')}, device {report.get('device')}, "
             f"budget {'none' if budget is None else f'{budget} bytes ({_mib(budget)})'}"]
    for name in ("save-all", "mincut"):
        if name in base:
            lines.append(f"  {name + ' peak':<16}{base[name]:>16} bytes  ({_mib(base[name])})")
    peak = report.get("peak_bytes", 0)
    lines.append(f"  {'planned peak':<16}{peak:>16} bytes  ({_mib(peak)})"
                 + ("" if report.get("feasible", True) else "  over budget"))
    lines.append(f"  {'saved':<16}{report.get('saved_bytes', 0):>16} bytes  in {saved} values")
    lines.append(f"  {'recomputed':<16}{recomputed:>16} values "
                 f"({report.get('recompute_flops', 0.0):.3g} FLOPs, "
                 f"{report.get('recompute_seconds', 0.0):.3g} s estimated)")
    lines.append(f"  {'feasible':<16}{str(bool(report.get('feasible'))).lower():>16}")
    return "\n".join(lines)


def _add_plan_options(pl) -> Optional[str]:
    """The plan command's option flags, one per row of the options table
    (autoac.option_table(), i.e. autoac/options.def): every option the
    library takes appears here without being listed twice.  Returns the
    library's load error instead when it cannot be loaded."""
    from . import AutoacError, option_table
    try:
        table = option_table()
    except AutoacError as err:
        pl.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        return str(err)
    for name, kind, text, default in table:
        shown = f"{text} (default: {default})" if default else text
        if kind == "FLAG":
            pl.add_argument("--" + name, action="store_true", help=shown)
        else:
            pl.add_argument("--" + name, metavar=kind, help=shown.replace("%", "%%"))
    return None


def _plan(args) -> int:
    from . import AutoacError, option_table, plan_file
    if args.table_error:
        raise AutoacError(args.table_error)
    options = {}
    for name, kind, _, _ in option_table():
        value = getattr(args, name.replace("-", "_"))
        if kind == "FLAG":
            value = True if value else None
        options[name.replace("-", "_")] = value
    result = plan_file(args.file, **options)
    if not result.report:
        # The library plans nothing and leaves the module as it was: there is
        # no plan to summarize, and -o would only copy the input.
        raise AutoacError(f"{args.file} has no function marked ac.joint: nothing to plan "
                          "(docs/contract.md, section 1)")
    if result.warnings:
        print(result.warnings, file=sys.stderr)
    if args.out:
        if args.out == "-":
            sys.stdout.write(result.ir)
        else:
            # Through the library's file set, like its own outputs: never
            # replaces a device, a FIFO or a symbolic link.
            from . import write_output
            write_output(args.out, result.ir)
    if args.json:
        import json
        print(json.dumps(result.report, indent=1))
    elif not args.quiet:
        print(plan_summary(args.file, result.report), file=sys.stderr if args.out == "-" else sys.stdout)
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in and args_in[0] == "measure":
        from .measure import main as measure_main
        return measure_main(args_in[1:])
    p = argparse.ArgumentParser(prog="python3 -m autoac", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)

    pl = sub.add_parser("plan", help="plan a module (ac.joint functions) and print the before/after",
                        description="Plans FILE with libautoac (the options are the contract's, "
                        "docs/contract.md) and prints the peaks before and after, what is saved "
                        "and recomputed.")
    pl.add_argument("file", help="MLIR module with ac.joint functions")
    table_error = _add_plan_options(pl)
    pl.add_argument("--out", "-o", help="write the rewritten module here ('-': stdout)")
    pl.add_argument("--json", action="store_true", help="print the report as JSON instead of the summary")
    pl.add_argument("--quiet", "-q", action="store_true", help="print no summary")

    def model_args(q):
        q.add_argument("model")
        q.add_argument("--batch", type=int, default=1)
        q.add_argument("--image-size", type=int, default=None, help="torchvision models: H=W (default 224)")
        q.add_argument("--seq", type=int, default=128, help="transformer: sequence length")
        q.add_argument("--d-model", type=int, default=512, help="transformer/mlp: width")
        q.add_argument("--heads", type=int, default=8)
        q.add_argument("--ffn", type=int, default=2048)
        q.add_argument("--layers", type=int, default=6)
        q.add_argument("--dropout", type=float, default=0.1)

    e = sub.add_parser("export", help="write a model's joint forward+backward graph as MLIR")
    model_args(e)
    e.add_argument("--out", "-o", required=True)
    e.add_argument("--name", help="function name (default: the model name)")
    e.add_argument("--eval", action="store_true", help="trace in eval mode (default: train mode)")
    e.add_argument("--dtype", choices=sorted(_DTYPES), default="f32")
    e.add_argument("--tracing", choices=("auto", "fake", "real"), default="auto",
                   help="fake: FakeTensor, nothing computed; real: run on random inputs; auto: fake, else real")
    e.add_argument("--importer", choices=("autoac", "torch-mlir"), default="autoac",
                   help="autoac: autoac's own exporter; torch-mlir: torch-mlir's FX importer "
                   "(torch 2.x, generic form; docs/flows.md)")
    e.add_argument("--decompose", choices=("torch-mlir", "backward", "none"), default="torch-mlir",
                   help="with --importer torch-mlir: the decompositions applied while tracing")
    e.add_argument("--plan", action="store_true", help="also plan it and print the peak")
    e.add_argument("--budget", default=None, help="with --plan")
    e.add_argument("--quiet", "-q", action="store_true")

    sub.add_parser("models", help="list the model names export accepts")

    mt = sub.add_parser("measure-torch", help="one PyTorch training step with autoac's plan: planned "
                        "against measured peak, gradients against functorch's default partitioner",
                        description="Runs one training step (forward, .sum(), backward) of MODEL (a "
                        "name as for export, or FILE.py:NAME returning (model, inputs)) through "
                        "autoac.pytorch.aot_module at each budget and prints autoac's planned peak, "
                        "the measured one (CPU: torch.profiler memory events; GPU: "
                        "torch.cuda.max_memory_allocated), the error and whether the gradients are "
                        "bit-equal to functorch's default_partition.  Exit status 3 when a feasible "
                        "plan's step exceeds its budget, gradients differ, or the error passes "
                        "--tolerance.")
    model_args(mt)
    mt.add_argument("--budget", action="append", help="a budget (repeat for several; 'none': min-cut)")
    mt.add_argument("--rng", choices=("keep", "replay"), default="keep")
    mt.add_argument("--grads", choices=("accumulate", "assign"), default=None,
                    help="gradient mode (default: PyTorch's own, accumulate for torch 1.x)")
    mt.add_argument("--strategy")
    mt.add_argument("--device", help="autoac's device profile for the cost model (h100, cpu, ...)")
    mt.add_argument("--optimizer")
    mt.add_argument("--reserve")
    mt.add_argument("--seed", type=int, default=0)
    mt.add_argument("--no-compare", action="store_true", help="skip the default_partition comparison")
    mt.add_argument("--tolerance", type=float, default=None,
                    help="exit 3 when |error| passes this many percent")

    sub.add_parser("measure", help="simulated against measured peak (ac-measure; "
                   "`measure --help`)")

    t = sub.add_parser("timeline", help="plot a report's live-memory timeline")
    t.add_argument("report")
    t.add_argument("--out", "-o", required=True)
    t.add_argument("--title")

    pa = sub.add_parser("pareto", help="plot the Pareto frontier of a sweep CSV")
    pa.add_argument("csv")
    pa.add_argument("--out", "-o", required=True)
    pa.add_argument("--title")

    args = p.parse_args(argv)
    args.table_error = table_error
    from . import AutoacError
    try:
        if args.command == "plan":
            return _plan(args)
        if args.command == "export":
            return _export(args)
        if args.command == "measure-torch":
            return _measure_torch(args)
        if args.command == "models":
            print("\n".join(list(BUILTIN) + _torchvision_names()))
            return 0
        if args.command == "timeline":
            from .plot import timeline
            timeline(args.report, args.out, title=args.title)
            return 0
        if args.command == "pareto":
            from .plot import pareto
            pareto(args.csv, args.out, title=args.title)
            return 0
    except AutoacError as err:
        print(f"autoac: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as err:
        print(f"autoac: error: {err}", file=sys.stderr)
        return 1
    return 2


def _exit_main() -> None:
    """Runs main() and exits with its status.  A reader that closes the pipe
    early (`python3 -m autoac models | head -1`) ends the run as it ends a C
    tool, silently with 128 + SIGPIPE, instead of a traceback."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # What is still buffered would fail again at exit: write it nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 128 + 13
    sys.exit(status)


def console_main() -> None:
    """Entry point of the `autoac` console script (pyproject.toml)."""
    _exit_main()


if __name__ == "__main__":
    _exit_main()
