"""Which torch the tests run on, and the mark for tests of torch 1.13's own
trace form (scripts/test.sh runs the suite on torch 1.13 and on torch 2.x)."""
import pytest

try:
    import torch
    TORCH2 = int(torch.__version__.split(".")[0]) >= 2
except ImportError:  # the door's tests skip themselves
    TORCH2 = False


def torch1_only(reason: str):
    """Skips a test on torch 2.x, saying why it holds for torch 1.13 only."""
    return pytest.mark.skipif(TORCH2, reason="torch 1.13 only: " + reason)
