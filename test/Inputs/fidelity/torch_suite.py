"""The PyTorch table of docs/fidelity.md: one training step of each model
through autoac's door (autoac.pytorch.measure_step) at three budgets: 1 byte
(below the lowest reachable peak: the lowest plan), halfway between that and
the min-cut peak, and none (the min-cut plan).  Prints markdown rows.

    PYTHONPATH=python /usr/bin/python3 test/Inputs/fidelity/torch_suite.py [--threads=N] [MODEL ...]

MODEL: one of MODELS (the first table) or WIDE (issue 21's bar: models and
sizes no test has), or `wide` for all of WIDE.
"""
import sys
import time
import warnings

import torch
import torch.nn as nn

import autoac.pytorch as act

warnings.filterwarnings("ignore")


def resnet18():
    import torchvision
    return torchvision.models.resnet18(num_classes=100), (torch.randn(4, 3, 64, 64),), "keep"


def mobilenet_v2():
    import torchvision
    return torchvision.models.mobilenet_v2(num_classes=100), (torch.randn(4, 3, 64, 64),), "keep"


class GPT(nn.Module):
    """Decoder-only: token embedding, causal pre-norm blocks with dropout,
    LM head tied to the embedding."""

    def __init__(self, vocab=512, d=128, heads=4, layers=4, seq=64, p=0.1):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.zeros(seq, d))
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=p, batch_first=True, norm_first=True,
                                           activation="gelu")
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.emb.weight
        self.register_buffer("mask", torch.triu(torch.full((seq, seq), float("-inf")), diagonal=1))

    def forward(self, tokens):
        x = self.emb(tokens) + self.pos
        return self.head(self.norm(self.blocks(x, mask=self.mask)))


def gpt():
    return GPT(), (torch.randint(0, 512, (4, 64)),), "replay"


def vit():
    from torchvision.models import VisionTransformer
    return VisionTransformer(image_size=32, patch_size=4, num_layers=4, num_heads=4, hidden_dim=128,
                             mlp_dim=256, dropout=0.1, num_classes=10), (torch.randn(4, 3, 32, 32),), "replay"


def mlp():
    return nn.Sequential(*[nn.Sequential(nn.Linear(256, 256), nn.ReLU()) for _ in range(8)]), \
        (torch.randn(1024, 256),), "keep"


def squeezenet1_1():
    import torchvision
    return torchvision.models.squeezenet1_1(num_classes=10), (torch.randn(2, 3, 64, 64),), "replay"


def shufflenet_v2():
    import torchvision
    return torchvision.models.shufflenet_v2_x0_5(num_classes=10), (torch.randn(2, 3, 64, 64),), "keep"


def mnasnet0_5():
    import torchvision
    return torchvision.models.mnasnet0_5(num_classes=10), (torch.randn(2, 3, 64, 64),), "replay"


def regnet_x_400mf():
    import torchvision
    return torchvision.models.regnet_x_400mf(num_classes=10), (torch.randn(2, 3, 64, 64),), "keep"


def efficientnet_b0():
    import torchvision
    return torchvision.models.efficientnet_b0(num_classes=10), (torch.randn(2, 3, 64, 64),), "replay"


class Conv1dNet(nn.Module):
    """A 1-D conv net (audio / sequence style): strided and dilated 1-D
    convolutions, batch norm, max pooling, global average, linear head."""

    def __init__(self, c=32, classes=10):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(1, c, 9, stride=2, padding=4), nn.BatchNorm1d(c), nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(c, 2 * c, 5, padding=2), nn.BatchNorm1d(2 * c), nn.ReLU(),
            nn.Conv1d(2 * c, 2 * c, 3, padding=2, dilation=2), nn.ReLU(),
            nn.Conv1d(2 * c, 4 * c, 3, stride=2, padding=1), nn.BatchNorm1d(4 * c), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(4 * c, classes))

    def forward(self, x):
        return self.body(x)


def conv1d():
    return Conv1dNet(), (torch.randn(4, 1, 1024),), "keep"


class Seq2Seq(nn.Module):
    """nn.Transformer encoder-decoder (post-norm, ReLU, dropout), other
    shapes than the suite's GPT: d 96, 3+2 layers, 6 heads, source 48 and
    target 32 tokens."""

    def __init__(self, vocab=300, d=96):
        super().__init__()
        self.src, self.tgt = nn.Embedding(vocab, d), nn.Embedding(vocab, d)
        self.core = nn.Transformer(d, 6, 3, 2, 192, dropout=0.1, batch_first=True)
        self.head = nn.Linear(d, vocab)
        self.register_buffer("mask", torch.triu(torch.full((32, 32), float("-inf")), diagonal=1))

    def forward(self, src, tgt):
        return self.head(self.core(self.src(src), self.tgt(tgt), tgt_mask=self.mask))


def seq2seq():
    return Seq2Seq(), (torch.randint(0, 300, (3, 48)), torch.randint(0, 300, (3, 32))), "replay"


MODELS = {"resnet18": resnet18, "mobilenet_v2": mobilenet_v2, "gpt": gpt, "vit": vit, "mlp": mlp}
# Issue 21's bar: models and sizes the repo's tests do not have.
WIDE = {"squeezenet1_1": squeezenet1_1, "shufflenet_v2": shufflenet_v2, "mnasnet0_5": mnasnet0_5,
        "regnet_x_400mf": regnet_x_400mf, "efficientnet_b0": efficientnet_b0, "conv1d": conv1d,
        "seq2seq": seq2seq}
ALL = {**MODELS, **WIDE}


def mib(n):
    return f"{n / 2**20:.2f}"


def main(names):
    print("| model | rng | budget (MiB) | planned (MiB) | measured (MiB) | error % | feasible | <= budget "
          "| gradients bit-equal | measured without op scratch (MiB) | error % |")
    print("|---|---|---:|---:|---:|---:|---|---|---|---:|---:|")
    if names == ["wide"]:
        names = list(WIDE)
    for name in names or MODELS:
        torch.manual_seed(0)
        model, inputs, rng = ALL[name]()
        budgets = [1]
        results = []
        t0 = time.time()
        low = act.measure_step(model, inputs, 1, rng=rng)
        results.append(("1 B (lowest)", low, time.time() - t0))
        print(f"{name}: {low.warnings.strip()}", file=sys.stderr)
        mincut = low.report["baseline_peak_bytes"]["mincut"]
        mid = (low.planned_peak + mincut) // 2
        for label, b in ((mib(mid), mid), ("none (min-cut)", None)):
            t0 = time.time()
            results.append((label, act.measure_step(model, inputs, b, rng=rng), time.time() - t0))
        for label, m, secs in results:
            print(f"| {name} | {rng} | {label} | {mib(m.planned_peak)} | {mib(m.measured_peak)} | "
                  f"{m.error_percent:+.2f} | {str(m.feasible).lower()} | "
                  f"{'yes' if m.within_budget else 'no'} | {'yes' if m.grads_equal else 'NO'} | "
                  f"{mib(m.measured_no_scratch)} | "
                  f"{(m.measured_no_scratch - m.planned_peak) * 100 / m.planned_peak:+.2f} |", flush=True)
        del budgets


if __name__ == "__main__":
    args = sys.argv[1:]
    for a in [a for a in args if a.startswith("--threads=")]:
        torch.set_num_threads(int(a.split("=", 1)[1]))  # the door plans for cpu<threads>
        args.remove(a)
    main(args)
