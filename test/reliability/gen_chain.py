#!/usr/bin/env python3
"""Writes a joint forward+backward function with a long chain of layers in
torch-mlir style (generic op form), for scale tests of autoac.

    gen_chain.py OPS [--params K] [--dim D] [--no-joint] > chain.mlir

Layer i (weights W[i % K], K params shared by the layers, like tied weights):
  forward   wt = t(W); h = mm(x, wt); x' = relu(h)                  3 ops
  backward  gh = threshold_backward(gx', x', 0); gx = mm(gh, W);
            xt = t(x); gw = mm(xt, gh); acc = add(acc, gw, 1)         5 ops
so OPS / 8 layers; the loss is sum(x_last), each parameter's gradient is
the sum of its layers' gw.  --layer gelu instead writes OPS / 2 layers
  forward   x' = gelu(x)        backward  gx = gelu_backward(gx', x)
(every x a candidate for saving, no parameters: the planners' worst case
for the number of decisions).  --no-joint leaves out the ac.joint marker (the
same IR that autoac then leaves alone: a baseline for parse and print).
"""
import argparse
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ops", type=int)
    ap.add_argument("--params", type=int, default=8)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--no-joint", action="store_true")
    ap.add_argument("--layer", choices=["mm", "gelu"], default="mm")
    a = ap.parse_args()
    if a.layer == "gelu":
        return gelu_chain(a)
    layers = max(1, a.ops // 8)
    k = max(1, min(a.params, layers))
    d = a.dim
    T = f"!torch.vtensor<[{d},{d}],f32>"
    S = "!torch.vtensor<[],f32>"
    out = sys.stdout
    w = out.write
    args = [f"%x0: {T}"] + [f"%w{j}: {T} {{ac.param}}" for j in range(k)] + [f"%dy: {S} {{ac.tangent}}"]
    rets = [f"{S} {{ac.output}}"] + [f"{T} {{ac.grad}}"] * k
    w("module {\n")
    w(f"  func.func @chain({', '.join(args)}) -> ({', '.join(rets)})"
      f"{'' if a.no_joint else ' attributes {ac.joint}'} {{\n")
    w("    %c0 = \"torch.constant.int\"() {value = 0 : i64} : () -> !torch.int\n")
    w("    %c1 = \"torch.constant.int\"() {value = 1 : i64} : () -> !torch.int\n")
    w("    %none = \"torch.constant.none\"() : () -> !torch.none\n")
    mm = f"({T}, {T}) -> {T}"
    un = f"({T}) -> {T}"
    for i in range(layers):
        wj = f"%w{i % k}"
        w(f"    %wt{i} = \"torch.aten.t\"({wj}) : {un}\n")
        w(f"    %h{i} = \"torch.aten.mm\"(%x{i}, %wt{i}) : {mm}\n")
        w(f"    %x{i + 1} = \"torch.aten.relu\"(%h{i}) : {un}\n")
    w(f"    %loss = \"torch.aten.sum\"(%x{layers}, %none) : ({T}, !torch.none) -> {S}\n")
    w(f"    %g{layers} = \"torch.aten.mul.Tensor\"(%dy, %x{layers}) : ({S}, {T}) -> {T}\n")
    acc = {}
    for i in reversed(range(layers)):
        wj = f"%w{i % k}"
        w(f"    %gh{i} = \"torch.aten.threshold_backward\"(%g{i + 1}, %x{i + 1}, %c0) : ({T}, {T}, !torch.int) -> {T}\n")
        w(f"    %g{i} = \"torch.aten.mm\"(%gh{i}, {wj}) : {mm}\n")
        w(f"    %xt{i} = \"torch.aten.t\"(%x{i}) : {un}\n")
        w(f"    %gw{i} = \"torch.aten.mm\"(%xt{i}, %gh{i}) : {mm}\n")
        j = i % k
        if j in acc:
            w(f"    %acc{i} = \"torch.aten.add.Tensor\"({acc[j]}, %gw{i}, %c1) : ({T}, {T}, !torch.int) -> {T}\n")
            acc[j] = f"%acc{i}"
        else:
            acc[j] = f"%gw{i}"
    grads = [acc[j] for j in range(k)]
    w(f"    return %loss, {', '.join(grads)} : {S}, {', '.join([T] * k)}\n")
    w("  }\n}\n")


def gelu_chain(a):
    layers = max(1, a.ops // 2)
    d = a.dim
    T = f"!torch.vtensor<[{d},{d}],f32>"
    S = "!torch.vtensor<[],f32>"
    w = sys.stdout.write
    w("module {\n")
    w(f"  func.func @chain(%x0: {T}, %dy: {S} {{ac.tangent}}) -> ({S} {{ac.output}}, {T} {{ac.grad}})"
      f"{'' if a.no_joint else ' attributes {ac.joint}'} {{\n")
    w("    %none = \"torch.constant.none\"() : () -> !torch.none\n")
    w("    %ap = \"torch.constant.str\"() {value = \"none\"} : () -> !torch.str\n")
    for i in range(layers):
        w(f"    %x{i + 1} = \"torch.aten.gelu\"(%x{i}, %ap) : ({T}, !torch.str) -> {T}\n")
    w(f"    %loss = \"torch.aten.sum\"(%x{layers}, %none) : ({T}, !torch.none) -> {S}\n")
    w(f"    %g{layers} = \"torch.aten.mul.Tensor\"(%dy, %x{layers}) : ({S}, {T}) -> {T}\n")
    for i in reversed(range(layers)):
        w(f"    %g{i} = \"torch.aten.gelu_backward\"(%g{i + 1}, %x{i}, %ap) : ({T}, {T}, !torch.str) -> {T}\n")
    w(f"    return %loss, %g0 : {S}, {T}\n")
    w("  }\n}\n")


if __name__ == "__main__":
    main()
