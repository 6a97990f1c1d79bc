"""Session setup: the PyTorch door first, as a user imports it, so it limits
oneDNN to the AVX2 kernels the cpu profiles model before any test runs a
convolution (autoac/pytorch/_onednn.py); oneDNN fixes its instruction set at its
first primitive, for the whole process.

Inductor (torch 2.x) writes its generated code and caches into a temporary
folder of this session's, removed at exit, never the shared default."""
import atexit
import os
import shutil
import tempfile

if "TORCHINDUCTOR_CACHE_DIR" not in os.environ:
    _cache = tempfile.mkdtemp(prefix="autoac-inductor-")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = _cache
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(_cache, "triton"))
    atexit.register(shutil.rmtree, _cache, True)
try:
    import torch  # noqa: F401
    import autoac.pytorch  # noqa: F401
except ImportError:  # no torch or functorch: the door's tests skip themselves
    pass
