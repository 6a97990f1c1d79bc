"""python3 -m autoac measure (tools/ac-measure): the simulated peak of a plan against the measured peak of the
program it produces, run on the CPU.

    ac-measure model.mlir --budget=40MB [--strategy=greedy] [--json=out.json]

For a linalg-on-tensors module with one `ac.joint` function @f (and no
@main), it
  1. plans with `ac-opt --ac-mode=split --ac-report` at the budget;
  2. adds a harness @main to the original module and to the planned one:
     deterministic inputs, parameters and tangents, one call of @f between
     acMeasureBegin()/acMeasureEnd(), the gradients tagged, a hash and a sum
     of every result printed;
  3. lowers both with the user's pipeline, `mlir-opt --load-pass-plugin=
     AutoACPlugin.so --pass-pipeline='builtin.module(auto-ac-lower-cpu{...})'`
     (one-shot-bufferize, buffer-deallocation-pipeline,
     auto-ac-free-at-last-use, CPU lowering with the generic allocation
     functions; @f_fwd and @f_bwd stay functions) and runs them in
     mlir-runner with the counting allocator (runtime/count_alloc.c);
  4. prints the simulated and the measured peak of each, the error, and
     whether both printed the same results.

ac-measure changes no IR itself beyond adding the harness @main (except
--calls=inline, kept for comparison: it drops `no_inline` and inlines the
halves).  --print-pipeline prints every command it runs.
What is counted on each side, the pipeline and why: docs/fidelity.md.
Exit status: 0 when both ran and printed the same results, 1 otherwise
(and 3 with --max-error when an error exceeds it), 2 on a usage error.

The package's other module, torch_step.py, measures one PyTorch training
step through the door instead (autoac.pytorch.measure_step).
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))  # python/autoac/measure -> the repository

# The named pipeline (lib/lower/free.c, acLowerPipeline) and, for
# --no-free-pass, the same passes spelled out without auto-ac-free-at-last-use.
# count-host: offloaded saves' host buffers are counted apart from device
# memory (auto-ac-count-host; the runtime's host_* lines); on the GPU they
# stay host memory, pinned (auto-ac-gpu-buffers), and the GPU runtimes
# count them at their pinning (count-host changes nothing there).
NAMED = "auto-ac-lower-cpu{buffer-alignment=%d use-generic-functions=1 count-host=1}"
NAMED_GPU = "auto-ac-lower-gpu{buffer-alignment=%d}"
BUFFERIZE = ("one-shot-bufferize{bufferize-function-boundaries "
             "buffer-alignment=%d "
             "function-boundary-type-conversion=identity-layout-map}")
DEALLOC = "buffer-deallocation-pipeline"
# What auto-ac-lower-cpu runs before bufferizing so that TOSA and arith/math
# on whole tensors bufferize at all (lib/lower/free.c, acLowerPipeline).
TO_LINALG = ["func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor)",
             "auto-ac-to-linalg"]
LOWER = ("convert-bufferization-to-memref,convert-linalg-to-loops,convert-scf-to-cf,expand-strided-metadata,"
         "lower-affine,finalize-memref-to-llvm{use-generic-functions=true},"
         "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,convert-func-to-llvm,"
         "convert-cf-to-llvm,reconcile-unrealized-casts")


def die(msg, code=2):
    sys.stderr.write("ac-measure: %s\n" % msg)
    sys.exit(code)


# The most bytes of MLIR read (autoac/support.h, AC_MAX_MLIR_FILE_BYTES).
MAX_INPUT_BYTES = 1 << 30


def read_input(path):
    """The text of the input `path`, read as autoac's own reader reads it: a
    missing file, a directory, a file past 1 GiB or holding a NUL byte
    (/dev/zero) is one error line (die), never a traceback or an endless
    read."""
    chunks, size = [], 0
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(1 << 20)
                if not chunk:
                    break
                nul = chunk.find(b"\0")
                if nul >= 0:
                    die("input '%s' holds a NUL byte at offset %d: it is not a text file"
                        % (path, size + nul), 1)
                size += len(chunk)
                if size > MAX_INPUT_BYTES:
                    die("input '%s' is more than %d bytes, the most autoac reads"
                        % (path, MAX_INPUT_BYTES), 1)
                chunks.append(chunk)
    except IsADirectoryError:
        die("cannot read input '%s': it is a directory" % path, 1)
    except OSError as err:
        die("cannot read input '%s': %s" % (path, err.strerror or err), 1)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as err:
        die("input '%s' is not UTF-8 text (byte %d)" % (path, err.start), 1)


# ---------------------------------------------------------------------------
# Sizes


def parse_size(s):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*([KMGT]i?B|B)?\s*", s)
    if not m:
        die("bad size '%s' (expected bytes or a number with B, KB, MB, GB, "
            "KiB, MiB, GiB)" % s)
    v = float(m.group(1))
    unit = m.group(2) or "B"
    mult = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
            "KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3, "TiB": 1024 ** 4}
    return int(round(v * mult[unit]))


EXACT = False  # --bytes


def human(b):
    if b is None:
        return "-"
    if EXACT:
        return "%d" % b
    for unit, f in (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024)):
        if abs(b) >= f:
            return "%.2f %s" % (b / f, unit)
    return "%d B" % b


# ---------------------------------------------------------------------------
# The joint function's signature


def split_top(s, sep=","):
    """Splits s at `sep` outside (), <>, [], {} and quotes."""
    out, depth, cur, q = [], 0, [], False
    for ch in s:
        if q:
            cur.append(ch)
            if ch == '"':
                q = False
            continue
        if ch == '"':
            q = True
        elif ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur))
    return [x.strip() for x in out]


def matching(s, i):
    """Index of the bracket closing the one at s[i]."""
    pairs = {"(": ")", "<": ">", "[": "]", "{": "}"}
    stack = []
    for j in range(i, len(s)):
        ch = s[j]
        if ch in pairs:
            stack.append(pairs[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
            if not stack:
                return j
    return -1


TENSOR = re.compile(r"tensor<((?:(?:\d+|\?)x)*)(f32|f16|bf16|f64|i64|i32|i16|i8|i1)>")
INTS = ("i64", "i32", "i16", "i8", "i1")


def parse_tensor(t):
    m = TENSOR.fullmatch(t.strip())
    if not m:
        return None
    dims = [-1 if d == "?" else int(d) for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def arg_bytes(ty, i, argdims=None):
    """Bytes of argument i of type ty (its dynamic dimensions from argdims)."""
    pt = parse_tensor(ty)
    if pt is None:
        return 0
    dims, et = pt
    n = ELEM.get(et, 4)
    for d, s in enumerate(dims):
        n *= s if s != -1 else (argdims or {}).get((i, d), 0)
    return n


def joint_signature(text):
    """[(name, args, results)] of the ac.joint functions of a module printed
    by mlir-opt (one signature per line).  args: [(type, attrs)];
    results: [(type, attrs)]."""
    out = []
    for line in text.splitlines():
        m = re.match(r"\s*func\.func (?:(?:public|private|nested) )?@([\w$.-]+)\((.*)$", line)
        if not m or "ac.joint" not in line:
            continue
        name, rest = m.group(1), "(" + m.group(2)
        close = matching(rest, 0)
        argtext = rest[1:close]
        tail = rest[close + 1:]
        args = []
        for a in split_top(argtext):
            am = re.match(r"%[\w$.-]+\s*:\s*(.*)$", a)
            ty, attrs = am.group(1), ""
            b = ty.find(" {")
            if b >= 0:
                ty, attrs = ty[:b], ty[b:]
            args.append((ty.strip(), attrs))
        results = []
        tm = re.match(r"\s*->\s*(.*)$", tail)
        if tm:
            r = tm.group(1)
            if r.startswith("("):
                rc = matching(r, 0)
                parts = split_top(r[1:rc])
            else:
                parts = [r.split(" attributes")[0].rstrip(" {")]
            for p in parts:
                b = p.find(" {")
                if b >= 0:
                    results.append((p[:b].strip(), p[b:]))
                else:
                    results.append((p.strip(), ""))
        head = line[:line.find(name)]
        out.append((name, args, results))
    return out


# ---------------------------------------------------------------------------
# The harness


def idx_map(rank):
    d = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (d, d)


def linear_index(lines, dims, ind):
    """Appends lines computing the row-major linear index as i64; returns
    its name."""
    if not dims:
        lines.append(ind + "%k = arith.constant 0 : i64")
        return "%k"
    for i in range(len(dims)):
        lines.append(ind + "%%i%d = linalg.index %d : index" % (i, i))
    cur = "%i0"
    for i in range(1, len(dims)):
        if isinstance(dims[i], str):  # a dynamic size, an SSA value outside
            n = dims[i]
        else:
            lines.append(ind + "%%n%d = arith.constant %d : index" % (i, dims[i]))
            n = "%%n%d" % i
        lines.append(ind + "%%m%d = arith.muli %s, %s : index" % (i, cur, n))
        lines.append(ind + "%%l%d = arith.addi %%m%d, %%i%d : index" % (i, i, i))
        cur = "%%l%d" % i
    lines.append(ind + "%%k = arith.index_cast %s : index to i64" % cur)
    return "%k"


def tty(dims, et):
    return "tensor<%s%s>" % ("".join("?x" if d == -1 else "%dx" % d for d in dims), et)


def init_tensor(lines, name, dims, et, amp, freq, phase):
    """name = amp * sin(freq * k + phase), k the linear index; an integer
    tensor gets (k + round(10 * phase)) mod 5 (mod 2 for i1): small and
    non-negative, usable as an index or a class label."""
    t = tty(dims, et)
    rank = len(dims)
    lines.append("    %s_e = tensor.empty() : %s" % (name, t))
    lines.append("    %s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} outs(%s_e : %s) {" % (
        name, idx_map(rank), ", ".join(['"parallel"'] * rank), name, t))
    lines.append("    ^bb0(%%o: %s):" % et)
    ind = "      "
    k = linear_index(lines, dims, ind)
    if et in INTS:
        lines.append(ind + "%%ph = arith.constant %d : i64" % int(round(10 * phase)))
        lines.append(ind + "%%md = arith.constant %d : i64" % (2 if et == "i1" else 5))
        lines.append(ind + "%%u = arith.addi %s, %%ph : i64" % k)
        lines.append(ind + "%r = arith.remui %u, %md : i64")
        y = "%r"
        if et != "i64":
            lines.append(ind + "%%y = arith.trunci %%r : i64 to %s" % et)
            y = "%y"
        lines.append(ind + "linalg.yield %s : %s" % (y, et))
        lines.append("    } -> %s" % t)
        return
    lines.append(ind + "%%kf = arith.sitofp %s : i64 to f32" % k)
    lines.append(ind + "%%fr = arith.constant %.9e : f32" % freq)
    lines.append(ind + "%%ph = arith.constant %.9e : f32" % phase)
    lines.append(ind + "%%am = arith.constant %.9e : f32" % amp)
    lines.append(ind + "%u = arith.mulf %kf, %fr : f32")
    lines.append(ind + "%w = arith.addf %u, %ph : f32")
    lines.append(ind + "%s = math.sin %w : f32")
    lines.append(ind + "%r = arith.mulf %s, %am : f32")
    y = "%r"
    if et == "f64":
        lines.append(ind + "%y = arith.extf %r : f32 to f64")
        y = "%y"
    elif et in ("f16", "bf16"):
        lines.append(ind + "%%y = arith.truncf %%r : f32 to %s" % et)
        y = "%y"
    lines.append(ind + "linalg.yield %s : %s" % (y, et))
    lines.append("    } -> %s" % t)


BITS = {"f32": "i32", "f16": "i16", "bf16": "i16", "f64": "i64",
        "i64": "i64", "i32": "i32", "i16": "i16", "i8": "i8", "i1": "i1"}


def hash_tensor(lines, name, val, dims, et):
    """Prints [sum(bits), sum(bits * (k+1))] (i64, wrapping) and the f64
    sum of a result."""
    t = tty(dims, et)
    rank = len(dims)
    sc = "affine_map<(%s) -> ()>" % ", ".join("d%d" % i for i in range(rank))
    # Dynamic sizes for the linear index: tensor.dim of the result.
    dims = list(dims)
    for i, d in enumerate(dims):
        if d == -1:
            lines.append("    %s_c%d = arith.constant %d : index" % (name, i, i))
            lines.append("    %s_n%d = tensor.dim %s, %s_c%d : %s" % (name, i, val, name, i, t))
            dims[i] = "%s_n%d" % (name, i)
    for j, ty in ((0, "i64"), (1, "i64"), (2, "f64")):
        lines.append("    %s_e%d = tensor.empty() : tensor<%s>" % (name, j, ty))
        lines.append("    %s_z%d = linalg.fill ins(%%hz%s : %s) outs(%s_e%d : tensor<%s>) -> tensor<%s>" % (
            name, j, ty, ty, name, j, ty, ty))
    lines.append("    %s:3 = linalg.generic {indexing_maps = [%s, %s, %s, %s], iterator_types = [%s]} ins(%s : %s) outs(%s_z0, %s_z1, %s_z2 : tensor<i64>, tensor<i64>, tensor<f64>) {" % (
        name, idx_map(rank), sc, sc, sc, ", ".join(['"reduction"'] * rank), val, t,
        name, name, name))
    lines.append("    ^bb0(%%v: %s, %%s0: i64, %%s1: i64, %%s2: f64):" % et)
    ind = "      "
    k = linear_index(lines, dims, ind)
    bt = BITS[et]
    b = "%v"  # an integer's bits are its value
    if et not in INTS:
        lines.append(ind + "%%b = arith.bitcast %%v : %s to %s" % (et, bt))
        b = "%b"
    if bt != "i64":
        lines.append(ind + "%%bx = arith.extui %s : %s to i64" % (b, bt))
    else:
        lines.append(ind + "%%bx = arith.addi %s, %%hzi64 : i64" % b)
    lines.append(ind + "%one = arith.constant 1 : i64")
    lines.append(ind + "%%k1 = arith.addi %s, %%one : i64" % k)
    lines.append(ind + "%mk = arith.muli %bx, %k1 : i64")
    lines.append(ind + "%h0 = arith.addi %s0, %bx : i64")
    lines.append(ind + "%h1 = arith.addi %s1, %mk : i64")
    if et == "f64":
        lines.append(ind + "%vf = arith.addf %v, %hzf64 : f64")
    elif et == "i1":
        lines.append(ind + "%vf = arith.uitofp %v : i1 to f64")
    elif et in INTS:
        lines.append(ind + "%%vf = arith.sitofp %%v : %s to f64" % et)
    else:
        lines.append(ind + "%%vf = arith.extf %%v : %s to f64" % et)
    lines.append(ind + "%h2 = arith.addf %s2, %vf : f64")
    lines.append(ind + "linalg.yield %h0, %h1, %h2 : i64, i64, f64")
    lines.append("    } -> (tensor<i64>, tensor<i64>, tensor<f64>)")
    lines.append("    %s_x0 = tensor.extract %s#0[] : tensor<i64>" % (name, name))
    lines.append("    %s_x1 = tensor.extract %s#1[] : tensor<i64>" % (name, name))
    lines.append("    %s_h = tensor.from_elements %s_x0, %s_x1 : tensor<2xi64>" % (name, name, name))
    lines.append("    %s_u = tensor.cast %s_h : tensor<2xi64> to tensor<*xi64>" % (name, name))
    lines.append("    call @printMemrefI64(%s_u) : (tensor<*xi64>) -> ()" % name)
    lines.append("    %s_f = tensor.cast %s#2 : tensor<f64> to tensor<*xf64>" % (name, name))
    lines.append("    call @printMemrefF64(%s_f) : (tensor<*xf64>) -> ()" % name)


def poly_at(poly, sizes):
    """A report's polynomial ("1792*arg0.0 + 163840") at `sizes`."""
    total = 0
    for term in poly.split(" + "):
        value = 1
        for factor in term.split("*"):
            name, _, power = factor.partition("^")
            v = int(name) if name.isdigit() else sizes[name]
            value *= v ** int(power or 1)
        total += value
    return total


def peak_at(rep, sizes):
    """A dynamic report's peak at `sizes` (symbol -> size): the maximum of
    its peak_pieces (docs/contract.md, section 4)."""
    if not rep.get("peak_pieces_complete"):
        die("the report's peak_pieces are incomplete: no peak at given sizes")
    return max(poly_at(p, sizes) for p in rep["peak_pieces"])


def bucket_dims(b):
    """A report bucket's dimensions: its `dimensions` (several bucketed
    dimensions), or the bucket itself (one)."""
    return b.get("dimensions", [b])


def bucket_at(rep, sizes):
    """The report's bucket (option buckets) the dispatch runs at `sizes`
    (symbol -> size): in every bucketed dimension, the first bucket whose
    upper size holds the size, the last above; None without buckets."""
    buckets = rep.get("buckets", [])
    if not buckets:
        return None
    want = []
    for i, d in enumerate(bucket_dims(buckets[0])):
        uppers = sorted({bucket_dims(b)[i]["upper"] for b in buckets})
        n = sizes[d["symbol"]]
        want.append(next((u for u in uppers if n <= u), uppers[-1]))
    for b in buckets:
        if [d["upper"] for d in bucket_dims(b)] == want:
            return b
    return None


def bucket_text(b):
    """`arg0.1 5 to 8` (and more, comma-separated): a bucket's sizes."""
    return ", ".join("%s %d to %d" % (d["dimension"], d["lower"], d["upper"])
                     for d in bucket_dims(b))


def dynamic_sizes(rep, dims_text):
    """(symbol -> size, (arg, dim) -> size) from the report's symbols, each
    at its bound unless --dims names it (by the symbol or any argument
    dimension of it)."""
    sizes = {s["name"]: s["bound"] for s in rep.get("symbols", [])}
    of = {}
    for s in rep.get("symbols", []):
        for a in s.get("args", []):
            of[a] = s["name"]
    for item in split_top(dims_text or ""):
        name, eq, val = item.strip().rpartition("=")
        if not eq or not val.isdigit() or int(val) < 1:
            die("--dims: expected NAME=SIZE (SIZE >= 1), got %r" % item)
        sym = name if name in sizes else of.get(name)
        if sym is None:
            die("--dims: %r is no symbol or argument dimension of the report "
                "(symbols: %s)" % (name, ", ".join(sizes) or "none"))
        if int(val) > sizes[sym]:
            # Run anyway (the formula still says what it costs); the plan
            # and the budget are not promised there.
            sys.stderr.write("ac-measure: note: %s=%s is above the bound %d\n"
                             % (name, val, sizes[sym]))
        sizes[sym] = int(val)
    argdims = {}
    for a, sym in of.items():
        m = re.fullmatch(r"(?:.*:)?arg(\d+)\.(\d+)", a)
        if m:
            argdims[(int(m.group(1)), int(m.group(2)))] = sizes[sym]
    return sizes, argdims


def harness(fname, args, results, argdims=None):
    """The @main calling @fname once between the measurement marks.
    argdims: {(arg, dim): size} for the arguments' dynamic dimensions."""
    lines = []
    lines.append("  func.func private @acMeasureBegin()")
    lines.append("  func.func private @acMeasureEnd()")
    lines.append("  func.func private @acMeasureTag(i64)")
    lines.append("  func.func private @printMemrefI64(tensor<*xi64>) attributes {llvm.emit_c_interface}")
    lines.append("  func.func private @printMemrefF64(tensor<*xf64>) attributes {llvm.emit_c_interface}")
    lines.append("  func.func @main() {")
    lines.append("    %hzi64 = arith.constant 0 : i64")
    lines.append("    %hzf64 = arith.constant 0.0 : f64")
    names = []
    for i, (ty, attrs) in enumerate(args):
        pt = parse_tensor(ty)
        if pt is None:
            die("argument %d of @%s has type %s; the harness handles ranked "
                "float (f64/f32/f16/bf16) and integer (i64/i32/i16/i8/i1) "
                "tensors" % (i, fname, ty))
        dims, et = pt
        if -1 in dims:
            try:
                dims = [argdims[(i, d)] if s == -1 else s for d, s in enumerate(dims)]
            except (KeyError, TypeError):
                die("argument %d of @%s has type %s: no size for its dynamic "
                    "dimensions (the report names no symbol for them)" % (i, fname, ty))
        if "ac.param" in attrs and len(dims) >= 2:
            fan = 1
            for d in dims[:-1]:
                fan *= d
            amp = 1.0 / max(1.0, fan) ** 0.5
        else:
            amp = 0.5
        freq = 0.37 + 0.173 * i
        phase = 0.1 + 0.61 * i
        n = "%%arg_%d" % i
        init_tensor(lines, n, dims, et, amp, freq, phase)
        if tty(dims, et) != ty:
            lines.append("    %s_d = tensor.cast %s : %s to %s" % (n, n, tty(dims, et), ty))
            n += "_d"
        names.append(n)
    lines.append("    call @acMeasureBegin() : () -> ()")
    rt = [r for r, _ in results]
    res = "%res"
    call = "call @%s(%s) {no_inline} : (%s) -> (%s)" % (
        fname, ", ".join(names), ", ".join(a for a, _ in args), ", ".join(rt))
    if len(rt) == 1:
        lines.append("    %res_0 = " + call)
        rn = ["%res_0"]
    else:
        lines.append("    %%res:%d = %s" % (len(rt), call))
        rn = ["%%res#%d" % i for i in range(len(rt))]
    lines.append("    call @acMeasureEnd() : () -> ()")
    for i, (ty, attrs) in enumerate(results):
        if "ac.output" in attrs:
            continue
        dims, et = parse_tensor(ty)
        mt = "memref<%s%s>" % ("".join("?x" if d == -1 else "%dx" % d for d in dims), et)
        lines.append("    %%tb_%d = bufferization.to_buffer %s read_only : %s to %s" % (i, rn[i], ty, mt))
        lines.append("    %%tp_%d = memref.extract_aligned_pointer_as_index %%tb_%d : %s -> index" % (i, i, mt))
        lines.append("    %%tq_%d = arith.index_cast %%tp_%d : index to i64" % (i, i))
        lines.append("    call @acMeasureTag(%%tq_%d) : (i64) -> ()" % i)
    for i, (ty, attrs) in enumerate(results):
        pt = parse_tensor(ty)
        if pt is None:
            die("result %d of @%s has type %s; the harness handles ranked "
                "float and integer tensors" % (i, fname, ty))
        hash_tensor(lines, "%%hash_%d" % i, rn[i], pt[0], pt[1])
    lines.append("    return")
    lines.append("  }")
    return "\n".join(lines) + "\n"


def add_harness(text, h):
    """Inserts the harness into the module's body."""
    s = text.rstrip()
    # A resource section ({-# dialect_resources: ... #-}, large constants
    # torch-mlir imports) follows the module: the harness goes before it.
    tail = ""
    r = re.search(r"^\{-#", s, re.M)
    if r:
        s, tail = s[:r.start()].rstrip(), "\n" + s[r.start():] + "\n"
    if re.search(r"^module\b", s, re.M):
        i = s.rfind("}")
        return s[:i] + h + "}\n" + tail
    return "module {\n" + s + "\n" + h + "}\n"


# ---------------------------------------------------------------------------
# Reading generic-form IR, for --explain.

STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
NAME = re.compile(r"%[\w$.-]+")


class Op:
    __slots__ = ("lines", "defs", "uses", "name", "memref_results", "frees",
                 "dealloc_only")


def parse_ops(lines):
    """Splits the lines of a block body (at one depth) into ops."""
    ops, cur, depth = [], [], 0
    for ln in lines:
        if depth == 0 and ln.lstrip().startswith("^"):
            return None  # several blocks: leave the function alone
        cur.append(ln)
        bare = STRING.sub('""', ln)
        depth += bare.count("{") + bare.count("(") + bare.count("[") - \
            bare.count("}") - bare.count(")") - bare.count("]")
        if depth == 0:
            ops.append(cur)
            cur = []
    if cur:
        return None
    return ops


def analyse(op_lines):
    op = Op()
    op.lines = op_lines
    first = op_lines[0]
    text = "\n".join(op_lines)
    bare = STRING.sub('""', text)
    m = re.match(r"\s*((?:%[\w$.-]+(?::\d+)?(?:,\s*)?)+)\s*=\s*", first)
    op.defs = set()
    body = bare
    if m:
        for d in re.findall(r"%[\w$.-]+", m.group(1)):
            op.defs.add(d)
        body = bare[len(m.group(0)):]
    nm = re.search(r'"([\w.]+)"', text[len(m.group(0)) if m else 0:])
    op.name = nm.group(1) if nm else ""
    op.uses = set(u.split("#")[0] for u in NAME.findall(body)) - op.defs
    # Result types: after the last top-level ") -> " of the last line.
    last = op_lines[-1]
    op.memref_results = False
    if op.defs:
        k = last.rfind(") -> ")
        if k >= 0 and "memref<" in last[k:]:
            op.memref_results = True
    frees = re.findall(r'"memref\.dealloc"\((%[\w$.-]+)\)', text)
    op.frees = frees
    others = [l for l in op_lines if l.strip() and not re.search(
        r'"memref\.dealloc"|"scf\.yield"\(\)|^\s*\}\s*(,\s*\{)?\s*\)?|"scf\.if"|^\s*\{\s*$', l)]
    op.dealloc_only = bool(frees) and (op.name in ("memref.dealloc", "scf.if")) and not others
    return op


# ---------------------------------------------------------------------------
# --explain: the live bytes of the lowered @f op by op, beside the simulator's


MEMREF = re.compile(r"memref<((?:\d+x)*)(f32|f16|bf16|f64|i64|i32|i16|i8|i1|index)")
ELEM = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i64": 8, "i32": 4, "i16": 2,
        "i8": 1, "i1": 1, "index": 8}


def memref_bytes(t):
    m = MEMREF.search(t)
    if not m:
        return 0
    n = ELEM[m.group(2)]
    for d in m.group(1).split("x"):
        if d:
            n *= int(d)
    return n


def func_body(text, fname):
    """(entry block arg line or None, op line lists) of @fname (generic)."""
    lines = text.split("\n")
    for i, ln in enumerate(lines):
        m = re.match(r'(\s*)"func\.func"\(\) <\{.*sym_name = "([^"]+)"', ln)
        if not m or m.group(2) != fname:
            continue
        ind = m.group(1)
        body = []
        j = i + 1
        while j < len(lines) and not re.match(r"%s\}\)" % re.escape(ind), lines[j]):
            body.append(lines[j])
            j += 1
        head = None
        if body and body[0].lstrip().startswith("^bb0"):
            head, body = body[0], body[1:]
        return ln, head, parse_ops(body)
    return None, None, None


def explain(sunk_text, fname, report_timeline, args, results, out):
    """Walks @fname's lowered body: allocations, frees, linalg ops and
    copies, with the live bytes counted as ac-measure counts them (every
    argument live, returned gradients static), and lines them up with the
    simulator's timeline by the order of linalg ops."""
    fl, head, ops = func_body(sunk_text, fname)
    if ops is None:
        out.write("  (explain: @%s not found or not one block)\n" % fname)
        return
    infos = [analyse(o) for o in ops]
    size = {}
    ret = [x for x in infos if x.name == "func.return"]
    grads = set()
    if ret:
        names = [u.split("#")[0] for u in re.findall(r"%[\w$.#-]+", ret[-1].lines[0].split(":")[0])]
        for k, nm in enumerate(names):
            if k < len(results) and "ac.output" not in results[k][1]:
                grads.add(nm)
    argbytes = sum(memref_bytes(t.replace("tensor", "memref")) for t, _ in args)
    live = argbytes
    static = 0
    for x in infos:
        if x.name == "memref.alloc":
            for d in x.defs:
                if d in grads:
                    static += memref_bytes(x.lines[0])
    real = []   # (op index, name, live incl. static grads, allocs live)
    alive = {}
    for i, x in enumerate(infos):
        if x.name == "memref.alloc":
            b = memref_bytes(x.lines[0])
            for d in x.defs:
                size[d] = b
                if d not in grads:
                    alive[d] = b
        for f in x.frees:
            alive.pop(f, None)
        if x.name.startswith("linalg.") or x.name == "memref.copy":
            real.append((i, x.name, argbytes + static + sum(alive.values()), dict(alive)))
    sim = [t for t in report_timeline if t.get("function") == fname and
           str(t.get("op", "")).startswith("linalg.")]
    out.write("  explain @%s: %d linalg ops + copies lowered, %d linalg steps simulated\n"
              % (fname, len(real), len(sim)))
    out.write("    %5s %-26s %12s %12s %10s\n" % ("#", "op (lowered)", "measured", "simulated", "sim-meas"))
    k = 0
    prev = None
    peak_r = max((r[2] for r in real), default=0)
    peak_s = max((t["live_bytes"] for t in sim), default=0)
    for r in real:
        if r[1] == "memref.copy":
            out.write("    %5d %-26s %12d %12s %10s  (copy: not in the graph)\n" % (
                r[0], r[1], r[2], "-", "-"))
            continue
        s_ = sim[k]["live_bytes"] if k < len(sim) else None
        sop = sim[k]["op"] if k < len(sim) else "?"
        ph = sim[k].get("phase", "") if k < len(sim) else ""
        k += 1
        d = None if s_ is None else s_ - r[2]
        mark = ""
        if r[2] == peak_r:
            mark += " <- measured peak"
        if s_ == peak_s:
            mark += " <- simulated peak"
        if d != prev or mark or os.environ.get("AC_EXPLAIN_ALL"):
            out.write("    %5d %-26s %12d %12s %10s %s%s\n" % (
                r[0], r[1] + ("" if sop == r[1] else "/" + sop), r[2],
                "-" if s_ is None else s_, "-" if d is None else d, ph, mark))
        prev = d


# ---------------------------------------------------------------------------
# Running


class Tools:
    def __init__(self, a):
        self.llvm = a.llvm
        self.opt = os.path.join(a.llvm, "bin", "mlir-opt")
        self.runner = os.path.join(a.llvm, "bin", "mlir-runner")
        self.acopt = a.ac_opt
        self.runtime = a.runtime
        self.verbose = a.verbose
        self.opt_level = a.O
        self.plugin = a.plugin
        self.print_pipeline = a.print_pipeline
        self.torch_mlir_opt = a.torch_mlir_opt

    def run(self, cmd, what, stdin=None, env=None, timeout=None):
        if self.verbose:
            sys.stderr.write("+ %s\n" % " ".join(cmd))
        if self.print_pipeline:
            pre = ""
            if env is not None and "AC_MEASURE_OUT" in env:
                pre = "AC_MEASURE_OUT=%s " % shlex.quote(env["AC_MEASURE_OUT"])
            sys.stdout.write("$ %s%s\n" % (pre, " ".join(shlex.quote(c) for c in cmd)))
        t0 = time.time()
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           env=env, timeout=timeout)
        if p.returncode != 0:
            sys.stderr.write(p.stderr[-4000:])
            die("%s failed (exit %d): %s" % (what, p.returncode, " ".join(cmd)), 1)
        if self.verbose:
            sys.stderr.write("  (%.1f s)\n" % (time.time() - t0))
        return p


# torch-mlir-opt's torchdynamo-export-to-torch-backend-pipeline followed by
# torch-backend-to-linalg-on-tensors-backend-pipeline, spelled out
# (torch-mlir 20261001, --dump-pass-pipeline) without its last pass,
# torch-verify-linalg-on-tensors-backend-contract, which refuses the split's
# func.call ops; its inliner keeps the no_inline calls, so forward and
# backward stay functions and its CSE (per function) cannot merge a
# recompute in the backward with the forward's op.
_CAN = "canonicalize{region-simplify=normal}"
TORCH_TO_LINALG = (
    "builtin.module(inline{default-pipeline=canonicalize},"
    "func.func(torch-reduce-op-variants,%(c)s,torch-decompose-complex-ops,"
    "torch-recompose-complex-ops,%(c)s,torch-restructure-non-constant-axes,"
    "torch-fuse-quantized-ops,convert-torch-to-tmtensor,%(c)s,convert-torch-to-linalg,%(c)s,"
    "convert-torch-to-scf,convert-torch-to-arith,convert-torch-to-tensor),"
    "convert-torch-conversion-to-mlprogram,"
    "func.func(memref-expand,%(c)s,resolve-shaped-type-result-dims,cse),"
    "torch-func-backend-type-conversion,"
    "func.func(%(c)s,torch-finalizing-backend-type-conversion))") % {"c": _CAN}


# torch ops torch-mlir (20261001) has no linalg lowering for; its own
# failure names an unrelated op (a torch.constant it could not legalize).
NO_TORCH_MLIR_LOWERING = ("native_layer_norm_backward", "native_batch_norm_backward")


def lower_torch(tools, path, work, tag):
    """A torch-dialect module (autoac's output, or its input) lowered to
    linalg on tensors by torch-mlir-opt, across the version boundary in
    MLIR's generic form both ways, printed by Debian's mlir-opt.  The calls
    of the split halves get back their `no_inline` (torch-mlir's type
    conversion rebuilds calls without it)."""
    with open(path) as f:
        src = f.read()
    for op in NO_TORCH_MLIR_LOWERING:
        m = re.search(r'"torch\.aten\.%s"' % op, src)
        if m:
            line = src.count("\n", 0, m.start()) + 1
            die("%s:%d: 'torch.aten.%s' has no lowering in torch-mlir: decompose it in PyTorch "
                "first (python3 -m autoac export --importer torch-mlir does, unless "
                "--decompose none)" % (path, line, op), 1)
    gen = os.path.join(work, tag + ".torch.generic.mlir")
    lin = os.path.join(work, tag + ".linalg.generic.mlir")
    tools.run([tools.opt, "--allow-unregistered-dialect", "--mlir-print-op-generic", path,
               "-o", gen], "printing %s in generic form" % tag)
    tools.run([tools.torch_mlir_opt, gen, "--pass-pipeline=" + TORCH_TO_LINALG,
               "--mlir-print-op-generic", "-o", lin], "torch-mlir-opt (%s to linalg)" % tag)
    text = tools.run([tools.opt, lin], "reading torch-mlir-opt's %s" % tag).stdout
    bad = re.search(r'^.*(?:!torch\.|"torch\.).*$', text, re.M)
    if bad:
        die("torch-mlir-opt left torch ops or types in the %s module: %s" % (
            tag, bad.group(0).strip()[:200]), 1)
    return re.sub(r"(= call @[\w$.-]+_(?:fwd|bwd)\([^)]*\))( :)", r"\1 {no_inline}\2", text)


def read_counts(path, stdout):
    """What a run under the counting runtime left: its counts file (KEY=VALUE
    lines, integers where they parse) as a dict, and the program's printed
    output with the buffers' addresses masked (`base@ = ADDR`)."""
    meas = {}
    with open(path) as f:
        for ln in f:
            if "=" in ln:
                k, v = ln.strip().split("=", 1)
                try:
                    meas[k] = int(v)
                except ValueError:
                    meas[k] = v
    return meas, re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = ADDR", stdout)


def lower_and_run(tools, text, work, tag, calls, free_pass, poison,
                  explain_with=None, alignment=0, target="cpu"):
    """Returns (measurement dict, printed output, stats).  explain_with:
    (fname, timeline, args, results) to print --explain."""
    stats = {}
    src = os.path.join(work, tag + ".harness.mlir")
    with open(src, "w") as f:
        f.write(text)
    pre = []
    if calls == "inline":
        pre.append("inline{default-pipeline=}")
    if target == "gpu":
        pipe = ",".join(pre + [NAMED_GPU % alignment])
    elif free_pass:
        pipe = ",".join(pre + [NAMED % alignment])
    else:
        # The named pipeline inlines calls first (acLowerPipeline).
        inl = [] if pre else ["inline{default-pipeline=}"]
        pipe = ",".join(pre + inl + TO_LINALG + ["auto-ac-count-host", BUFFERIZE % alignment,
                                                 DEALLOC, LOWER])
    plugin = ["--load-pass-plugin=" + tools.plugin]
    if explain_with:
        # The IR the named pipeline lowers, after the free pass: for reading.
        epipe = ",".join(pre + ([] if pre else ["inline{default-pipeline=}"]) + TO_LINALG +
                         ["auto-ac-copy-returned-views", "auto-ac-copy-before-write"] +
                         [BUFFERIZE % alignment, DEALLOC] +
                         (["auto-ac-free-at-last-use"] if free_pass else []))
        buf = os.path.join(work, tag + ".buf.mlir")
        tools.run([tools.opt] + plugin + [src, "--pass-pipeline=builtin.module(%s)" % epipe,
                  "--mlir-print-op-generic", "-o", buf], "bufferization of " + tag)
        with open(buf) as f:
            btext = f.read()
        sys.stdout.write("  [%s]\n" % tag)
        explain(btext, explain_with[0], explain_with[1], explain_with[2],
                explain_with[3], sys.stdout)
    ll = os.path.join(work, tag + ".ll.mlir")
    tools.run([tools.opt] + plugin + [src, "--pass-pipeline=builtin.module(%s)" % pipe,
              "-o", ll], "lowering of " + tag)
    with open(ll) as f:
        ltext = f.read()
    stats["allocs_in_ir"] = len(re.findall(r"llvm\.call @_mlir_memref_to_llvm_(?:aligned_)?alloc\(", ltext))
    stats["frees_in_ir"] = len(re.findall(r"llvm\.call @_mlir_memref_to_llvm_free\(", ltext))
    out = os.path.join(work, tag + ".measure")
    if os.path.exists(out):
        os.unlink(out)
    env = dict(os.environ)
    env["AC_MEASURE_OUT"] = out
    if poison:
        env["AC_MEASURE_POISON"] = "1"
    lib = os.path.join(tools.llvm, "lib")
    # The counting runtime first: it alone defines _mlir_memref_to_llvm_*.
    libs = ",".join([tools.runtime, os.path.join(lib, "libmlir_runner_utils.so"),
                     os.path.join(lib, "libmlir_c_runner_utils.so")])
    t0 = time.time()
    p = tools.run([tools.runner, ll, "-e", "main", "-entry-point-result=void",
                   "-O%d" % tools.opt_level, "-shared-libs=" + libs],
                  "running " + tag, env=env)
    stats["run_seconds"] = round(time.time() - t0, 2)
    meas, printed = read_counts(out, p.stdout)
    return meas, printed, stats


def run_lowered(tools, path):
    """Runs an LLVM-dialect module's @main under the counting runtime."""
    fd, out = tempfile.mkstemp(prefix="ac-measure.", suffix=".counts")
    os.close(fd)
    try:
        env = dict(os.environ)
        env["AC_MEASURE_OUT"] = out
        lib = os.path.join(tools.llvm, "lib")
        libs = ",".join([tools.runtime, os.path.join(lib, "libmlir_runner_utils.so"),
                         os.path.join(lib, "libmlir_c_runner_utils.so")])
        p = tools.run([tools.runner, path, "-e", "main", "-entry-point-result=void",
                       "-shared-libs=" + libs], "running " + path, env=env)
        sys.stdout.write(p.stdout)
        with open(out) as f:
            sys.stdout.write(f.read())
    finally:
        os.unlink(out)
    return 0


def _parser():
    ap = argparse.ArgumentParser(
        prog="ac-measure", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("--budget", help="as --ac-budget (none: min-cut plan)")
    ap.add_argument("--strategy", default="greedy")
    ap.add_argument("--device", help="as --ac-device (default: ac-opt's)")
    ap.add_argument("--cost-table", help="as --ac-cost-table")
    ap.add_argument("--offload", choices=["auto", "off"], default="auto",
                    help="as --ac-offload (default auto: offload where the "
                         "plan chooses to on a device with a host link; the "
                         "host buffers are counted apart)")
    ap.add_argument("--ac-opt", default=None, help="ac-opt to plan with")
    ap.add_argument("--runtime", default=None, help="libac_count_alloc.so")
    ap.add_argument("--build", default=None,
                    help="build dir holding bin/ac-opt and lib/libac_count_alloc.so")
    ap.add_argument("--llvm", default="/usr/lib/llvm-22")
    ap.add_argument("--torch-mlir-opt", metavar="PATH",
                    help="the input is torch dialect (torch-mlir's FX importer): plan it as it "
                    "is, then lower the original and the planned module to linalg with this "
                    "torch-mlir-opt before running them (docs/flows.md)")
    ap.add_argument("--plan-on", choices=["linalg", "torch"], default="linalg",
                    help="with --torch-mlir-opt: plan the joint function after torch-mlir-opt "
                    "lowered it to linalg (default: the peak the compiled program has) or on the "
                    "torch dialect as imported (the names map to FX nodes; torch-mlir's lowering "
                    "then adds buffers the plan does not see)")
    ap.add_argument("--calls", choices=["inline", "keep"], default="keep",
                    help="keep @f_fwd/@f_bwd as functions (default: the user's "
                         "program), or inline them into @f before bufferizing "
                         "(drops no_inline; the measurement before the free pass)")
    ap.add_argument("--target", choices=["cpu", "gpu"], default="cpu",
                    help="cpu: auto-ac-lower-cpu, run on the CPU; gpu: "
                         "auto-ac-lower-gpu (buffers in GPU memory), the host "
                         "code run against runtime/count_gpu.c, a GPU runtime that "
                         "counts device allocations and frees "
                         "(kernels are not run: results are not compared)")
    ap.add_argument("--gpu-runtime", choices=["stub", "cuda"], default="stub",
                    help="with --target=gpu: stub (runtime/count_gpu.c, above; "
                         "no GPU needed) or cuda (runtime/count_cuda.c: the real "
                         "CUDA driver, managed buffers counted the same way; the "
                         "kernels run on the GPU and results are compared)")
    ap.add_argument("--no-free-pass", dest="free_pass", action="store_false",
                    help="lower with the upstream passes only (the frees where "
                         "buffer-deallocation-pipeline puts them)")
    ap.add_argument("--plugin", default=None,
                    help="AutoACPlugin.so for mlir-opt (default: beside ac-opt)")
    ap.add_argument("--print-pipeline", action="store_true",
                    help="print every command run (plan, lower, run), so a row "
                         "can be reproduced by hand (with --keep DIR)")
    ap.add_argument("--no-original", dest="original", action="store_false",
                    help="measure only the planned program")
    ap.add_argument("--no-poison", dest="poison", action="store_false",
                    help="do not fill freed buffers with NaN bytes (they are by "
                         "default, so a buffer freed too early changes the results)")
    ap.add_argument("--buffer-alignment", type=int, default=0,
                    help="one-shot-bufferize buffer-alignment (default 0: exact "
                         "sizes; 64, MLIR's default, adds 64 B per buffer)")
    ap.add_argument("--save-output", help="write the original's printed results here")
    ap.add_argument("--expect-output",
                    help="compare the planned program's printed results with this "
                         "file (a --save-output of an earlier run)")
    ap.add_argument("--O", type=int, default=2, help="mlir-runner opt level")
    ap.add_argument("--json", help="write the results as JSON here")
    ap.add_argument("--keep", help="keep the intermediate files in this dir")
    ap.add_argument("--max-error", type=float,
                    help="exit 3 when |error| exceeds this many percent")
    ap.add_argument("--label", help="name for the table (default: the file)")
    ap.add_argument("--bytes", action="store_true", help="print sizes in bytes")
    ap.add_argument("--run-lowered", action="store_true",
                    help="the input is already lowered to the LLVM dialect (with "
                         "the generic allocation functions): run its @main with "
                         "the counting runtime, print its output and the counts")
    ap.add_argument("--explain", action="store_true",
                    help="print the lowered @f's live bytes op by op beside the "
                         "simulator's timeline")
    ap.add_argument("--max-dim", action="append", default=[],
                    help="as --ac-max-dim (repeatable): bounds of dynamic "
                         "dimensions for the plan")
    ap.add_argument("--dims",
                    help="run a dynamic module at these sizes: SYMBOL=SIZE or "
                         "argI.D=SIZE, comma-separated (default: the bounds); "
                         "the simulated peaks are the report's formula there")
    ap.add_argument("--buckets",
                    help="as --ac-buckets: one plan per size bucket of a "
                         "dimension (argI.D:B1,...,Bn); the simulated peak is "
                         "that of the bucket holding the size run at")
    ap.add_argument("-v", "--verbose", action="store_true")
    return ap


def _resolve_tools(a):
    """Which ac-opt, runtime and plugin (--ac-opt, else --build, else
    $AUTOAC_BUILD, else the one on PATH: lit puts the build under test
    there, else build/), and the options' consistency; dies naming what."""
    build = a.build or os.environ.get("AUTOAC_BUILD")
    if not a.ac_opt:
        if build:
            a.ac_opt = os.path.join(build, "bin", "ac-opt")
        else:
            a.ac_opt = shutil.which("ac-opt") or os.path.join(ROOT, "build", "bin", "ac-opt")
    if not a.runtime and a.ac_opt:
        a.runtime = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(a.ac_opt))),
                                 "lib", "libac_count_cuda.so" if a.target == "gpu" and
                                 a.gpu_runtime == "cuda" else "libac_count_alloc.so")
    if not a.plugin and a.ac_opt:
        a.plugin = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(a.ac_opt))),
                                "lib", "AutoACPlugin.so")
    for what, p in (("ac-opt", a.ac_opt), ("the counting runtime", a.runtime),
                    ("the mlir-opt plugin", a.plugin)):
        if not p or not os.path.exists(p):
            die("%s not found (%s); pass --build, --ac-opt or --runtime" % (what, p))
    if a.torch_mlir_opt and not (os.path.isfile(a.torch_mlir_opt) and os.access(a.torch_mlir_opt, os.X_OK)):
        die("--torch-mlir-opt: %s is no executable (torch-mlir's wheel installs torch-mlir-opt "
            "next to the Python that scripts/mlir-env.sh prints)" % a.torch_mlir_opt)
    if a.torch_mlir_opt and a.target != "cpu":
        die("--torch-mlir-opt applies to --target=cpu")
    if a.gpu_runtime == "cuda" and a.target != "gpu":
        die("--gpu-runtime=cuda applies to --target=gpu")
    if a.target == "gpu" and not a.free_pass:
        die("--no-free-pass applies to --target=cpu (auto-ac-lower-gpu always "
            "frees at the last use)")
    return Tools(a)


def _read_joint(tools, a, work):
    """The input as the original program runs it (torch lowered to linalg
    where asked), and its one joint function's signature."""
    if a.torch_mlir_opt and a.plan_on == "linalg":
        norm = lower_torch(tools, a.input, work, "original")
        a.input = os.path.join(work, "input.linalg.mlir")
        with open(a.input, "w") as f:
            f.write(norm)
        a.torch_mlir_opt = None    # planned and run as linalg from here
    elif a.torch_mlir_opt:
        norm = lower_torch(tools, a.input, work, "original")
    else:
        norm = tools.run([tools.opt, a.input], "parsing the input").stdout
    sigs = joint_signature(norm)
    if len(sigs) != 1:
        die("expected one ac.joint function in %s, found %d" % (a.input, len(sigs)))
    if re.search(r"func\.func (?:\w+ )?@main\(", norm):
        die("%s has a @main; ac-measure adds its own" % a.input)
    return norm, sigs[0]


class _Plan:
    """ac-opt's plan of the input: the report, the planned program's text,
    the simulated peaks of both programs, and for dynamic shapes the sizes
    run at (`sizes`, `argdims`)."""

    def __init__(self, tools, a, work):
        report = os.path.join(work, "report.json")
        planned = os.path.join(work, "planned.mlir")
        # Offload: the runtime counts the offloaded saves' host buffers apart
        # (count-host), on the GPU as on the CPU.
        cmd = [tools.acopt, a.input, "--ac-mode=split", "--ac-strategy=" + a.strategy,
               "--ac-report=" + report, "-o", planned]
        if a.budget:
            cmd.append("--ac-budget=" + a.budget)
        if a.device:
            cmd.append("--ac-device=" + a.device)
        if a.cost_table:
            cmd.append("--ac-cost-table=" + a.cost_table)
        cmd.append("--ac-offload=" + a.offload)
        cmd += ["--ac-max-dim=" + m for m in a.max_dim]
        if a.buckets:
            cmd.append("--ac-buckets=" + a.buckets)
        tools.run(cmd, "ac-opt")
        with open(report) as f:
            self.rep = json.load(f)
        self.argdims, self.sizes = None, None
        self.sim_planned = self.rep["peak_bytes"]
        self.sim_original = self.rep["baseline_peak_bytes"].get("save-all")
        if self.rep.get("symbols"):
            self._dynamic(tools, a, work)
        elif a.dims:
            die("--dims: %s has no dynamic dimension" % a.input)
        if a.torch_mlir_opt:
            self.text = lower_torch(tools, planned, work, "planned")
        else:
            with open(planned) as f:
                self.text = f.read()
        # The split's calls carry no_inline (docs/rewrite.md); drop it so the
        # halves can be inlined into @f for measurement.
        if a.calls == "inline":
            self.text = self.text.replace(" {no_inline}", "")

    def _dynamic(self, tools, a, work):
        """Dynamic shapes: the sizes to run at, and the peaks the formulas
        give there (the original's: the save-all plan's formula)."""
        rep = self.rep
        self.sizes, self.argdims = dynamic_sizes(rep, a.dims)
        self.sim_planned = peak_at(rep, self.sizes)
        bucket = bucket_at(rep, self.sizes)
        if bucket is not None:
            # The dispatch runs this bucket's plan: its peak and budget.
            self.sim_planned = peak_at(bucket, self.sizes)
            rep["feasible"] = bucket.get("feasible")
        if a.original:
            r0 = os.path.join(work, "report-original.json")
            tools.run([tools.acopt, a.input, "--ac-strategy=save-all",
                       "--ac-report=" + r0, "-o", os.path.join(work, "sa.mlir")] +
                      ["--ac-max-dim=" + m for m in a.max_dim], "ac-opt (save-all)")
            with open(r0) as f:
                self.sim_original = peak_at(json.load(f), self.sizes)


def _explain_timeline(tools, a, work, plan, tag):
    """--explain: the simulator's timeline of the program `tag` runs (the
    save-all baseline's for the original, from a second report)."""
    if tag != "original":
        return plan.rep.get("timeline", [])
    r2 = os.path.join(work, "report-save-all.json")
    tools.run([tools.acopt, a.input, "--ac-mode=split",
               "--ac-strategy=save-all", "--ac-report=" + r2,
               "-o", os.path.join(work, "save-all.mlir")], "ac-opt (save-all)")
    with open(r2) as f:
        return json.load(f).get("timeline", [])


def _measure_programs(tools, a, work, norm, sig, plan):
    """Lowers and runs the original (unless --no-original) and the planned
    program under the counting runtime: one row per program, and each
    one's printed results."""
    fname, args, results = sig
    h = harness(fname, args, results, plan.argdims)
    # @main makes the tangents before the call, so they are live from
    # the start of the measured region; the simulator counts them from
    # the start of the backward (docs/fidelity.md): a measured peak
    # above the simulated one by at most their bytes is the harness's,
    # as the differential tester takes it too.
    tangent = sum(arg_bytes(ty, i, plan.argdims) for i, (ty, at) in enumerate(args)
                  if "ac.tangent" in at)
    rows, outputs, progs = [], {}, []
    if a.original:
        progs.append(("original", norm, plan.sim_original, "save-all baseline"))
    progs.append(("planned", plan.text, plan.sim_planned,
                  "%s%s" % (a.strategy, " @ " + a.budget if a.budget else "")))
    for tag, text, sim, what in progs:
        ex = None
        if a.explain:
            ex = (fname, _explain_timeline(tools, a, work, plan, tag), args, results)
        meas, printed, stats = lower_and_run(
            tools, add_harness(text, h), work, tag, a.calls, a.free_pass, a.poison, ex,
            a.buffer_alignment, a.target)
        outputs[tag] = printed
        m = meas.get("region_peak_tagged_static")
        err = None if (m is None or sim is None or m == 0) else 100.0 * (sim - m) / m
        slack = err is not None and sim < m <= sim + tangent
        if slack:
            err = 0.0
        rows.append(dict(program=tag, plan=what, simulated=sim, measured=m,
                         measured_raw=meas.get("region_peak_bytes"),
                         error_pct=err, tangent_slack=m - sim if slack else 0,
                         measure=meas, stats=stats))
        if tag == "planned" and plan.rep.get("offloaded_bytes"):
            # Host memory, apart: the offloaded saves' host buffers.
            rows[-1]["host_simulated"] = plan.rep.get("host_peak_bytes")
            rows[-1]["host_measured"] = meas.get("region_host_peak_bytes")
    return rows, outputs


def _results_equal(a, outputs):
    """Whether the planned program printed what the original did (or what
    --expect-output holds); None where nothing is compared."""
    if a.target == "gpu" and a.gpu_runtime == "stub":
        return None  # the kernels are stubs: no numbers to compare
    if "original" in outputs:
        if a.save_output:
            with open(a.save_output, "w") as f:
                f.write(outputs["original"])
        return outputs["original"] == outputs["planned"]
    if a.expect_output:
        with open(a.expect_output) as f:
            return f.read() == outputs["planned"]
    return None


def _print_header(a, label, plan):
    rep, sizes = plan.rep, plan.sizes
    print("ac-measure %s (budget %s, strategy %s, calls %s%s%s%s)" % (
        label, a.budget or "none", a.strategy, a.calls,
        (", target gpu (device peak, %s)" % ("counting GPU runtime" if a.gpu_runtime == "stub"
                                             else "CUDA driver, counted"))
        if a.target == "gpu" else "",
        "" if a.free_pass else ", no free pass",
        ", buffer-alignment %d" % a.buffer_alignment if a.buffer_alignment else ""))
    print("  static (params + grads): %s; feasible: %s" % (
        human(rep.get("static_bytes")), rep.get("feasible")))
    if sizes is not None and bucket_at(rep, sizes) is not None:
        b = bucket_at(rep, sizes)
        print("  bucket %d: %s, @%s, peak at %s: %s" % (
            b["index"], bucket_text(b), b["function"],
            ", ".join(str(d["upper"]) for d in bucket_dims(b)),
            human(b["peak_bytes"])))
    if sizes is not None:
        print("  sizes: %s (bounds: %s)" % (
            ", ".join("%s=%d" % kv for kv in sorted(sizes.items())),
            ", ".join("%s=%d" % (s["name"], s["bound"]) for s in rep["symbols"])))


def _print_rows(a, plan, rows, same):
    """The table of programs, host memory, the comparison; returns whether
    the planned program's measured peak is within a feasible budget (None
    where there is no such budget)."""
    rep = plan.rep
    print("  %-9s %-22s %14s %14s %8s" % ("program", "plan", "simulated", "measured", "error"))
    for r in rows:
        print("  %-9s %-22s %14s %14s %8s" % (
            r["program"], r["plan"], human(r["simulated"]), human(r["measured"]),
            "-" if r["error_pct"] is None else "%+.2f%%" % r["error_pct"])
            + (" (+%d B: the harness's tangents, live from the start)" % r["tangent_slack"]
               if r.get("tangent_slack") else ""))
    for r in rows:
        if "host_simulated" in r:
            print("  %-9s %-22s %14s %14s" % (
                "", "host (offloaded %s)" % human(rep.get("offloaded_bytes")),
                human(r["host_simulated"]), human(r["host_measured"])))
    if same is not None:
        print("  results equal: %s" % ("yes" if same else "NO"))
    within = None
    if rep.get("budget_bytes") is not None and rep["budget_bytes"] >= 0 and \
            rep.get("feasible") and rows[-1]["measured"] is not None:
        within = rows[-1]["measured"] <= rep["budget_bytes"]
        print("  planned within budget: %s" % ("yes" if within else "NO"))
    elif a.target == "gpu" and a.gpu_runtime == "stub":
        print("  results: not computed (kernels are not run)")
    if a.verbose:
        for r in rows:
            print("  %s: %s %s" % (r["program"], r["measure"], r["stats"]))
    return within


def _measure(tools, a, work):
    """Plans, measures and prints one input; the exit status."""
    norm, sig = _read_joint(tools, a, work)
    plan = _Plan(tools, a, work)
    rows, outputs = _measure_programs(tools, a, work, norm, sig, plan)
    same = _results_equal(a, outputs)
    label = a.label or os.path.basename(a.input)
    _print_header(a, label, plan)
    within = _print_rows(a, plan, rows, same)
    rep = plan.rep
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(input=a.input, label=label, budget=a.budget,
                           ac_opt=a.ac_opt, buffer_alignment=a.buffer_alignment,
                           budget_bytes=rep.get("budget_bytes"),
                           strategy=a.strategy, calls=a.calls, free_pass=a.free_pass,
                           static_bytes=rep.get("static_bytes"),
                           sizes=plan.sizes, within_budget=within,
                           feasible=rep.get("feasible"),
                           results_equal=same, rows=rows), f, indent=1)
    if not all(r["measured"] is not None for r in rows) or same is False or within is False:
        return 1
    if a.max_error is not None and any(
            r["error_pct"] is not None and abs(r["error_pct"]) > a.max_error for r in rows):
        print("  error above %.2f%%" % a.max_error)
        return 3
    return 0


def main(argv=None):
    a = _parser().parse_args(argv)
    read_input(a.input)  # one error line for a missing, endless or binary input
    tools = _resolve_tools(a)
    global EXACT
    EXACT = a.bytes
    if a.run_lowered:
        return run_lowered(tools, a.input)
    work = a.keep or tempfile.mkdtemp(prefix="ac-measure.")
    os.makedirs(work, exist_ok=True)
    try:
        return _measure(tools, a, work)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


