"""oneDNN's instruction set, as the CPU profiles' workspace model needs it.

The cpu profiles' convolution workspaces (docs/cost-model.md, "Workspaces")
model oneDNN 2.6's AVX2 kernels, as torch 1.13 runs them.  On a CPU with
AVX-512, oneDNN takes other kernels (16-channel blocks, other weight-gradient
kernels and scratchpads), whose workspaces the model does not give: the step
PyTorch runs then peaks elsewhere than the plan (measured on an AVX-512 CPU:
convolution workspaces from 28 % below to 11x above the model's, steps 13 %
and 33 % below the planned peak).  So the door limits oneDNN to AVX2 when it is imported, before
oneDNN chose its instruction set (oneDNN fixes it at its first primitive):
`dnnl_set_max_cpu_isa` on the library torch loaded, or, where its symbols are
hidden (a static build), the environment variable oneDNN reads then.

AUTOAC_ONEDNN_ISA=native keeps oneDNN's own choice; the door then warns, on
every CPU plan, that the convolution workspaces are AVX2's.
"""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Optional

# dnnl_cpu_isa_t (oneDNN 2.x): each ISA's bits include those below it.
_AVX2 = 0x7
_NAMES = {0x1: "sse41", 0x3: "avx", 0x7: "avx2", 0xF: "avx512_mic", 0x1F: "avx512_mic_4ops",
          0x27: "avx512_core", 0x67: "avx512_core_vnni", 0xE7: "avx512_core_bf16",
          0x3E7: "avx512_core_amx", 0x407: "avx2_vnni"}
_LIBRARIES = ("libdnnl.so.2", "libdnnl.so.3", "libdnnl.so", "libmkldnn.so.1", "libmkldnn.so.0")


@dataclass(frozen=True)
class OneDnnIsa:
    """What the door did about oneDNN's instruction set.

    status: "pinned" (limited to AVX2 by the door), "avx2" (the CPU or an
    earlier setting gives AVX2 or less: nothing to do), "native" (kept at
    the user's request), "too-late" (oneDNN had already chosen: a convolution
    ran before the door was imported), "requested" (set through the
    environment; oneDNN's symbols are hidden, so unverified) or "absent"
    (torch runs without oneDNN) or "unknown" (asking oneDNN failed: `error`
    says why).  effective: oneDNN's ISA name, None where it cannot be
    read."""
    status: str
    effective: Optional[str]
    error: str = ""

    @property
    def matches_model(self) -> bool:
        """Whether convolutions run the kernels the cpu profiles model."""
        return self.status in ("pinned", "avx2", "requested", "absent")

    @property
    def warning(self) -> str:
        """The warning a CPU plan carries when the kernels are not the
        modelled ones ("" when they are)."""
        if self.matches_model:
            return ""
        if self.status == "unknown":
            return (f"warning: autoac: could not limit oneDNN to AVX2 ({self.error}); the cpu "
                    "profiles model its AVX2 kernels, so the step's convolution workspaces, and "
                    "its peak, may differ from the plan's")
        why = ("AUTOAC_ONEDNN_ISA=native" if self.status == "native" else
               "oneDNN had chosen its instruction set before autoac.pytorch was imported")
        return (f"warning: autoac: oneDNN runs {self.effective} kernels ({why}); the cpu profiles "
                "model its AVX2 kernels, so the step's convolution workspaces, and its peak, may "
                "differ from the plan's (import autoac.pytorch before running any convolution, "
                "or leave AUTOAC_ONEDNN_ISA unset)")


def _library() -> Optional[ctypes.CDLL]:
    """The oneDNN torch loaded (never a second copy: RTLD_NOLOAD)."""
    if not hasattr(os, "RTLD_NOLOAD"):
        return None
    for name in _LIBRARIES:
        try:
            lib = ctypes.CDLL(name, mode=os.RTLD_NOLOAD | os.RTLD_LOCAL)
        except OSError:
            continue
        if hasattr(lib, "dnnl_set_max_cpu_isa") and hasattr(lib, "dnnl_get_effective_cpu_isa"):
            return lib
    return None


def _name(isa: int) -> str:
    return _NAMES.get(isa, hex(isa))


def _isa_of_verbose(text: str) -> Optional[str]:
    """oneDNN's ISA from its verbose header ("onednn_verbose,...,info,cpu,
    isa:Intel AVX2" -> "avx2", "isa:Intel AVX-512 with ..." -> "avx512_core",
    "isa:Intel AVX 10.1 ..." -> "avx10.1")."""
    for line in text.splitlines():
        if ",info,cpu,isa:" not in line:
            continue
        isa = line.split("isa:", 1)[1].strip().lower()
        isa = isa[len("intel "):] if isa.startswith("intel ") else isa
        if isa.startswith("avx-512") or isa.startswith("avx512"):
            return "avx512_core"
        if isa.startswith("avx 10") or isa.startswith("avx10"):
            return "avx10." + isa.replace("avx 10", "avx10").split("avx10", 1)[1].lstrip(".").split()[0]
        if isa.startswith("avx2"):
            return "avx2_vnni" if "vnni" in isa else "avx2"
        if isa.startswith("avx"):
            return "avx"
        if isa.startswith("sse4.1") or isa.startswith("sse41"):
            return "sse41"
        return isa.split()[0]
    return None


def probe() -> Optional[str]:
    """The ISA oneDNN runs, read where its symbols are hidden (torch 2.x
    links it statically): one tiny convolution and its backward with
    oneDNN's verbose mode on, stdout captured at the file descriptor, the
    header's "isa:" line parsed.  None when nothing could be read.  The
    convolution fixes oneDNN's choice, as any first primitive does."""
    import tempfile
    import torch
    setter = getattr(getattr(torch._C, "_verbose", None), "mkldnn_set_verbose", None)
    if setter is None:
        return None
    import sys
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as out:
        try:
            os.dup2(out.fileno(), 1)
            setter(1)
            # small enough to cost nothing, large enough that ATen hands
            # it to oneDNN (a 1-image 3-channel one it does not)
            # (ones, not randn: the probe draws nothing from the generator)
            x = torch.ones(2, 16, 16, 16, requires_grad=True)
            w = torch.ones(16, 16, 3, 3, requires_grad=True)
            with torch.enable_grad():
                torch.nn.functional.conv2d(x, w).sum().backward()
        finally:
            setter(0)
            ctypes.CDLL(None).fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return _isa_of_verbose(text)


def _is_avx2_or_less(name: str) -> bool:
    return name in ("sse41", "avx", "avx2")


def effective_isa() -> Optional[str]:
    """oneDNN's effective ISA name, from its API where exported, else from
    its verbose header (probe)."""
    lib = _library()
    if lib is not None:
        return _name(int(lib.dnnl_get_effective_cpu_isa()))
    return probe()


def pin() -> OneDnnIsa:
    """Limits oneDNN to AVX2 unless AUTOAC_ONEDNN_ISA=native; see the
    module's comment.  Call with torch imported; idempotent."""
    import torch
    if not torch.backends.mkldnn.is_available():
        return OneDnnIsa("absent", None)
    native = os.environ.get("AUTOAC_ONEDNN_ISA", "").strip().lower() == "native"
    lib = _library()
    if lib is None:
        # Symbols hidden (torch 2.x): the environment variable oneDNN reads
        # at its first primitive, then a probe says what it chose.
        if not native:
            os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
            os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")
        try:
            effective = probe()
        except Exception:  # noqa: BLE001 - unverified, as before
            effective = None
        if native and not (effective and _is_avx2_or_less(effective)):
            return OneDnnIsa("native", effective)
        if native:
            return OneDnnIsa("avx2", effective)   # the CPU's own: the modelled kernels
        if effective is None:
            return OneDnnIsa("requested", None)
        if _is_avx2_or_less(effective):
            return OneDnnIsa("pinned", effective)
        return OneDnnIsa("too-late", effective)
    lib.dnnl_set_max_cpu_isa.argtypes = [ctypes.c_int]
    set_status = 1 if native else lib.dnnl_set_max_cpu_isa(_AVX2)
    effective = int(lib.dnnl_get_effective_cpu_isa())
    if effective & ~_AVX2 == 0:
        return OneDnnIsa("pinned" if set_status == 0 and not native else "avx2", _name(effective))
    return OneDnnIsa("native" if native else "too-late", _name(effective))


STATE: Optional[OneDnnIsa] = None
WARNED = False  # the door's RuntimeWarning, once per process


def state() -> OneDnnIsa:
    """The door's pin, made once per process."""
    global STATE
    if STATE is None:
        try:
            STATE = pin()
        except Exception as e:  # noqa: BLE001 - never break the door's import
            STATE = OneDnnIsa("unknown", None, f"{type(e).__name__}: {e}")
    return STATE
