#!/usr/bin/env python3
"""The fidelity graphs' compiled programs on a real GPU, where MLIR is not
installed (docs/fidelity.md, "On a real GPU").

    python3 bench/gpu_check.py prepare DIR     # here: MLIR 22 and the build
    python3 bench/gpu_check.py run DIR OUT.txt # there: cc and the CUDA driver

`prepare` plans and lowers each graph with `ac-measure` for the unplanned
program, the default plan and the lowest plan (budget 1 B), twice: with
`auto-ac-lower-gpu` (kernels as PTX, buffers in GPU memory) and with
`auto-ac-lower-cpu`; compiles each program's host code ahead of time
(mlir-translate, llc), runs the CPU ones here (the reference results) and
writes DIR/manifest.json.  No MLIR library is needed to run them: the
harness's printers are runtime/runner_utils.c, the allocator
runtime/count_alloc.c.  `run` links each GPU object with
runtime/count_cuda.c (the real CUDA driver, every device buffer counted),
runs it and checks: the counted device peak equals the simulated one (and
is within the budget where the plan says it is met); a planned program
prints the bits its unplanned program prints on the GPU.  The CPU's results
are shown beside (kernels compiled for another processor may round
differently).  Exit status 1 when a check fails.  `run --stub` links
runtime/count_gpu.c instead (no GPU: only the pipeline and the counts).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = "/usr/lib/llvm-22"
GRAPHS = ["small-mlp", "small-transformer", "small-conv", "mlp", "transformer", "conv"]
# (tag, ac-measure flags)
# "offload": the lowest plan over a host link that hides every copy (a
# cost table's "@device"), its offloaded saves' host buffers counted apart.
PLANS = [("default", []), ("lowest", ["--budget=1", "--no-original"]),
         ("offload", ["--budget=1", "--no-original", "--cost-table=LINK"])]
LINK = '{"@device": {"host_bandwidth": 1e30, "host_latency": 0}}\n'
RUNTIME = ["runner_utils.c", "count_alloc.c"]


def sh(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit("gpu_check: %s failed (exit %d):\n%s%s" % (
            " ".join(cmd), p.returncode, p.stdout[-2000:], p.stderr[-3000:]))
    return p.stdout


def measure(graph, flags, keep, target, build):
    js = os.path.join(keep, "measure.json")
    sh([sys.executable, os.path.join(ROOT, "tools", "ac-measure"), graph, "--bytes",
        "--target=" + target, "--keep", keep, "--json", js, "--build", build] + flags,
       env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    with open(js) as f:
        return json.load(f)


def compile_object(ll_mlir, obj):
    """The harness's host code as an object whose @ac_main a C main calls."""
    ll = obj[:-2] + ".ll"
    sh([os.path.join(LLVM, "bin", "mlir-translate"), "--mlir-to-llvmir", ll_mlir, "-o", ll])
    with open(ll) as f:
        text = f.read()
    with open(ll, "w") as f:
        f.write(text.replace("define void @main()", "define void @ac_main()", 1))
    sh([os.path.join(LLVM, "bin", "llc"), "-O2", "-filetype=obj", "-relocation-model=pic",
        ll, "-o", obj])
    os.unlink(ll)


def link_and_run(d, obj, extra_runtime, cc):
    """Links obj with the runtime sources in d, runs it: (printed, counts)."""
    exe = obj[:-2] + ".exe"
    sh([cc, "-O1", "-o", exe, os.path.join(d, "main.c"), obj] +
       [os.path.join(d, s) for s in RUNTIME + extra_runtime] + ["-ldl", "-lm"])
    counts = exe + ".counts"
    if os.path.exists(counts):
        os.unlink(counts)
    out = sh([exe], env=dict(os.environ, AC_MEASURE_OUT=counts, AC_MEASURE_POISON="1"))
    meas = {}
    with open(counts) as f:
        for ln in f:
            k, _, v = ln.strip().partition("=")
            meas[k] = int(v) if v.lstrip("-").isdigit() else v
    return out, meas


def write_runtime(d):
    for src in RUNTIME + ["count_cuda.c", "count_gpu.c"]:
        shutil.copy(os.path.join(ROOT, "runtime", src), os.path.join(d, src))
    with open(os.path.join(d, "main.c"), "w") as f:
        f.write("void ac_main(void);\nint main(void) { ac_main(); return 0; }\n")


def prepare(a):
    d = os.path.abspath(a.dir)
    os.makedirs(d, exist_ok=True)
    write_runtime(d)
    link = os.path.join(d, "link.json")
    with open(link, "w") as f:
        f.write(LINK)
    cc = os.environ.get("CC") or shutil.which("cc") or "cc"
    cases, reference = [], {}
    for g in a.graphs:
        path = os.path.join(ROOT, "test", "Inputs", "fidelity", g + ".mlir")
        for tag, flags in PLANS:
            flags = [f.replace("=LINK", "=" + link) for f in flags]
            name = "%s-%s" % (g, tag)
            runs = {}
            for target in ("gpu", "cpu"):
                keep = os.path.join(d, "%s.%s" % (name, target))
                runs[target] = measure(path, flags, keep, target, a.build)
                for row in runs[target]["rows"]:
                    compile_object(os.path.join(keep, row["program"] + ".ll.mlir"),
                                   os.path.join(d, "%s.%s.%s.o" % (name, row["program"], target)))
                shutil.rmtree(keep)
            for row in runs["gpu"]["rows"]:
                prog = row["program"]
                cpu_obj = os.path.join(d, "%s.%s.cpu.o" % (name, prog))
                cpu_out, cpu_meas = link_and_run(d, cpu_obj, [], cc)
                for f in (cpu_obj, cpu_obj[:-2] + ".exe", cpu_obj[:-2] + ".exe.counts"):
                    os.unlink(f)
                # The CPU programs linked here check the ahead-of-time path
                # itself: each plan prints the unplanned program's bits.
                if reference.setdefault(g, cpu_out) != cpu_out:
                    sys.exit("gpu_check: %s %s prints other results than the unplanned "
                             "program on the CPU" % (name, prog))
                cases.append(dict(graph=g, plan=tag, program=prog, name=name,
                                  simulated=row["simulated"], stub=row["measured"],
                                  cpu=cpu_meas.get("region_peak_tagged_static"),
                                  host=row.get("host_simulated") or 0,
                                  cpu_host=cpu_meas.get("region_host_peak_bytes"),
                                  cpu_output=cpu_out, feasible=runs["gpu"].get("feasible"),
                                  budget=runs["gpu"].get("budget_bytes")))
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(dict(cases=cases), f, indent=1)
    print("gpu_check: %d programs in %s" % (len(cases), d))
    return 0


def run(a):
    d = os.path.abspath(a.dir)
    with open(os.path.join(d, "manifest.json")) as f:
        cases = json.load(f)["cases"]
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or "cc"
    rt = ["count_gpu.c" if a.stub else "count_cuda.c"]
    lines, failed, outputs = [], 0, {}
    lines.append("%-26s %-9s %10s %10s %10s %10s  %s" % (
        "graph-plan", "program", "simulated", "CPU", "stub", "GPU" if not a.stub else "GPU(stub)",
        "results"))
    for c in cases:
        out, meas = link_and_run(d, os.path.join(d, "%s.%s.gpu.o" % (c["name"], c["program"])),
                                 rt, cc)
        m = meas.get("region_peak_tagged_static")
        # The same allocations on the real runtime as on the stub; a plan's
        # program also at the simulated peak (the unplanned program is no
        # plan: its save-all simulation is within the fidelity suite's 2 %).
        ok_peak = m == c["stub"] and (c["program"] == "original" or m == c["simulated"])
        # Offloaded saves' host buffers: host memory, counted apart.
        ok_peak = ok_peak and meas.get("region_host_peak_bytes", 0) == c.get("host", 0)
        note = ""
        if c["program"] == "planned" and c["feasible"] and c["budget"] not in (None, -1):
            ok_budget = m is not None and m <= c["budget"]
            note = ", within budget" if ok_budget else ", OVER BUDGET"
            ok_peak = ok_peak and ok_budget
        cpu = "= CPU" if out == c["cpu_output"] else "!= CPU"
        if c["program"] == "original":
            outputs[c["graph"]] = out
            ok_out, res = True, "reference, " + cpu
        else:
            ref = outputs.get(c["graph"])
            ok_out = ref is not None and out == ref
            res = ("= unplanned" if ok_out else "DIFFERS from the unplanned") + ", " + cpu
        if a.stub:
            ok_out, res = True, "not computed (stub)"  # no kernel ran
        failed += (not ok_peak) + (not ok_out)
        lines.append("%-26s %-9s %10s %10s %10s %10s  %s%s%s" % (
            c["name"], c["program"], c["simulated"], c["cpu"], c["stub"], m, res, note,
            "" if ok_peak else "  PEAK DIFFERS"))
        if out != c["cpu_output"] and not a.stub:
            pairs = [(x, y) for x, y in zip(out.splitlines(), c["cpu_output"].splitlines())
                     if x != y][:2]
            lines.extend("    gpu %s\n    cpu %s" % p for p in pairs)
    lines.append("gpu_check: %d programs, %d failed checks%s" % (
        len(cases), failed, " (stub runtime: kernels not run)" if a.stub else ""))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    with open(a.out, "w") as f:
        f.write(text)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dir")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--graphs", nargs="*", default=GRAPHS)
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("out")
    r.add_argument("--stub", action="store_true",
                   help="link runtime/count_gpu.c (no GPU: kernels do not run)")
    a = ap.parse_args()
    return prepare(a) if a.cmd == "prepare" else run(a)


if __name__ == "__main__":
    sys.exit(main())
