"""autoac: plan activation checkpointing from Python.

    import autoac
    result = autoac.plan(open("model.mlir").read(), budget="24GB")
    result.report["peak_bytes"], result.ir

The package wraps libautoac.so with ctypes.  It finds the library through the
AUTOAC_LIBRARY environment variable, else (library_candidates()) next to the
package's modules, in the lib/ of the prefix the package is installed in
(`cmake --install` and `pip install --prefix` to the same prefix), in the
source tree's build/lib/ (`PYTHONPATH=python` from a checkout), and last by
the system loader's search (ld.so.conf, LD_LIBRARY_PATH).

The other parts, one subpackage each (docs/python.md): autoac.pytorch (the
door: partitioner, split, torch.compile backend), autoac.export (the joint
graph traced and written as MLIR), autoac.measure (measured peaks),
autoac.flows (torch-mlir and IREE); autoac.plot and `python3 -m autoac`.
"""
from __future__ import annotations

import ctypes
import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Union

__all__ = ["AutoacError", "PlanResult", "plan", "plan_file", "parse_size", "write_output",
           "library_path", "library_candidates", "cpu_profile"]

# The cpu device profiles' thread counts (lib/cost/device.c): PyTorch's CPU
# kernels on that many threads decide some op workspaces.
_CPU_THREADS = (1, 2, 4, 8, 16, 32, 64, 128)


def cpu_profile(threads: int) -> str:
    """The device profile for PyTorch's CPU kernels on `threads` threads
    (torch.get_num_threads()): "cpuN" for the smallest N >= threads, whose
    workspaces are never below those of `threads` threads (docs/cost-model.md,
    "Workspaces"); "cpu128" above that."""
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise ValueError(f"cpu_profile: threads must be an integer >= 1, not {threads!r}")
    return "cpu%d" % next((n for n in _CPU_THREADS if n >= threads), _CPU_THREADS[-1])

_option_names: Optional[tuple] = None


def _library_option_names(lib) -> tuple:
    """The options plan() accepts, as keywords: the library's
    acPassOptionNames (its one options table, autoac/options.def: every
    option but ac-opt's own), '-' spelled '_'."""
    first = ctypes.c_char_p.in_dll(lib, "acPassOptionNames")
    table = ctypes.cast(ctypes.addressof(first), ctypes.POINTER(ctypes.c_char_p))
    names, i = [], 0
    while table[i] is not None:
        names.append(table[i].decode().replace("-", "_"))
        i += 1
    return tuple(names)


def _library_strings(lib, symbol: str) -> Tuple[str, ...]:
    first = ctypes.c_char_p.in_dll(lib, symbol)
    table = ctypes.cast(ctypes.addressof(first), ctypes.POINTER(ctypes.c_char_p))
    out, i = [], 0
    while table[i] is not None:
        out.append(table[i].decode())
        i += 1
    return tuple(out)


def option_table() -> List[Tuple[str, str, str, str]]:
    """The options of the one table (autoac/options.def) that Python and the
    pass take, in contract order: (name as in the pass, e.g. "plan-out";
    kind, e.g. "SIZE" or "FLAG"; one line of help; the default as the usage
    text states it, "" when none).  Raises AutoacError when the library
    cannot be loaded."""
    lib = _load()
    cols = [_library_strings(lib, s) for s in ("acPassOptionNames", "acPassOptionKinds",
                                               "acPassOptionHelp", "acPassOptionDefaults")]
    return list(zip(*cols))


def __getattr__(name: str) -> Any:
    # _OPTION_NAMES is read from the library when first asked for.
    if name == "_OPTION_NAMES":
        _load()
        return _option_names
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class AutoacError(RuntimeError):
    """Raised when autoac rejects its input or options; the message is the
    library's own diagnostics (location, severity, text)."""


@dataclass
class PlanResult:
    """What one planning run returns."""
    ir: str                      #: the rewritten module
    report: Dict[str, Any]       #: the JSON report (docs/contract.md section 4)
    warnings: str                #: diagnostics printed on success (e.g. unreachable budget)


_LIBNAME = "libautoac.so"


def library_candidates() -> List[str]:
    """The paths looked at, in order, when AUTOAC_LIBRARY is not set: next to
    the package; the lib/ of the prefix it is installed in (the package in
    PREFIX/lib/pythonX.Y/site-packages/autoac, or in Debian's
    PREFIX/local/lib/python3.Y/dist-packages/autoac: PREFIX/lib); and the
    source tree's build/lib/."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = [os.path.join(here, _LIBNAME)]
    d = here
    for _ in range(4):
        d = os.path.dirname(d)
        if os.path.basename(d) in ("lib", "lib64"):
            found.append(os.path.join(d, _LIBNAME))
            parent = os.path.dirname(d)
            if os.path.basename(parent) == "local":
                found.append(os.path.join(os.path.dirname(parent), "lib", _LIBNAME))
            break
    found.append(os.path.normpath(os.path.join(here, "..", "..", "build", "lib", _LIBNAME)))
    return found


def library_path() -> str:
    """The shared library used: AUTOAC_LIBRARY if set (taken as is), else the
    first of library_candidates() that exists, else the bare name for the
    system loader's search."""
    env = os.environ.get("AUTOAC_LIBRARY")
    if env:
        return env
    for path in library_candidates():
        if os.path.exists(path):
            return path
    return _LIBNAME


_lib = None


class _AcError(ctypes.Structure):
    """autoac/support.h AcError."""
    _fields_ = [("status", ctypes.c_int), ("op", ctypes.c_int32),
                ("value", ctypes.c_int32), ("message", ctypes.c_char * 512)]


def write_output(path: str, text: Union[str, bytes]) -> None:
    """Writes `text` to `path` the way the library writes its own outputs
    (AcFileSet, autoac/report.h): a regular file (or a new name) replaced
    whole or not at all, a symbolic link's target replaced, a device or FIFO
    written through and never replaced.  Raises AutoacError on failure."""
    lib = _load()
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    if "\x00" in path:
        raise AutoacError(f"output path contains a NUL character: {path!r}")
    err = _AcError()
    files = lib.acFileSetCreate()
    if not files:
        raise AutoacError("out of memory")
    try:
        if (lib.acFileSetAdd(files, path.encode("utf-8", errors="surrogateescape"), data,
                             len(data), ctypes.byref(err)) != 0 or
                lib.acFileSetCommit(files, ctypes.byref(err)) != 0):
            raise AutoacError(err.message.decode("utf-8", errors="replace"))
    finally:
        lib.acFileSetDestroy(files)


def _load():
    global _lib, _option_names
    if _lib is None:
        path = library_path()
        if os.sep in path and not os.path.exists(path):
            raise AutoacError(f"libautoac.so not found at {path}: build autoac "
                              "(scripts/setup.sh) or set AUTOAC_LIBRARY")
        try:
            lib = ctypes.CDLL(path)
        except OSError as err:
            looked = ", ".join(library_candidates())
            raise AutoacError(f"libautoac.so could not be loaded ({err}); looked in {looked} and the "
                              "system's library path: build autoac (scripts/setup.sh), install it, "
                              "or set AUTOAC_LIBRARY") from None
        lib.acPlanMlirText.restype = ctypes.c_int
        lib.acPlanMlirText.argtypes = [
            ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_ssize_t, ctypes.POINTER(ctypes.c_void_p),
            ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)]
        lib.acFree.restype = None
        lib.acFree.argtypes = [ctypes.c_void_p]
        lib.acFileSetCreate.restype = ctypes.c_void_p
        lib.acFileSetCreate.argtypes = []
        lib.acFileSetAdd.restype = ctypes.c_int
        lib.acFileSetAdd.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
                                     ctypes.c_size_t, ctypes.POINTER(_AcError)]
        lib.acFileSetCommit.restype = ctypes.c_int
        lib.acFileSetCommit.argtypes = [ctypes.c_void_p, ctypes.POINTER(_AcError)]
        lib.acReadFile.restype = ctypes.c_int
        lib.acReadFile.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
                                   ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                                   ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(_AcError)]
        lib.acFileSetDestroy.restype = None
        lib.acFileSetDestroy.argtypes = [ctypes.c_void_p]
        lib.acParseSize.restype = ctypes.c_int
        lib.acParseSize.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64),
                                    ctypes.POINTER(_AcError)]
        _option_names = _library_option_names(lib)
        _lib = lib
    return _lib


def _take(lib, ptr: ctypes.c_void_p) -> Optional[str]:
    if not ptr.value:
        return None
    try:
        # Diagnostics quote the input, which may hold any bytes: never let a
        # decoding error replace autoac's own message.
        return ctypes.string_at(ptr.value).decode("utf-8", errors="replace")
    finally:
        lib.acFree(ptr)


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse_size(text: str) -> int:
    """Bytes of a size as the contract reads it ("24GB", "1.5GiB", "3e9"):
    the library's own parser (acParseSize); AutoacError with its message
    for anything else."""
    if "\x00" in text:
        raise AutoacError(f"size contains a NUL character: {text!r}")
    lib = _load()
    out, err = ctypes.c_int64(), _AcError()
    if lib.acParseSize(text.encode("utf-8", errors="surrogateescape"), ctypes.byref(out),
                       ctypes.byref(err)) != 0:
        raise AutoacError(err.message.decode("utf-8", errors="replace"))
    return out.value


def plan(mlir: Union[str, bytes], source_name: str = "<python>", **options: Any) -> PlanResult:
    """Plans MLIR text (a module with ac.joint functions) with contract options
    given as keywords (budget="24GB", strategy="greedy", mode="split",
    plan_out=..., ...).  Returns the rewritten IR and the report as a dict;
    raises AutoacError carrying the library's message on any failure."""
    if "\x00" in source_name:
        raise AutoacError(f"source_name contains a NUL character: {source_name!r}")
    lib = _load()
    text = mlir.encode("utf-8") if isinstance(mlir, str) else bytes(mlir)
    names, values = [], []
    for key, value in options.items():
        if value is None:
            continue
        if key not in _option_names:
            raise AutoacError(f"unknown option '{key}' (accepted: {', '.join(_option_names)})")
        text_value = _option_text(value)
        if "\x00" in text_value:
            # C strings end at NUL: "1KB\x00junk" would silently become 1KB.
            raise AutoacError(f"option '{key}' contains a NUL character: {text_value!r}")
        names.append(key.replace("_", "-").encode())
        values.append(text_value.encode("utf-8", errors="surrogateescape"))
    n = len(names)
    c_names = (ctypes.c_char_p * max(n, 1))(*names)
    c_values = (ctypes.c_char_p * max(n, 1))(*values)
    ir, report, errors = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    status = lib.acPlanMlirText(text, len(text), source_name.encode("utf-8", errors="surrogateescape"),
                                c_names, c_values,
                                n, ctypes.byref(ir), ctypes.byref(report), ctypes.byref(errors))
    ir_text, report_text, diag_text = _take(lib, ir), _take(lib, report), _take(lib, errors)
    if status != 0:
        raise AutoacError((diag_text or f"autoac failed with status {status}").strip())
    return PlanResult(ir=ir_text or "", report=json.loads(report_text) if report_text else {},
                      warnings=(diag_text or "").strip())


# autoac/support.h: AC_MAX_MLIR_FILE_BYTES and acReadFd's AC_READ_TEXT.
_MAX_MLIR_FILE_BYTES = 1 << 30
_READ_TEXT = 1


def read_file(path: str, what: str = "input") -> bytes:
    """The bytes of MLIR text file `path`, read by the library's one reader
    (acReadFile): a directory, a file past 1 GiB or holding a NUL byte
    (/dev/zero) is refused at once, never read without end.  Raises
    AutoacError naming `what` and the file."""
    lib = _load()
    if "\x00" in path:
        raise AutoacError(f"path contains a NUL character: {path!r}")
    out, size, err = ctypes.c_void_p(), ctypes.c_size_t(), _AcError()
    if lib.acReadFile(path.encode("utf-8", errors="surrogateescape"), what.encode(),
                      _MAX_MLIR_FILE_BYTES, _READ_TEXT, ctypes.byref(out), ctypes.byref(size),
                      ctypes.byref(err)) != 0:
        raise AutoacError(err.message.decode("utf-8", errors="replace"))
    try:
        return ctypes.string_at(out.value, size.value)
    finally:
        lib.acFree(out)


def plan_file(path: str, **options: Any) -> PlanResult:
    """Like plan(), reading the module from `path` (locations name the file)
    with the library's reader (read_file)."""
    return plan(read_file(path), source_name=path, **options)
