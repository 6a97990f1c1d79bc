#!/usr/bin/env python3
"""Does the budget hold after Inductor?  (issue 35 item 5)

For each model, budget and gradient mode: one training step through
`torch.compile(model, backend=autoac.pytorch.backend(budget))` with
Inductor on the CPU (autoac.pytorch.measure_compiled_step), and three
peaks side by side:

  graph      the plan's peak simulated on the joint graph (the report's)
  planned    the peak of the programs Inductor compiled the plan into
             (autoac.pytorch._inductor_memory: their wrappers' buffers,
             in their order, fallback kernels' scratch measured)
  measured   the step's real peak (torch.profiler's CPU allocation events
             plus what lives through it)

Budgets per model: none (the min-cut plan), the lowest (1 B) and a third
of the way up from the lowest plan's peak to the min-cut plan's (the
joint graph's peaks).  Under a budget the backend fits the plan to
Inductor's programs (backend.fit).  Exits 1 when a measured peak is more
than --tol percent from its planned one, above a budget the step calls
feasible, or when a lower budget's planned peak is higher.

    PYTHONPATH=python AUTOAC_LIBRARY=build/lib/libautoac.so \\
        python bench/inductor_fidelity.py --models resnet18,gpt --grads assign,accumulate
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Sequence, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class GPT(nn.Module):
    """A small GPT: token and position embeddings, pre-norm blocks of causal
    self-attention (scaled_dot_product_attention) and a GELU MLP, a head."""

    def __init__(self, vocab=512, d=128, heads=4, layers=4, seq=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(seq, d) * 0.02)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos[: idx.shape[1]]
        for b in self.blocks:
            x = b(x)
        return self.head(self.norm(x))


class Block(nn.Module):
    """Pre-norm causal self-attention (scaled_dot_product_attention: a
    fallback kernel with scratch of its own in the backward) and a GELU
    MLP (python/tests/test_inductor_memory.py uses it too)."""

    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, -1)
        q, k, v = (z.view(b, t, self.heads, -1).transpose(1, 2) for z in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


def make_model(name: str) -> Tuple[nn.Module, List[torch.Tensor]]:
    """A model not tuned to anything, and its inputs."""
    torch.manual_seed(0)
    if name == "gpt":
        return GPT(), [torch.randint(0, 512, (4, 64))]
    import torchvision.models as tv
    if name == "vit":
        from torchvision.models.vision_transformer import VisionTransformer
        return (VisionTransformer(image_size=64, patch_size=8, num_layers=4, num_heads=4,
                                  hidden_dim=128, mlp_dim=512, num_classes=10),
                [torch.randn(4, 3, 64, 64)])
    if name == "swin_t":
        return tv.swin_t(num_classes=10), [torch.randn(2, 3, 64, 64)]
    if name in ("resnet18", "mobilenet_v2", "convnext_tiny"):
        return getattr(tv, name)(num_classes=10), [torch.randn(4, 3, 64, 64)]
    if name == "mobilenet_v3_small_cl":          # channels-last model and input
        cl = torch.channels_last
        return (tv.mobilenet_v3_small(num_classes=10).to(memory_format=cl),
                [torch.randn(4, 3, 64, 64).to(memory_format=cl)])
    raise SystemExit(f"unknown model {name}")


def main(argv: Sequence[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="gpt,vit,resnet18,mobilenet_v2,convnext_tiny,swin_t,"
                                        "mobilenet_v3_small_cl")
    ap.add_argument("--grads", default="assign,accumulate")
    ap.add_argument("--tol", type=float, default=2.0, help="percent (default 2)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    warnings.simplefilter("ignore")
    import autoac.pytorch as act
    print(f"# torch {torch.__version__}, {platform.processor() or platform.machine()}, "
          f"{torch.get_num_threads()} thread(s)")
    print(f"{'model':14} {'grads':10} {'budget':>12} {'graph':>12} {'planned':>12} "
          f"{'measured':>12} {'meas/plan':>9} {'feasible':>8} {'s':>6}")
    bad = 0
    for name in args.models.split(","):
        for grads in args.grads.split(","):
            model, inputs = make_model(name)
            rows: List[Tuple[Any, Any]] = []
            t0 = time.time()
            top = act.measure_compiled_step(model, inputs, None, compiler="inductor", grads=grads)
            low = act.measure_compiled_step(model, inputs, 1, compiler="inductor", grads=grads)
            third = low.graph_peak + (top.graph_peak - low.graph_peak) // 3
            mid = act.measure_compiled_step(model, inputs, third, compiler="inductor", grads=grads)
            for label, m in (("none", top), ("1", low), (str(third), mid)):
                err = (m.measured_peak - m.planned_peak) * 100.0 / m.planned_peak
                over = m.budget is not None and m.feasible and m.measured_peak > m.budget
                flag = " OVER" if over else (" OFF" if abs(err) > args.tol else "")
                bad += bool(flag)
                print(f"{name:14} {grads:10} {label:>12} {m.graph_peak or m.planned_peak:>12} "
                      f"{m.planned_peak:>12} {m.measured_peak:>12} {err:+8.2f}% "
                      f"{str(m.feasible):>8} {time.time() - t0:6.0f}{flag}", flush=True)
                if m.inductor and not m.inductor["complete"]:
                    print(f"#   incomplete: {m.inductor['unknown_lines'][:2]} "
                          f"{m.inductor['unprobed_ops'][:3]}")
            if not low.planned_peak <= mid.planned_peak <= top.planned_peak:
                bad += 1
                print(f"#   NOT MONOTONE: {low.planned_peak} / {mid.planned_peak} / {top.planned_peak}")
    print(f"# {bad} row(s) off by more than {args.tol} % or over a feasible budget")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
