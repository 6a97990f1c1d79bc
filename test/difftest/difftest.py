"""Differential tester: random joint programs, planned with every strategy
at random budgets, lowered with auto-ac-lower-cpu, run on the CPU with the
counting allocator, and checked against the unplanned program.

    difftest.py N [SEED] [--jobs J] [--build DIR] [--out DIR] [--no-shrink]
                [--avoid-known] [--exclude KIND,...] [--log FILE] [--time-limit S]
                [--plan-with lib|ac-opt]
    difftest.py --one SEED [--keep DIR]   one program, every check, verbose
    difftest.py --case CASE.mlir          recheck a shrunk case (its config line)
    difftest.py --replay CASE.json        rerun a shrunk case from its steps

Program i of a run has the seed SEED + i (SEED defaults to 1), so any
program is reproduced by `--one SEED+i`.  Checks, per program:

  original   the unplanned module (after `mlir-opt --cse` when the program
             draws it) lowers and runs: its printed hashes are the reference;
  plan       ac-opt exits 0 and prints nothing but warnings, for every
             strategy x budget x rng mode drawn (planned by libautoac in a
             forked child; the first plan of each program by ac-opt too,
             which must give the same IR and report);
  report     `feasible` is `peak_bytes <= budget`; greedy's peak is at most
             the save-all baseline, and never rises when the budget falls;
  results    every plan prints exactly the reference's hashes (freed
             buffers are poisoned, so an early free shows);
  peak       the measured peak equals the report's simulated `peak_bytes`
             (or that plus the tangents, which the harness allocates before
             the call while the simulator counts them from the backward's
             start: docs/fidelity.md), unless the report's `compiled_peak`
             says "not guaranteed" (or "at most", and it is below);
  budget     a plan the report calls feasible measures at most the budget;
  warnings   an unreachable budget is a warning naming it and the peak;
  time       every command ends within its time limit.

Each divergence prints its seed and class, is shrunk by delta debugging
over the generator's steps and options (keeping the same class), and the
small case is written to OUT/seed-S-CLASS.mlir with a .json beside it.
Exit status: 0 when nothing diverged, 1 otherwise, 2 on a usage error.
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))

import gen  # noqa: E402
from autoac.measure import (ELEM, init_tensor, hash_tensor, parse_tensor,  # noqa: E402
                            joint_signature, read_counts)

# The budgets (fractions from the lowest to the save-all peak) a
# not-monotone case is rechecked at while it is shrunk.
MONOTONE_SPECS = ["lowest", 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
STRATEGIES = ["greedy", "save-all", "mincut", "knapsack", "beam", "ilp"]
LLVM = "/usr/lib/llvm-22"
# Greedy (the one strategy that offloads) plans with offload on and a host
# link from a cost table's "@device" (one of LINKS, B/s with no latency,
# chosen by the program's text: from a link that hides every copy to one
# slow enough to stall); the lowering marks the host buffers
# (auto-ac-lower-cpu{count-host=1}) and the counting runtime counts them
# apart, so the measured peak is the device peak and the host peak is
# checked too (docs/fidelity.md, "Offload").  The other strategies plan
# with offload off.
LINKS = [1e30, 1e12, 1e11, 1e10]
TIMEOUT = 120


class Div(Exception):
    """A divergence: cls names the promise broken."""

    def __init__(self, cls, msg, config=None):
        Exception.__init__(self, "%s: %s" % (cls, msg))
        self.cls = cls
        self.msg = msg
        self.config = config


class Tools:
    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.acopt = os.path.join(self.build, "bin", "ac-opt")
        self.plugin = os.path.join(self.build, "lib", "AutoACPlugin.so")
        self.runtime = os.path.join(self.build, "lib", "libac_count_alloc.so")
        self.opt = os.path.join(LLVM, "bin", "mlir-opt")
        self.runner = os.path.join(LLVM, "bin", "mlir-runner")
        for p in (self.acopt, self.plugin, self.runtime, self.opt, self.runner):
            if not os.path.exists(p):
                raise SystemExit("difftest: %s not found (build first: scripts/setup.sh build)" % p)
        lib = os.path.join(LLVM, "lib")
        self.libs = ",".join([self.runtime, os.path.join(lib, "libmlir_runner_utils.so"),
                              os.path.join(lib, "libmlir_c_runner_utils.so")])

    plan_with = "lib"

    def forked_plan(self, path, strategy, budget, rngmode, out, rep, timeout=TIMEOUT):
        """What `ac-opt PATH --ac-mode=split ... -o OUT --ac-report=REP`
        does, by libautoac's acPlanMlirText in a forked child (a crash or a
        hang ends the child, not the tester): a CompletedProcess-like
        result with returncode (-N for a signal) and stderr (the
        diagnostics)."""
        import autoac
        if not getattr(self, "lib_loaded", False):
            os.environ.setdefault("AUTOAC_LIBRARY", os.path.join(self.build, "lib", "libautoac.so"))
            autoac._load()
            self.lib_loaded = True
        with open(path) as f:
            text = f.read()
        opts = dict(mode="split", strategy=strategy, rng=rngmode, offload=offload_of(strategy))
        if strategy == "greedy" and getattr(self, "link", None):
            opts["cost_table"] = self.link
        if budget is not None:
            opts["budget"] = budget
        res = out + ".result"
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                try:
                    r = autoac.plan(text, source_name=path, **opts)
                    with open(out, "w") as f:
                        f.write(r.ir)
                    with open(rep, "w") as f:
                        json.dump(r.report, f)
                    msg, code = r.warnings, 0
                except autoac.AutoacError as e:
                    msg = str(e)
                with open(res, "w") as f:
                    f.write(msg)
            finally:
                os._exit(code)
        t0 = time.time()
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.time() - t0 > timeout:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                raise Div("timeout", "planning (acPlanMlirText) did not end within %d s" % timeout)
            time.sleep(0.002)
        rc = os.waitstatus_to_exitcode(status)
        err = ""
        if os.path.exists(res):
            with open(res) as f:
                err = f.read()
            os.unlink(res)
        return subprocess.CompletedProcess([self.acopt], rc, "", err)

    def run(self, cmd, env=None, timeout=TIMEOUT):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Div("timeout", "%s did not end within %d s" % (os.path.basename(cmd[0]), timeout))
        return p


# ---------------------------------------------------------------------------
# The harness: @main builds every joint function's arguments, runs the
# program between acMeasureBegin/End, tags the gradients and prints hashes.

def arg_init(lines, name, ty, attrs, k):
    pt = parse_tensor(ty)
    if pt is None or -1 in pt[0]:
        # Dynamic shapes: python3 -m autoac measure --dims runs those.
        raise Div("unsupported", "the tester's harness makes ranked tensors of "
                  "static shape (float or integer elements); argument %s has type %s"
                  % (name, ty))
    dims, et = pt
    amp = 0.5
    if "ac.param" in attrs and len(dims) >= 2:
        amp = 1.0 / max(1.0, dims[0]) ** 0.5
    init_tensor(lines, name, dims, et, amp, 0.37 + 0.173 * k, 0.1 + 0.61 * k)


HEAD = """  func.func private @acMeasureBegin()
  func.func private @acMeasureEnd()
  func.func private @acMeasureTag(i64)
  func.func private @printMemrefI64(tensor<*xi64>) attributes {llvm.emit_c_interface}
  func.func private @printMemrefF64(tensor<*xf64>) attributes {llvm.emit_c_interface}
  func.func @main() {
    %hzi64 = arith.constant 0 : i64
    %hzf64 = arith.constant 0.0 : f64
"""


def func_body(text, name):
    """The body lines of func @name in printed IR."""
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if re.match(r"\s*func\.func (?:\w+ )?@%s\(" % re.escape(name), ln):
            out = []
            for ln2 in lines[i + 1:]:
                if re.match(r"  \}\s*$", ln2):
                    return out
                out.append(ln2)
    return None


def harness(text, sigs, schedule, planned):
    """text: the printed module.  sigs: joint_signature(text).  planned:
    call the halves in schedule order (a module with several joint
    functions), else call every @f once in module order."""
    lines = [HEAD]
    k = 0
    argnames = {}
    # Where each argument is made: parameters before the measured region
    # (static, as the simulator counts them); in a planned program primal
    # inputs right before their function's forward and tangents right
    # before its backward, where the simulator starts counting them.
    late = {}
    for fname, args, results in sigs:
        names = []
        for i, (ty, attrs) in enumerate(args):
            n = "%%in_%s_%d" % (fname, i)
            if planned and "ac.param" not in attrs:
                where = fname + (".bwd" if "ac.tangent" in attrs else ".fwd")
                buf = late.setdefault(where, [])
            else:
                buf = lines
            arg_init(buf, n, ty, attrs, k)
            k += 1
            names.append(n)
        argnames[fname] = names
    lines.append("    call @acMeasureBegin() : () -> ()")
    resnames = {}
    if planned:
        parts = {}
        for fname, args, results in sigs:
            body = func_body(text, fname)
            ren = []
            for ln in body:
                ln = re.sub(r"%arg(\d+)\b", lambda m: argnames[fname][int(m.group(1))], ln)
                ln = re.sub(r"%([\w$.-]+)", lambda m: m.group(0) if m.group(0).startswith("%in_")
                            else "%%x_%s_%s" % (fname, m.group(1)), ln)
                ren.append(ln)
            fwd, bwd, ret = [], [], None
            cur = fwd
            for ln in ren:
                if "@%s_bwd(" % fname in ln:
                    cur = bwd
                if ln.strip().startswith("return"):
                    ret = ln
                    continue
                cur.append(ln)
            parts[fname + ".fwd"] = late.get(fname + ".fwd", []) + fwd
            parts[fname + ".bwd"] = late.get(fname + ".bwd", []) + bwd
            m = re.match(r"\s*return (.*?) : ", ret)
            resnames[fname] = [s.strip() for s in m.group(1).split(",")] if m else []
        for entry in schedule:
            lines.extend(parts[entry])
    else:
        for fname, args, results in sigs:
            rt = [r for r, _ in results]
            call = "call @%s(%s) {no_inline} : (%s) -> (%s)" % (
                fname, ", ".join(argnames[fname]), ", ".join(a for a, _ in args), ", ".join(rt))
            if len(rt) == 1:
                lines.append("    %%r_%s = %s" % (fname, call))
                resnames[fname] = ["%%r_%s" % fname]
            else:
                lines.append("    %%r_%s:%d = %s" % (fname, len(rt), call))
                resnames[fname] = ["%%r_%s#%d" % (fname, i) for i in range(len(rt))]
    lines.append("    call @acMeasureEnd() : () -> ()")
    j = 0
    for fname, args, results in sigs:
        for i, (ty, attrs) in enumerate(results):
            if "ac.output" in attrs:
                continue
            dims, et = parse_tensor(ty)
            mt = "memref<%s%s>" % ("".join("%dx" % d for d in dims), et)
            j += 1
            lines.append("    %%tb_%d = bufferization.to_buffer %s read_only : %s to %s" % (j, resnames[fname][i], ty, mt))
            lines.append("    %%tp_%d = memref.extract_aligned_pointer_as_index %%tb_%d : %s -> index" % (j, j, mt))
            lines.append("    %%tq_%d = arith.index_cast %%tp_%d : index to i64" % (j, j))
            lines.append("    call @acMeasureTag(%%tq_%d) : (i64) -> ()" % j)
    for fname, args, results in sigs:
        for i, (ty, attrs) in enumerate(results):
            dims, et = parse_tensor(ty)
            hash_tensor(lines, "%%hash_%s_%d" % (fname, i), resnames[fname][i], dims, et)
    lines.append("    return")
    lines.append("  }")
    h = "\n".join(lines) + "\n"
    s = text.rstrip()
    if planned:
        # @main runs the joint functions' bodies itself: the functions
        # would only be lowered and compiled for nothing.
        s = strip_funcs(s, [fname for fname, _, _ in sigs])
    i = s.rfind("}")
    return s[:i] + h + "}\n"


def strip_funcs(text, names):
    """The printed module without the top-level functions `names`."""
    out, skip = [], False
    for ln in text.splitlines():
        if not skip and any(re.match(r"  func\.func (?:\w+ )?@%s\(" % re.escape(n), ln) for n in names):
            skip = True
            continue
        if skip:
            if re.match(r"  \}\s*$", ln):
                skip = False
            continue
        out.append(ln)
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Random ops the CPU pipeline cannot run: StableHLO's implicit draw, the seed
# draw and autoac.rng.uniform that rng=replay makes of it.  Both programs are
# lowered the same way before they run: every draw from the program's
# generator (an implicit draw, or a seed draw) takes the next value of a
# counter (@acRngNext), and a uniform draw from seed s is the contract's
# counter-based generator (docs/contract.md, Randomness).  So the original's
# implicit draw i and the replayed program's generator of seed draw i give
# the same bits, and the two programs must print the same results.

def _s64(c):
    return c - (1 << 64) if c >= (1 << 63) else c


RNG_DECLS = """  memref.global "private" @ac_rng_ctr : memref<i64> = dense<4242>
  func.func private @acRngNext() -> i64 {
    %g = memref.get_global @ac_rng_ctr : memref<i64>
    %v = memref.load %g[] : memref<i64>
    %c = arith.constant 1000003 : i64
    %n = arith.addi %v, %c : i64
    memref.store %n, %g[] : memref<i64>
    return %v : i64
  }
"""
_RNG = re.compile(r'^(\s*)(%[\w.$-]+) = "stablehlo\.rng"\((%[\w.$#-]+), (%[\w.$#-]+), (%[\w.$#-]+)\) '
                  r'\{rng_distribution = #stablehlo<rng_distribution UNIFORM>\} : \(([^)]*)\) -> (tensor<[^>]*>)\s*$')
_GEN = re.compile(r'^(\s*)(%[\w.$-]+) = "autoac\.rng\.uniform"\((%[\w.$#-]+), (%[\w.$#-]+), (%[\w.$#-]+)\) '
                  r'(?:\{[^}]*\} )?: \(tensor<1xui64>, tensor<f32>, tensor<f32>\) -> (tensor<[^>]*>)\s*$')
_HCONST = re.compile(r'^(\s*)(%[\w.$-]+) = "stablehlo\.constant"\(\) \{value = [^}]*\} : \(\) -> (tensor<[^>]*>)\s*$')


def _uniform(ind, name, seed, a, b, ty, seed_tensor=None):
    """A uniform draw into a new `ty`.  seed: an i64 SSA value, or, with
    seed_tensor (a tensor<1xi64>), read by the generic itself."""
    p = "%%rng_%s_" % re.sub(r"[^\w]", "_", name[1:])
    dims, _ = parse_tensor(ty)
    rank = len(dims)
    idm = "affine_map<(%s) -> (%s)>" % (", ".join("d%d" % i for i in range(rank)),
                                        ", ".join("d%d" % i for i in range(rank)))
    # The bounds are read by the generic itself (a tensor.extract of them
    # would let the canonicalizer fold their producers away, bytes the
    # program then does not allocate although the graph has them).
    scm = "affine_map<(%s) -> ()>" % ", ".join("d%d" % i for i in range(rank))
    L = []
    L.append("%se = tensor.empty() : %s" % (p, ty))
    if seed_tensor is None:
        L.append("%s = linalg.generic {indexing_maps = [%s, %s, %s], iterator_types = [%s]} "
                 "ins(%s, %s : tensor<f32>, tensor<f32>) outs(%se : %s) {" % (
                     name, scm, scm, idm, ", ".join(['"parallel"'] * rank), a, b, p, ty))
        L.append("^bb0(%sa: f32, %sb: f32, %so: f32):" % (p, p, p))
    else:
        # The seed, like the bounds, is read by the generic: the op reads
        # its operands while it writes its result, as the simulator counts
        # (a tensor.extract before the generic let the seed be freed first).
        s0m = "affine_map<(%s) -> (0)>" % ", ".join("d%d" % i for i in range(rank))
        L.append("%s = linalg.generic {indexing_maps = [%s, %s, %s, %s], iterator_types = [%s]} "
                 "ins(%s, %s, %s : tensor<1xi64>, tensor<f32>, tensor<f32>) outs(%se : %s) {" % (
                     name, s0m, scm, scm, idm, ", ".join(['"parallel"'] * rank), seed_tensor, a, b, p, ty))
        L.append("^bb0(%ssd: i64, %sa: f32, %sb: f32, %so: f32):" % (p, p, p, p))
        seed = p + "sd"
    if rank:
        L.append("  %sl0 = linalg.index 0 : index" % p)
        for i in range(1, rank):
            L.append("  %si%d = linalg.index %d : index" % (p, i, i))
            L.append("  %sn%d = arith.constant %d : index" % (p, i, dims[i]))
            L.append("  %sm%d = arith.muli %sl%d, %sn%d : index" % (p, i, p, i - 1, p, i))
            L.append("  %sl%d = arith.addi %sm%d, %si%d : index" % (p, i, p, i, p, i))
        L.append("  %sk = arith.index_cast %sl%d : index to i64" % (p, p, rank - 1))
    else:
        L.append("  %sk = arith.constant 0 : i64" % p)
    C = [("one", 1), ("gold", _s64(0x9E3779B97F4A7C15)), ("c30", 30), ("k1m", _s64(0xBF58476D1CE4E5B9)),
         ("c27", 27), ("k2m", _s64(0x94D049BB133111EB)), ("c31", 31), ("c40", 40)]
    for n, v in C:
        L.append("  %s%s = arith.constant %d : i64" % (p, n, v))
    ops = [("k1", "arith.addi %sk, %sone"), ("t", "arith.muli %sk1, %sgold"), ("x", "arith.addi SEED, %st"),
           ("s1", "arith.shrui %sx, %sc30"), ("x1", "arith.xori %sx, %ss1"), ("z1", "arith.muli %sx1, %sk1m"),
           ("s2", "arith.shrui %sz1, %sc27"), ("x2", "arith.xori %sz1, %ss2"), ("z2", "arith.muli %sx2, %sk2m"),
           ("s3", "arith.shrui %sz2, %sc31"), ("z3", "arith.xori %sz2, %ss3"), ("h", "arith.shrui %sz3, %sc40")]
    for n, e in ops:
        e = e.replace("SEED", seed)
        L.append("  %s%s = %s : i64" % (p, n, e.replace("%s", p)))
    L.append("  %shf = arith.uitofp %sh : i64 to f32" % (p, p))
    L.append("  %ssc = arith.constant 5.9604644775390625E-8 : f32" % p)
    L.append("  %su = arith.mulf %shf, %ssc : f32" % (p, p, p))
    L.append("  %sd = arith.subf %sb, %sa : f32" % (p, p, p))
    L.append("  %sdu = arith.mulf %sd, %su : f32" % (p, p, p))
    L.append("  %sr = arith.addf %sa, %sdu : f32" % (p, p, p))
    L.append("  linalg.yield %sr : f32" % p)
    L.append("} -> %s" % ty)
    return [ind + x for x in L]


def lower_rng(text):
    """The module with every StableHLO draw and autoac.rng.uniform lowered
    (above); the text unchanged when it has none."""
    if "stablehlo." not in text and "autoac.rng." not in text:
        return text
    out = []
    for ln in text.splitlines():
        m = _RNG.match(ln)
        if m:
            ind, name, a, b, _, ins, ty = m.groups()
            p = "%%rng_%s_" % re.sub(r"[^\w]", "_", name[1:])
            out.append("%s%sv = func.call @acRngNext() : () -> i64" % (ind, p))
            if ty == "tensor<1xui64>":
                out.append("%s%s = tensor.from_elements %sv : tensor<1xi64>" % (ind, name, p))
            else:
                out.extend(_uniform(ind, name, p + "v", a, b, ty))
            continue
        m = _GEN.match(ln)
        if m:
            ind, name, seed, a, b, ty = m.groups()
            p = "%%rng_%s_" % re.sub(r"[^\w]", "_", name[1:])
            out.extend(_uniform(ind, name, None, a, b, ty, seed_tensor=seed))
            continue
        m = _HCONST.match(ln)
        if m:
            ind, name, ty = m.groups()
            out.append("%s%s = arith.constant dense<0> : %s" % (ind, name, ty.replace("ui64", "i64")))
            continue
        if "stablehlo." in ln or "autoac.rng." in ln:
            raise Div("harness", "cannot lower this random op: %s" % ln.strip())
        out.append(ln)
    text = "\n".join(out) + "\n"
    text = text.replace("xui64>", "xi64>").replace("tensor<ui64>", "tensor<i64>")
    s = text.rstrip()
    i = s.rfind("}")
    return s[:i] + RNG_DECLS + "}\n"


def offload_of(strategy):
    return "auto" if strategy == "greedy" else "off"


def write_link(text, work):
    """The host link of a program's plans: a cost table giving only
    "@device" (LINKS, by the text's hash).  Returns its path."""
    bw = LINKS[int(hashlib.sha1(text.encode()).hexdigest(), 16) % len(LINKS)]
    path = os.path.join(work, "link.json")
    with open(path, "w") as f:
        json.dump({"@device": {"host_bandwidth": bw, "host_latency": 0}}, f)
    return path


def lower_and_run(tools, text, work, tag):
    src = os.path.join(work, tag + ".harness.mlir")
    text = lower_rng(text)
    with open(src, "w") as f:
        f.write(text)
    # Bytecode between the two tools: quicker to write and to read.
    ll = os.path.join(work, tag + ".ll.mlirbc")
    p = tools.run([tools.opt, "--load-pass-plugin=" + tools.plugin, src,
                   "--pass-pipeline=builtin.module(auto-ac-lower-cpu{buffer-alignment=0 use-generic-functions=1 count-host=1})",
                   "--emit-bytecode", "-o", ll])
    if p.returncode != 0:
        raise Div("lower-failed", "auto-ac-lower-cpu exit %d: %s" % (p.returncode, p.stderr.strip()[-600:]))
    out = os.path.join(work, tag + ".measure")
    if os.path.exists(out):
        os.unlink(out)
    env = dict(os.environ)
    env["AC_MEASURE_OUT"] = out
    env["AC_MEASURE_POISON"] = "1"
    p = tools.run([tools.runner, ll, "-e", "main", "-entry-point-result=void", "-O0",
                   "-shared-libs=" + tools.libs], env=env)
    if p.returncode != 0:
        raise Div("run-failed", "mlir-runner exit %d: %s" % (p.returncode, p.stderr.strip()[-600:]))
    meas, printed = read_counts(out, p.stdout)
    return meas, printed


# ---------------------------------------------------------------------------
# One program

def tensor_bytes(ty):
    pt = parse_tensor(ty)
    if pt is None:
        return 0
    n = ELEM[pt[1]]
    for d in pt[0]:
        n *= d
    return n


class Program:
    """A program under test: the module text and what it was made from."""

    def __init__(self, funcs, opts, cse, text=None):
        self.funcs = funcs
        self.opts = opts
        self.cse = cse
        self.text = text    # a module given as text (--case), instead of funcs

    def to_json(self):
        return dict(funcs=[[s.to_json() for s in f] for f in self.funcs], opts=self.opts, cse=self.cse)

    @staticmethod
    def from_json(j):
        return Program([[gen.Step.from_json(s) for s in f] for f in j["funcs"]], j["opts"], j["cse"])


# Generator features that triggered divergence classes, each a lit test in
# test/lit/difftest and a row of docs/reliability.md.  All fixed, none
# avoided by --avoid-known any more; the names stay accepted by --exclude to
# rerun old findings as they were drawn: `call` (calls are inlined before
# bufferization), `loop-arg` (a loop writing into an argument copies: the
# split makes such arguments read-only), `tensor-constant` (a tensor
# constant is a global: 0 bytes), `returned-view` (a gradient returned as a
# non-identity view, copied at the function boundary) and
# `noncontiguous-collapse` (a collapse_shape of a strided slice copies):
# both copies are in the cost model now (lib/import/layout.c,
# docs/fidelity.md cause 6).
KNOWN = ()
FIXED = ("call", "loop-arg", "tensor-constant", "returned-view", "noncontiguous-collapse")


def draw(seed, exclude=()):
    """The program of a seed; steps of the kinds in `exclude` are left out
    (`call` also leaves out the backward's calls)."""
    rng = random.Random(seed)
    funcs, opts = gen.random_program(rng)
    prog = Program(funcs, opts, rng.random() < 0.4)
    if exclude:
        prog.funcs = [[st for st in f if st.kind not in exclude] for f in prog.funcs]
        if "call" in exclude:
            prog.opts["bwd_call"] = False
        if "returned-view" in exclude:
            prog.opts["grad_copy"] = True
        if "loop-arg" in exclude:
            prog.opts["loop_init_copy"] = True
        if "tensor-constant" in exclude:
            prog.opts["no_tensor_const"] = True
        if "noncontiguous-collapse" in exclude:
            prog.opts["view_copy"] = True
    return prog, rng


def draw_configs(rng):
    """(strategy, budget spec, rng mode) triples; a budget spec is None (no
    budget), "lowest" (1 B) or a fraction of the way from the lowest peak
    to the save-all peak."""
    cfgs = []
    fracs = [round(rng.random(), 3) for _ in range(2)]
    for s in STRATEGIES:
        if s in ("save-all", "mincut"):
            specs = [None, fracs[0]]
        else:
            specs = [None, "lowest"] + fracs
        for b in specs:
            cfgs.append((s, b, "replay" if rng.random() < 0.3 else "keep"))
    return cfgs


class Runner:
    def __init__(self, tools, verbose=False, keep=None):
        self.tools = tools
        self.verbose = verbose
        self.keep = keep

    def log(self, msg):
        if self.verbose:
            sys.stderr.write(msg + "\n")

    def prepare(self, prog, work):
        """Writes input.mlir; returns (path, printed text, sigs, schedule)."""
        text = prog.text if prog.text is not None else gen.emit(prog.funcs, prog.opts)
        raw = os.path.join(work, "gen.mlir")
        with open(raw, "w") as f:
            f.write(text)
        cmd = [self.tools.opt, "--allow-unregistered-dialect", raw]
        if prog.cse:
            cmd.append("--cse")
        p = self.tools.run(cmd)
        if p.returncode != 0:
            raise Div("generator", "mlir-opt rejects the generated program: %s" % p.stderr.strip()[-400:])
        path = os.path.join(work, "input.mlir")
        with open(path, "w") as f:
            f.write(p.stdout)
        self.tools.link = write_link(p.stdout, work)
        sigs = joint_signature(p.stdout)
        names = [s[0] for s in sigs]
        m = re.search(r"ac\.schedule = \[([^\]]*)\]", p.stdout)
        if m:
            schedule = [x.strip().strip('"') for x in m.group(1).split(",")]
        else:
            schedule = ["%s.fwd" % n for n in names] + ["%s.bwd" % n for n in reversed(names)]
        return path, p.stdout, sigs, schedule

    def plan(self, path, work, strategy, budget, rngmode, tag, cli=False):
        """Plans with ac-opt (cli, or --plan-with=ac-opt) or, by default,
        with libautoac in a forked child of this process (forked_plan):
        the same acPlanMlirText the ac-opt driver calls, without starting a
        process and loading MLIR each time.  The same plan asked twice of
        one program is planned once."""
        key = (path, strategy, budget, rngmode)
        cache = getattr(self, "plan_cache", None)
        if cache is not None and key in cache and not cli:
            return cache[key]
        out = os.path.join(work, tag + ".planned.mlir")
        rep = os.path.join(work, tag + ".report.json")
        cmd = [self.tools.acopt, path, "--ac-mode=split", "--ac-strategy=" + strategy,
               "--ac-report=" + rep, "--ac-rng=" + rngmode,
               "--ac-offload=" + offload_of(strategy), "-o", out]
        if strategy == "greedy" and getattr(self.tools, "link", None):
            cmd.append("--ac-cost-table=" + self.tools.link)
        if budget is not None:
            cmd.append("--ac-budget=%d" % budget)
        if cli or self.tools.plan_with == "ac-opt":
            p = self.tools.run(cmd)
        else:
            p = self.tools.forked_plan(path, strategy, budget, rngmode, out, rep)
        cfg = dict(strategy=strategy, budget=budget, rng=rngmode)
        if p.returncode != 0:
            raise Div("plan-failed", "ac-opt exit %d: %s" % (p.returncode, p.stderr.strip()[-600:]), cfg)
        for ln in p.stderr.splitlines():
            if re.search(r"\berror\b", ln) and "warning:" not in ln:
                raise Div("plan-diagnostic", "ac-opt exit 0 but printed: %s" % ln, cfg)
        try:
            with open(rep) as f:
                report = json.load(f)
            with open(out) as f:
                planned = f.read()
        except (OSError, ValueError) as e:
            raise Div("plan-output", "exit 0 but no usable output/report: %s" % e, cfg)
        if cache is not None:
            cache[key] = (planned, report, p.stderr)
        return planned, report, p.stderr

    def probe(self, path, work):
        # The first plan of every program through the ac-opt driver, and
        # again through the library: the same IR and report.
        p0, r0, _ = self.plan(path, work, "save-all", None, "keep", "probe-saveall", cli=True)
        if self.tools.plan_with != "ac-opt":
            p1, r1, _ = self.plan(path, work, "save-all", None, "keep", "probe-saveall-lib")
            if p1 != p0 or r1 != r0:
                raise Div("plan-differs", "ac-opt and libautoac (acPlanMlirText) give another "
                          "plan or report for the same input and options")
        _, r1, _ = self.plan(path, work, "greedy", 1, "keep", "probe-lowest")
        # rng=replay plans another graph (seeds, generators): its own
        # save-all peak is what greedy under replay is held to.
        _, r2, _ = self.plan(path, work, "save-all", None, "replay", "probe-saveall-replay")
        self.saveall_by_rng = {"keep": r0["baseline_peak_bytes"]["save-all"],
                               "replay": r2["baseline_peak_bytes"]["save-all"]}
        return r0["baseline_peak_bytes"]["save-all"], r1["peak_bytes"]

    def budget_of(self, spec, lowest, saveall):
        if spec is None:
            return None
        if spec == "lowest":
            return 1
        return int(lowest + spec * (saveall - lowest))

    def check_program(self, prog, configs, stop_first=False):
        """Runs every config; returns the list of divergences (Div with
        .config set).  Generator faults raise."""
        work = self.keep or tempfile.mkdtemp(prefix="difftest.")
        os.makedirs(work, exist_ok=True)
        divs = []
        self.plan_cache = {}
        try:
            path, text, sigs, schedule = self.prepare(prog, work)
            # With several joint functions the harness (the caller) keeps
            # every function's inputs, tangents and outputs to the end,
            # while the simulator ends them with their function: the
            # measured peak may exceed the simulated one by at most that.
            slack = 0
            if len(sigs) > 1:
                slack = sum(tensor_bytes(ty) for _, args, _ in sigs for ty, at in args if "ac.param" not in at)
                slack += sum(tensor_bytes(ty) for _, _, res in sigs for ty, at in res if "ac.output" in at)
            tangent = slack
            try:
                meas0, ref = lower_and_run(self.tools, harness(text, sigs, schedule, False), work, "original")
            except Div as d:
                d.cls = "original-" + d.cls
                d.config = dict(strategy=None, budget=None, rng=None)
                return [d]
            saveall, lowest = self.probe(path, work)
            cache = {}
            greedy_peaks = []
            for i, (strategy, spec, rngmode) in enumerate(configs):
                budget = self.budget_of(spec, lowest, saveall)
                cfg = dict(strategy=strategy, budget_spec=spec, budget=budget, rng=rngmode)
                try:
                    self.one_config(path, work, sigs, schedule, ref, tangent, cache, greedy_peaks,
                                    strategy, budget, rngmode, saveall, i, spec)
                except Div as d:
                    d.config = cfg
                    divs.append(d)
                    self.log("  DIV %s %s" % (cfg, d))
                    if stop_first:
                        return divs
            # Monotone: a lower budget never gives a higher peak.
            # (Within one rng mode: rng=replay plans another graph.)
            gp = sorted(greedy_peaks)
            for (m1, b1, p1, s1), (m2, b2, p2, s2) in zip(gp, gp[1:]):
                if m1 == m2 and p1 > p2:
                    d = Div("not-monotone", "greedy: budget %d -> peak %d, budget %d -> peak %d" % (b1, p1, b2, p2))
                    d.config = dict(strategy="greedy", budget_spec="monotone", budget=b1, rng=m1,
                                    specs=[s1, s2])
                    divs.append(d)
            return divs
        finally:
            if not self.keep:
                shutil.rmtree(work, ignore_errors=True)

    def one_config(self, path, work, sigs, schedule, ref, tangent, cache, greedy_peaks,
                   strategy, budget, rngmode, saveall, i, spec=None):
        tag = "c%d" % i
        planned, rep, err = self.plan(path, work, strategy, budget, rngmode, tag)
        peak = rep.get("peak_bytes")
        feas = rep.get("feasible")
        if budget is not None and feas != (peak <= budget):
            raise Div("report", "feasible=%s but peak_bytes %d, budget %d" % (feas, peak, budget))
        # An unreachable budget is a warning naming the budget and the peak
        # the report gives; a reachable one gets none.
        w = re.search(r"warning: autoac: budget (\d+) bytes [^\n]*?, (\d+) bytes \(", err)
        if budget is not None and not feas:
            if not w or int(w.group(1)) != budget or int(w.group(2)) != peak:
                raise Div("diagnostic", "budget %d unreachable (peak %d) but no warning saying so: %s" % (
                    budget, peak, err.strip()[-300:]))
        elif w:
            raise Div("diagnostic", "a warning of an unreachable budget for a feasible plan: %s" % w.group(0))
        if strategy == "greedy":
            sa = getattr(self, "saveall_by_rng", {}).get(rngmode, saveall)
            if peak > sa:
                raise Div("worse-than-save-all", "greedy peak %d > save-all %d (rng=%s)" % (
                    peak, sa, rngmode))
            if budget is not None:
                greedy_peaks.append((rngmode, budget, peak, spec))
        key = hashlib.sha1(planned.encode()).hexdigest()
        if key not in cache:
            try:
                cache[key] = lower_and_run(self.tools, harness(planned, sigs, schedule, True), work, tag)
            except Div as d:
                cache[key] = d
        got = cache[key]
        if isinstance(got, Div):
            raise Div(got.cls, got.msg)
        meas, printed = got
        if printed != ref:
            raise Div("results-differ", "the planned program prints other results than the original")
        m = meas.get("region_peak_tagged_static")
        cp = str(rep.get("compiled_peak", "exact"))
        adj = m
        if peak <= m <= peak + tangent:
            adj = peak
        if budget is not None and feas and adj > budget:
            raise Div("over-budget", "report feasible at budget %d (simulated %d), measured %d" % (
                budget, peak, m))
        # "at most": a branch decided at run time allocates in one region
        # only; the plan counts it, the program may peak below.
        below_ok = cp.startswith("at most") and adj < peak
        if not cp.startswith("not guaranteed") and adj != peak and not below_ok:
            raise Div("peak-above-sim" if adj > peak else "peak-below-sim", "measured %d, simulated %d (%+.2f%%; harness slack %d B)" % (
                m, peak, 100.0 * (m - peak) / max(1, peak), tangent))
        # Host memory (offloaded saves): the compiled program's host buffers
        # live inside the simulator's host intervals.
        hs, hm = rep.get("host_peak_bytes", 0), meas.get("region_host_peak_bytes", 0)
        if hm > hs or (hm and not rep.get("offloaded_bytes")):
            raise Div("host-above-sim", "host memory measured %d, simulated %d" % (hm, hs))
        self.log("  ok %-8s budget %-10s rng %-6s peak %d measured %d%s" % (
            strategy, budget, rngmode, peak, m,
            " (offloaded %d, host %d of %d)" % (rep["offloaded_bytes"], hm, hs)
            if rep.get("offloaded_bytes") else ""))


# ---------------------------------------------------------------------------
# Shrinking: delta debugging over the steps, then the options

def ddmin(items, test):
    """Smallest sublist (1-minimal) of items for which test holds."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        subsets = [items[i:i + chunk] for i in range(0, len(items), chunk)]
        reduced = False
        for i in range(len(subsets)):
            comp = [x for j, s in enumerate(subsets) if j != i for x in s]
            if test(comp):
                items = comp
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    if len(items) == 1 and test([]):
        return []
    return items


def shrink(runner, prog, div, budget_spec, log=lambda s: None):
    cfg = div.config or {}
    cls = div.cls
    strategy = cfg.get("strategy")
    spec = cfg.get("budget_spec")
    rngmode = cfg.get("rng") or "keep"

    def holds(p):
        if spec == "monotone":
            cfgs = [("greedy", s, rngmode) for s in cfg.get("specs") or MONOTONE_SPECS]
        elif strategy is None:
            cfgs = []
        else:
            cfgs = [(strategy, spec, rngmode)]
        try:
            ds = runner.check_program(p, cfgs, stop_first=True)
        except Div:
            return False
        return any(d.cls == cls for d in ds)

    tries = [0]

    def test_steps(flat):
        tries[0] += 1
        funcs = [[] for _ in prog.funcs]
        for fi, st in flat:
            funcs[fi].append(st)
        return holds(Program(funcs, prog.opts, prog.cse))

    flat = [(fi, st) for fi, f in enumerate(prog.funcs) for st in f]
    flat = ddmin(flat, test_steps)
    funcs = [[] for _ in prog.funcs]
    for fi, st in flat:
        funcs[fi].append(st)
    cur = Program(funcs, dict(prog.opts), prog.cse)
    # Drop whole functions that hold no step, then options.
    while len(cur.funcs) > 1:
        done = True
        for fi in range(len(cur.funcs)):
            cand = Program(cur.funcs[:fi] + cur.funcs[fi + 1:], cur.opts, cur.cse)
            if holds(cand):
                cur = cand
                done = False
                break
        if done:
            break
    for k in ("x2", "bwd_call", "bwd_for"):
        if cur.opts.get(k):
            o = dict(cur.opts)
            o[k] = False
            if holds(Program(cur.funcs, o, cur.cse)):
                cur = Program(cur.funcs, o, cur.cse)
    if cur.cse and holds(Program(cur.funcs, cur.opts, False)):
        cur = Program(cur.funcs, cur.opts, False)
    for st in [s for f in cur.funcs for s in f]:
        if st.attr and True:
            a = st.attr
            st.attr = None
            if not holds(cur):
                st.attr = a
    log("  shrunk to %d steps in %d tries" % (sum(len(f) for f in cur.funcs), tries[0]))
    return cur


# ---------------------------------------------------------------------------

def run_seed(args):
    seed, build, do_shrink, outdir, verbose, exclude = args
    tools = Tools(build)
    runner = Runner(tools, verbose=verbose)
    prog, rng = draw(seed, exclude)
    configs = draw_configs(rng)
    t0 = time.time()
    try:
        divs = runner.check_program(prog, configs)
    except Div as d:
        return dict(seed=seed, error="%s" % d, cls=d.cls, divs=[], seconds=time.time() - t0)
    except Exception as e:  # the generator's own bug: report it, keep the run going
        return dict(seed=seed, error="tester crash: %r" % e, cls="tester-crash", divs=[],
                    seconds=time.time() - t0)
    res = []
    seen = set()
    for d in divs:
        rec = dict(cls=d.cls, msg=d.msg, config=d.config)
        key = d.cls
        if do_shrink and key not in seen:
            seen.add(key)
            try:
                small = shrink(runner, prog, d, None)
                rec["case"] = write_case(outdir, seed, d, small, runner)
                rec["kinds"] = sorted(set(st.kind for f in small.funcs for st in f))
                rec["steps"] = sum(len(f) for f in small.funcs)
            except Exception as e:  # keep the run going; say so
                rec["shrink_error"] = repr(e)
        res.append(rec)
    return dict(seed=seed, divs=res, seconds=round(time.time() - t0, 1),
                nsteps=sum(len(f) for f in prog.funcs), nfuncs=len(prog.funcs), cse=prog.cse)


def write_case(outdir, seed, d, prog, runner):
    os.makedirs(outdir, exist_ok=True)
    cfg = d.config or {}
    base = os.path.join(outdir, "seed-%d-%s-%s" % (seed, d.cls, cfg.get("strategy") or "none"))
    # The shrunk case's own numbers, not the first program's.
    try:
        cfgs = [] if cfg.get("strategy") is None else [
            (cfg["strategy"], cfg.get("budget_spec"), cfg.get("rng") or "keep")]
        if cfg.get("budget_spec") == "monotone":
            cfgs = [("greedy", s_, cfg.get("rng") or "keep") for s_ in cfg.get("specs") or MONOTONE_SPECS]
        again = [x for x in runner.check_program(prog, cfgs, stop_first=True) if x.cls == d.cls]
        if again:
            d = Div(d.cls, again[0].msg, cfg)
    except Div:
        pass
    text = gen.emit(prog.funcs, prog.opts)
    if prog.cse:
        p = subprocess.run([runner.tools.opt, "-", "--cse"], input=text, capture_output=True, text=True)
        if p.returncode == 0:
            text = p.stdout
    with open(base + ".mlir", "w") as f:
        f.write("// difftest seed %d: %s (%s)\n// config: %s%s\n" % (
            seed, d.cls, d.msg.replace("\n", " ")[:300], json.dumps(cfg),
            "\n// (after mlir-opt --cse)" if prog.cse else ""))
        f.write(text)
    with open(base + ".json", "w") as f:
        json.dump(dict(seed=seed, cls=d.cls, msg=d.msg, config=cfg, program=prog.to_json()), f, indent=1)
    return base + ".mlir"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="difftest", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", nargs="?", type=int, default=20, help="programs to run")
    ap.add_argument("seed", nargs="?", type=int, default=1, help="seed of the first program")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--build", default=os.environ.get("AUTOAC_BUILD", os.path.join(ROOT, "build")))
    ap.add_argument("--out", default="difftest-out", help="where shrunk cases go")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--one", type=int, help="run one seed, verbose, keep files in --keep")
    ap.add_argument("--keep", help="keep the work files here (with --one)")
    ap.add_argument("--replay", help="rerun a case .json (the generator's steps)")
    ap.add_argument("--case", help="check a case .mlir (its `// config:` line says how)")
    ap.add_argument("--exclude", help="leave out these step kinds (comma-separated, e.g. call; "
                    "returned-view: return no gradient as a view; noncontiguous-collapse: collapse no "
                    "strided slice; loop-arg: start no loop at an argument)")
    ap.add_argument("--avoid-known", action="store_true",
                    help="leave out what the known, open divergence classes need (%s): "
                    "what the CI slice runs" % ", ".join(KNOWN))
    ap.add_argument("--log", help="append one JSON line per program here")
    ap.add_argument("--time-limit", type=float, help="stop starting programs after this many seconds")
    ap.add_argument("--plan-with", choices=["lib", "ac-opt"], default="lib",
                    help="plan through libautoac in a forked child (default; each program's first "
                    "plan goes through the ac-opt driver too and must agree) or through ac-opt only")
    a = ap.parse_args(argv)
    Tools.plan_with = a.plan_with
    exclude = set(x for x in (a.exclude or "").split(",") if x)
    if a.avoid_known:
        exclude |= set(KNOWN)
    bad = exclude - set(gen.KINDS) - set(KNOWN) - set(FIXED)
    if bad:
        ap.error("--exclude: unknown step kind(s) %s (kinds: %s)" % (
            ", ".join(sorted(bad)), ", ".join(sorted(set(gen.KINDS)))))
    if a.one is not None:
        tools = Tools(a.build)
        runner = Runner(tools, verbose=True, keep=a.keep)
        prog, rng = draw(a.one, exclude)
        cfgs = draw_configs(rng)
        sys.stderr.write("seed %d: %d functions, %d steps, cse %s\n" % (
            a.one, len(prog.funcs), sum(len(f) for f in prog.funcs), prog.cse))
        divs = runner.check_program(prog, cfgs)
        for d in divs:
            print("DIVERGENCE seed=%d class=%s config=%s: %s" % (a.one, d.cls, json.dumps(d.config), d.msg))
        return 1 if divs else 0
    if a.case:
        # A case file (what the shrinker writes): the module, with its
        # configuration on the `// config:` line.
        with open(a.case) as f:
            text = f.read()
        m = re.search(r"^// config: (\{.*\})$", text, re.M)
        if not m:
            ap.error("%s: no '// config: {...}' line" % a.case)
        c = json.loads(m.group(1))
        tools = Tools(a.build)
        runner = Runner(tools, verbose=True, keep=a.keep)
        prog = Program(None, None, False, text=text)
        if c.get("budget_spec") == "monotone":
            cfgs = [("greedy", s_, c.get("rng") or "keep") for s_ in c.get("specs") or MONOTONE_SPECS]
        else:
            cfgs = [(c["strategy"], c.get("budget_spec"), c.get("rng") or "keep")]
        divs = runner.check_program(prog, cfgs)
        for d in divs:
            print("DIVERGENCE class=%s config=%s: %s" % (d.cls, json.dumps(d.config), d.msg))
        if not divs:
            print("difftest: %s: no divergence" % a.case)
        return 1 if divs else 0
    if a.replay:
        with open(a.replay) as f:
            j = json.load(f)
        tools = Tools(a.build)
        runner = Runner(tools, verbose=True, keep=a.keep)
        prog = Program.from_json(j["program"])
        c = j["config"]
        if c.get("budget_spec") == "monotone":
            cfgs = [("greedy", s, c.get("rng") or "keep") for s in c.get("specs") or MONOTONE_SPECS]
        elif c.get("strategy") is None:
            cfgs = []
        else:
            cfgs = [(c["strategy"], c.get("budget_spec"), c.get("rng") or "keep")]
        divs = runner.check_program(prog, cfgs)
        for d in divs:
            print("DIVERGENCE class=%s config=%s: %s" % (d.cls, json.dumps(d.config), d.msg))
        return 1 if divs else 0

    Tools(a.build)  # fail early
    seeds = list(range(a.seed, a.seed + a.n))
    jobs = [(s, a.build, not a.no_shrink, a.out, False, exclude) for s in seeds]
    t0 = time.time()
    ndiv = 0
    ran = 0
    classes = {}
    logf = open(a.log, "a") if a.log else None

    def handle(r):
        nonlocal ndiv, ran
        ran += 1
        if logf:
            logf.write(json.dumps(r) + "\n")
            logf.flush()
        if r.get("error"):
            print("ERROR seed=%d class=%s: %s" % (r["seed"], r["cls"], r["error"]), flush=True)
            classes[r["cls"]] = classes.get(r["cls"], 0) + 1
            ndiv += 1
        for d in r["divs"]:
            ndiv += 1
            classes[d["cls"]] = classes.get(d["cls"], 0) + 1
            print("DIVERGENCE seed=%d class=%s config=%s: %s%s" % (
                r["seed"], d["cls"], json.dumps(d["config"]), d["msg"][:300],
                (" -> " + d["case"]) if d.get("case") else ""), flush=True)

    if a.jobs <= 1:
        for j in jobs:
            if a.time_limit and time.time() - t0 > a.time_limit:
                break
            handle(run_seed(j))
    else:
        import multiprocessing
        with multiprocessing.Pool(a.jobs) as pool:
            it = iter(jobs)
            for r in pool.imap_unordered(run_seed, _limited(it, t0, a.time_limit)):
                handle(r)
    print("difftest: %d programs (seeds %d..%d), %d divergences%s, %.0f s" % (
        ran, a.seed, a.seed + a.n - 1, ndiv,
        (" (" + ", ".join("%s %d" % kv for kv in sorted(classes.items())) + ")") if classes else "",
        time.time() - t0))
    return 1 if ndiv else 0


def _limited(it, t0, limit):
    for j in it:
        if limit and time.time() - t0 > limit:
            return
        yield j


if __name__ == "__main__":
    sys.exit(main())
