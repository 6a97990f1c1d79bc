"""A model of your own for the flows (docs/flows.md): `FILE.py:NAME`, where
NAME() returns (model, example inputs), e.g.

    scripts/flow-iree.sh examples/flows/gated_mlp.py:make 2MB 1B
    scripts/flow-torch-mlir.sh examples/flows/gated_mlp.py:make 1B
"""
import torch
import torch.nn as nn


class GatedBlock(nn.Module):
    """Linear, layer norm, tanh, and a sigmoid gate on a residual."""

    def __init__(self, d: int):
        super().__init__()
        self.inner = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
        self.gate = nn.Linear(d, d)

    def forward(self, x):
        h = torch.tanh(self.norm(self.inner(x)))
        return torch.sigmoid(self.gate(h)) * h + x


def make(d: int = 128, depth: int = 6, batch: int = 128):
    torch.manual_seed(0)
    model = nn.Sequential(*[GatedBlock(d) for _ in range(depth)], nn.Linear(d, 10))
    return model, (torch.randn(batch, d),)
