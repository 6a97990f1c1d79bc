"""Session setup: the PyTorch door first, as a user imports it, so it limits
oneDNN to the AVX2 kernels the cpu profiles model before any test runs a
convolution (autoac/_onednn.py); oneDNN fixes its instruction set at its
first primitive, for the whole process."""
try:
    import torch  # noqa: F401
    import autoac.pytorch  # noqa: F401
except ImportError:  # no torch or functorch: the door's tests skip themselves
    pass
