"""One rank of test_torch_ranks_agree.py: a small transformer under DDP
(gloo), compiled with autoac's backend, one training step on this rank's
own data; writes what autoac decided for each graph (the exported MLIR,
the report less its wall-clock seconds, the saved and recomputed nodes,
the split's generated code) and the gradients to argv[1] as JSON.

    RANK=r WORLD_SIZE=w MASTER_ADDR=... MASTER_PORT=... python ranks_agree_worker.py OUT BUDGET
"""
import json
import os
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import autoac.pytorch as act  # noqa: E402

D, HEADS, SEQ, BATCH, LAYERS = 128, 4, 16, 4, 3


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.attn = nn.MultiheadAttention(D, HEADS, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


def model():
    torch.manual_seed(0)
    return nn.Sequential(*[Block() for _ in range(LAYERS)], nn.Linear(D, 1))


def decided(result):
    rep = dict(result.report)
    rep.pop("search", None)      # wall-clock seconds of the search
    return dict(mlir=result.mlir, report=json.dumps(rep, sort_keys=True),
                saved=result.saved, recomputed=result.recomputed,
                forward=result.fw_module.code if result.fw_module is not None else None,
                backward=result.bw_module.code if result.bw_module is not None else None)


def main():
    out, budget = sys.argv[1], sys.argv[2]
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.set_num_threads(1)
    # 1 MB buckets (about a block each): DDP's graph splits, several graphs planned together.
    ddp = DDP(model(), bucket_cap_mb=1)
    be = act.backend(None if budget == "none" else budget, compiler="aot_eager")
    step = torch.compile(ddp, backend=be)
    g = torch.Generator().manual_seed(100 + rank)      # this rank's data
    x = torch.randn(BATCH, SEQ, D, generator=g)
    step(x).square().mean().backward()
    res = dict(rank=rank, hashseed=os.environ.get("PYTHONHASHSEED"),
               graphs=[decided(r) for r in be.results],
               grads=[p.grad.flatten().tolist() for p in ddp.parameters()])
    with open(out, "w") as f:
        json.dump(res, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
