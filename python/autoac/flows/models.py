"""Small models the torch-mlir and IREE flows are run and tested on
(docs/flows.md): `mlp`, `cnn` and `gpt-block`, each with its example input.
Built only from ops torch-mlir lowers to linalg after the import's
decompositions (conv2d, batch norm, max pool, linear, layer norm, GELU,
softmax, matmul)."""
from __future__ import annotations

import math
from typing import Tuple

import torch
import torch.nn as nn

__all__ = ["FLOW_MODELS", "flow_model", "GptBlock", "SmallCnn"]


class SmallCnn(nn.Module):
    """conv-bn-relu, a stride-2 conv-bn-relu, global mean, linear.  (No max
    pool: torch-mlir lowers its backward to tm_tensor.scatter, a dialect
    Debian's MLIR cannot read.)"""

    def __init__(self, channels: int = 8, classes: int = 10):
        super().__init__()
        self.c1 = nn.Conv2d(3, channels, 3, padding=1)
        self.b1 = nn.BatchNorm2d(channels)
        self.c2 = nn.Conv2d(channels, 2 * channels, 3, stride=2, padding=1)
        self.b2 = nn.BatchNorm2d(2 * channels)
        self.fc = nn.Linear(2 * channels, classes)

    def forward(self, x):
        x = torch.relu(self.b1(self.c1(x)))
        x = torch.relu(self.b2(self.c2(x)))
        return self.fc(x.mean(dim=(2, 3)))


class GptBlock(nn.Module):
    """A pre-norm GPT block: causal multi-head self-attention written out
    (matmul, scale, masked softmax), then a GELU MLP, both residual."""

    def __init__(self, d: int = 64, heads: int = 4, seq: int = 32):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        # Three projections, not one split three ways: the split's slices
        # become index-tensor literals in torch-mlir's import.
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)
        self.register_buffer("causal", torch.tril(torch.ones(seq, seq, dtype=torch.bool)))

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads
        n = self.ln1(x)
        q, k, v = self.q(n), self.k(n), self.v(n)
        q = q.reshape(b, t, h, d // h).transpose(1, 2)
        k = k.reshape(b, t, h, d // h).transpose(1, 2)
        v = v.reshape(b, t, h, d // h).transpose(1, 2)
        att = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(d // h))
        att = att.masked_fill(~self.causal[:t, :t], float("-inf")).softmax(dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(b, t, d)
        x = x + self.proj(y)
        return x + self.fc2(nn.functional.gelu(self.fc1(self.ln2(x))))


def _mlp(batch: int, width: int, layers: int) -> nn.Module:
    mods = []
    for _ in range(layers):
        mods += [nn.Linear(width, width), nn.ReLU()]
    return nn.Sequential(*mods)


FLOW_MODELS = ("mlp", "cnn", "gpt-block")


def flow_model(name: str, batch: int = 0) -> Tuple[nn.Module, tuple]:
    """(model, example inputs), seeded: `mlp` (4 x Linear(256)+ReLU, batch
    512), `cnn` (SmallCnn on 3x16x16, batch 8), `gpt-block` (GptBlock d=64,
    4 heads, 32 tokens, batch 4).  batch 0: the default."""
    torch.manual_seed(0)
    if name == "mlp":
        return _mlp(batch or 512, 256, 4), (torch.randn(batch or 512, 256),)
    if name == "cnn":
        return SmallCnn(), (torch.randn(batch or 8, 3, 16, 16),)
    if name == "gpt-block":
        return GptBlock(), (torch.randn(batch or 4, 32, 64),)
    raise ValueError(f"unknown flow model '{name}' (accepted: {', '.join(FLOW_MODELS)})")
