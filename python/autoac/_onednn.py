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


def pin() -> OneDnnIsa:
    """Limits oneDNN to AVX2 unless AUTOAC_ONEDNN_ISA=native; see the
    module's comment.  Call with torch imported; idempotent."""
    import torch
    if not torch.backends.mkldnn.is_available():
        return OneDnnIsa("absent", None)
    native = os.environ.get("AUTOAC_ONEDNN_ISA", "").strip().lower() == "native"
    lib = _library()
    if lib is None:
        if native:
            return OneDnnIsa("native", None)
        os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
        os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")
        return OneDnnIsa("requested", None)
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
