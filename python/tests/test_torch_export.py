"""Tests of autoac.pytorch.export_joint: AOT autograd joint graphs as MLIR."""
import os
import re
import warnings

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("functorch")
import torch.fx as fx  # noqa: E402
import torch.nn as nn  # noqa: E402

import autoac  # noqa: E402
import autoac.pytorch as act  # noqa: E402
from torch_versions import torch1_only  # noqa: E402


warnings.filterwarnings("ignore", message=".*boxed.*")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "examples", "corpus")

_DEF = re.compile(r'^\s*(%[0-9]+)(?::\d+)? = "([^"]+)"')


# Canonical form of exported MLIR for comparisons: SSA names renumbered in
# order of definition, trailing !torch.none results of multi-result ops
# dropped, bool lists spelled !torch.list<bool>.
_OPDEF = re.compile(r'^(%[A-Za-z0-9_]+)(?::(\d+))? = "([^"]+)"\((.*?)\)(.*) -> (.*)$')


def _split_types(s):
    s = s.strip()
    if s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def canonical(text):
    text = text.replace("!torch.list<any>", "!torch.list<bool>").replace(" {ac.save}", "")
    names = {}
    single = set()  # multi-result ops reduced to one result
    lines = []
    for raw in text.splitlines():
        line = raw.strip()
        m = _OPDEF.match(line)
        if m and m.group(2):
            name, count, op, operands, mid, results = m.groups()
            types = _split_types(results)
            while len(types) > 1 and types[-1] == "!torch.none":
                types.pop()
            if len(types) == 1:
                single.add(name)
                line = f'{name} = "{op}"({operands}){mid} -> {types[0]}'
            else:
                line = f'{name}:{len(types)} = "{op}"({operands}){mid} -> ({", ".join(types)})'
        if m:
            names[m.group(1)] = f"%V{len(names)}"

        def sub(mo):
            tok, idx = mo.group(1), mo.group(2)
            if tok.startswith("%arg"):
                return mo.group(0)
            new = names.get(tok, tok)
            if idx is not None and tok in single:
                return new
            return new + (f"#{idx}" if idx is not None else "")
        lines.append(re.sub(r"(%[A-Za-z0-9_]+)(?:#(\d+))?", sub, line))
    return lines


def _mlp(n=3, width=32):
    return nn.Sequential(*[nn.Sequential(nn.Linear(width, width), nn.ReLU()) for _ in range(n)])


def _signature(text):
    head = next(line for line in text.splitlines() if "func.func" in line)
    args = re.findall(r"%arg\d+: (!torch\.vtensor<[^>]*>)((?: \{ac\.\w+\})?)", head)
    results = re.findall(r"(!torch\.vtensor<[^>]*>) \{(ac\.\w+)\}", head.split(") -> (", 1)[1])
    return head, args, results


def test_mlp_export_form_and_markers():
    torch.manual_seed(0)
    m = _mlp()
    text = act.export_joint(m, (torch.randn(8, 32),))
    head, args, results = _signature(text)
    assert "attributes {ac.joint}" in head
    # the data input first (unmarked), then 6 parameters, then the loss seed
    assert args[0] == ("!torch.vtensor<[8,32],f32>", "")
    assert [a for _, a in args[1:7]] == [" {ac.param}"] * 6
    assert args[7] == ("!torch.vtensor<[],f32>", " {ac.tangent}")
    # the loss, then one gradient per parameter (none for the data input)
    assert results[0] == ("!torch.vtensor<[],f32>", "ac.output")
    assert [r for _, r in results[1:]] == ["ac.grad"] * 6
    assert '"torch.aten.addmm"(' in text and '"torch.aten.threshold_backward"(' in text
    assert '"torch.aten.sum.dim_IntList"(' in text           # overloads other than default kept
    assert '"torch.constant.int"() {value = 1 : i64} : () -> !torch.int' in text
    assert re.search(r'"torch.prim.ListConstruct"\(%\d+\) : \(!torch.int\) -> !torch.list<int>', text)
    r = autoac.plan(text)
    assert r.report["functions"][0]["name"] == "Sequential"
    assert r.report["saved_bytes"] > 0


@torch1_only("the corpus was traced by torch 1.13's AOT autograd; torch 2.x decomposes "
             "differently (native_dropout, _safe_softmax, functional batch norm)")
@pytest.mark.parametrize("name", ["mlp_relu_8", "tx_l2_d256", "resnet34_b4_112", "tx_l6_d1024"])
def test_reproduces_corpus_graph(name):
    """The corpus graphs were traced from PyTorch 1.13 by another exporter;
    ours writes the same ops, operands, constants and types in the same
    order.  Compared up to SSA spelling, !torch.list<any> (the corpus) vs
    !torch.list<bool> (ours, torch-mlir's spelling), trailing !torch.none
    results (we keep every schema result of convolution_backward) and the
    {ac.save} we put on in-place ops (bernoulli_)."""
    torch.manual_seed(0)
    if name == "mlp_relu_8":
        from torch.nn.utils import stateless
        m = nn.Sequential(*[nn.Sequential(nn.Linear(2048, 2048), nn.ReLU()) for _ in range(8)])
        names = [n for n, _ in m.named_parameters()]

        def mlp_relu_8(x, *ps):
            return stateless.functional_call(m, dict(zip(names, ps)), (x,)).sum()
        ps = [nn.Parameter(p.detach()) for p in m.parameters()]
        text = act.export_joint(mlp_relu_8, (torch.randn(256, 2048), *ps), tracing="fake")
    elif name == "resnet34_b4_112":
        tv = pytest.importorskip("torchvision")
        text = act.export_joint(tv.models.resnet34(), (torch.randn(4, 3, 112, 112),), name=name)
    else:
        d, layers, heads, ffn, seq = (256, 2, 4, 1024, 128) if name == "tx_l2_d256" else (1024, 6, 16, 4096, 2048)
        enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, heads, ffn, batch_first=True), layers)
        text = act.export_joint(enc, (torch.randn(4, seq, d),), name=name, tracing="fake")
    with open(os.path.join(CORPUS, name + ".mlir")) as f:
        ref = canonical(f.read())
    mine = canonical(text)
    assert len(mine) == len(ref)
    diff = [(i, a, b) for i, (a, b) in enumerate(zip(mine, ref)) if a != b]
    assert not diff, f"first difference at line {diff[0][0]}:\n ours:   {diff[0][1][:300]}\n corpus: {diff[0][2][:300]}"


def test_ssa_names_are_asmstate_names():
    """The exported text spells SSA names as MLIR's AsmState prints them:
    %argN, then %0, %1, ... over the ops with results in order of
    definition, %K#i for results of multi-result ops."""
    torch.manual_seed(0)
    g = act.export_joint_graph(nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1), (torch.randn(6, 2, 32),))
    defined = [m.group(1) for m in map(_DEF.match, g.text.splitlines()) if m]
    assert defined == [f"%{i}" for i in range(len(defined))]
    for node, name in g.value_names.items():
        assert g.node_of(name) is node or node.op == "placeholder"
    multi = [v for v in g.multi_result_ops]
    assert multi
    node = g.node_of(multi[0] + "#0")
    assert node is not None and node.args[0] is g.multi_result_ops[multi[0]]


def test_report_values_map_to_fx_nodes():
    """The report's values are the exported text's own names (autoac keeps
    the input's names even where it moves backward views), so the exporter's
    name -> node mapping finds, for each, an FX node of the same op."""
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1)
    jt = act.trace_joint(layer, (torch.randn(6, 2, 32),))
    g = act.export_graph(jt.graph_module, jt.num_fwd_outputs, jt.params, name="layer", tag_attr="fx_node")
    assert '{fx_node = "addmm"}' in g.text
    r = autoac.plan(g.text, mode="annotate", budget=1)
    fn = r.report["functions"][0]
    assert fn["saved"] and fn["recomputed"]
    for entry in fn["saved"] + fn["recomputed"]:
        if entry["op"].startswith(("torch.constant.", "torch.prim.")):
            continue
        node = g.node_of(entry["value"])
        assert node is not None, entry
        op = node.args[0] if node.target is __import__("operator").getitem else node
        assert act._mlir_op_name(op) == entry["op"], entry


def test_report_names_are_the_input_names():
    torch.manual_seed(0)
    g = act.export_joint_graph(nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1), (torch.randn(6, 2, 32),))
    r = autoac.plan(g.text, mode="annotate", budget=1)
    ours = {m.group(1): m.group(2) for m in map(_DEF.match, g.text.splitlines()) if m}
    fn = r.report["functions"][0]
    for entry in fn["saved"] + fn["recomputed"]:
        assert ours[entry["value"].split("#")[0]] == entry["op"], entry


def test_multi_result_ops_and_none_results():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(3, 4, 3, bias=False), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.LayerNorm(4 * 3 * 3))
    text = act.export_joint(m, (torch.randn(2, 3, 8, 8),))
    # torch 1.13: native_batch_norm (3 results); torch 2.x: the functional
    # _native_batch_norm_legit_functional (5: the new running statistics too)
    assert re.search(r'%\d+:3 = "torch.aten.native_batch_norm"|'
                     r'%\d+:5 = "torch.aten._native_batch_norm_legit_functional"', text)
    assert re.search(r'%\d+:2 = "torch.aten.max_pool2d_with_indices"\(.*-> \(!torch.vtensor<\[2,4,3,3\],f32>, '
                     r'!torch.vtensor<\[2,4,3,3\],si64>\)', text)
    assert re.search(r'%\d+:3 = "torch.aten.native_layer_norm"', text)
    # the first conv's input needs no gradient and it has no bias: mask [F, T, F]
    conv_bwd = [line for line in text.splitlines() if '"torch.aten.convolution_backward"' in line]
    assert len(conv_bwd) == 1
    assert conv_bwd[0].endswith("-> (!torch.none, !torch.vtensor<[4,3,3,3],f32>, !torch.none)")
    assert re.search(r'"torch.aten.native_batch_norm_backward"\(%\d+#0|"torch.aten.native_batch_norm_backward"', text)
    autoac.plan(text)


def test_dtypes_and_constants():
    def step(x, i8, u8, i16, i32, i64, b, h, bf, d):
        y = x * 2 + i8.float() + u8.float() + i16.float() + i32.float() + i64.float()
        y = y.masked_fill(b, float("-inf")).clamp(min=-1e30)
        y = torch.nn.functional.gelu(y, approximate="tanh")
        y = y + torch.arange(4, dtype=torch.float32, device=x.device)
        return y.sum() + h.float().sum() + bf.float().sum() + d.float().sum()
    x = torch.randn(3, 4, requires_grad=True)
    ints = [torch.ones(3, 4, dtype=dt) for dt in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64)]
    b = torch.zeros(3, 4, dtype=torch.bool)
    fl = [torch.randn(2, dtype=dt, requires_grad=True) for dt in (torch.float16, torch.bfloat16, torch.float64)]
    text = act.export_joint(step, (x, *ints, b, *fl), tracing="real")
    head, args, _ = _signature(text)
    assert [a.split(",")[-1].rstrip(">") for a, _ in args[:10]] == \
        ["f32", "si8", "ui8", "si16", "si32", "si64", "i1", "f16", "bf16", "f64"]
    assert "{value = 0xFFF0000000000000 : f64}" in text            # -inf
    assert '"torch.constant.str"() {value = "tanh"} : () -> !torch.str' in text
    assert '"torch.constant.device"() {value = "cpu"} : () -> !torch.Device' in text
    assert "{value = 6 : i64}" in text                              # dtype float32 as ScalarType 6
    autoac.plan(text)


@torch1_only("torch 2.x traces dropout functionally (native_dropout): no op writes an operand")
def test_inplace_ops_are_marked_save():
    torch.manual_seed(0)
    text = act.export_joint(nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1), (torch.randn(4, 2, 16),))
    rng = [line for line in text.splitlines() if '"torch.aten.bernoulli_.float"' in line]
    assert rng and all(") {ac.save} : (" in line for line in rng)
    assert text.count("{ac.save}") == len(rng)
    r = autoac.plan(text, budget=1)
    recomputed = {e["op"] for e in r.report["functions"][0]["recomputed"]}
    assert "torch.aten.bernoulli_.float" not in recomputed


def test_plain_function_parameters_are_marked():
    w = nn.Parameter(torch.randn(4, 4))
    x = torch.randn(2, 4)

    def f(x, w):
        return (x @ w).relu().sum()
    _, args, results = _signature(act.export_joint(f, (x, w)))
    assert [a for _, a in args] == ["", " {ac.param}", " {ac.tangent}"]
    assert [r for _, r in results] == ["ac.output", "ac.grad"]
    _, args, _ = _signature(act.export_joint(f, (x, w.detach().requires_grad_()), params=[1]))
    assert [a for _, a in args] == ["", " {ac.param}", " {ac.tangent}"]


def test_fake_and_real_tracing_agree_and_model_untouched():
    tv = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    m = tv.models.resnet18()
    before = {k: v.clone() for k, v in m.state_dict().items()}
    x = torch.randn(2, 3, 32, 32)
    fake = act.export_joint(m, (x,), tracing="fake")
    real = act.export_joint(m, (x,), tracing="real")
    assert fake == real
    for k, v in m.state_dict().items():
        assert torch.equal(v, before[k]), f"export changed {k}"


TORCHVISION = [
    ("resnet18", 32), ("resnet34", 32), ("mobilenet_v2", 32), ("squeezenet1_0", 48),
    ("densenet121", 32), ("vgg11", 32),
    ("shufflenet_v2_x0_5", 32),
    ("efficientnet_b0", 32),
    ("mnasnet0_5", 32), ("googlenet", 32), ("regnet_y_400mf", 32), ("convnext_tiny", 32),
    ("vit_b_16", 32), ("swin_t", 32), ("alexnet", 64),
]


@pytest.mark.parametrize("name,size", TORCHVISION)
def test_torchvision_model_exports_and_plans(name, size):
    tv = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    kwargs = {"image_size": size} if name.startswith("vit") else {}
    if name == "googlenet":
        kwargs = {"aux_logits": False, "init_weights": False}
    m = getattr(tv.models, name)(**kwargs)
    text = act.export_joint(m, (torch.randn(2, 3, size, size),), name=name, tracing="real")
    r = autoac.plan(text, mode="annotate")
    rep = r.report
    assert rep["functions"][0]["name"] == name
    assert rep["saved_bytes"] > 0 and rep["peak_bytes"] >= rep["static_bytes"] > 0
    # every parameter and buffer is an {ac.param} argument
    n_state = len(list(m.parameters())) + len(list(m.buffers()))
    assert _signature(text)[0].count("{ac.param}") == n_state


# ---------------------------------------------------------------- errors

def _short(e):
    msg = str(e)
    assert "Traceback" not in msg and len(msg) < 1200, msg
    return msg


def test_untraceable_model_raises_export_error():
    class DataDependent(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, x):
            if x.sum().item() > 0:
                return self.lin(x)
            return x
    with pytest.raises(act.ExportError, match=r"cannot trace DataDependent: .*(data-dependent|DataDependentOutputException)") as e:
        act.export_joint(DataDependent(), (torch.randn(2, 4),))
    assert isinstance(e.value, autoac.AutoacError)
    _short(e.value)


def test_op_without_tensor_metadata_is_named():
    lib = torch.library.Library("autoac_test", "DEF")
    lib.define("nometa(Tensor x) -> Tensor")
    g = fx.Graph()
    x = g.placeholder("primals_1")
    x.meta["val"] = torch.empty(3, 4, device="meta")
    t = g.placeholder("tangents_1")
    t.meta["val"] = torch.empty((), device="meta")
    y = g.create_node("call_function", torch.ops.autoac_test.nometa.default, (x,), name="x")
    s = g.call_function(torch.ops.aten.sum.default, (y,))
    s.meta["val"] = torch.empty((), device="meta")
    g.output(([s], [None]))
    with pytest.raises(act.ExportError,
                       match=r"^cannot export 'autoac_test.nometa.default' \(node %x\): no tensor metadata") as e:
        act.export_graph(g, 1)
    _short(e.value)


def test_unknown_dtype_names_the_op():
    def f(x):
        return torch.view_as_real(torch.view_as_complex(x) * 2).sum()
    with pytest.raises(act.ExportError,
                       match=r"cannot export 'aten.view_as_complex.default' \(node %view_as_complex\): "
                             r"unknown dtype complex64") as e:
        act.export_joint(f, (torch.randn(4, 2, requires_grad=True),))
    _short(e.value)


def test_non_aten_call_is_named():
    g = fx.Graph()
    x = g.placeholder("primals_1")
    x.meta["val"] = torch.empty(3, device="meta")
    g.placeholder("tangents_1").meta["val"] = torch.empty((), device="meta")
    y = g.call_function(torch.sin, (x,))
    g.output(([y], [None]))
    with pytest.raises(act.ExportError, match=r"cannot export '.*sin' \(node %sin\): not an ATen operator"):
        act.export_graph(g, 1)


def test_bad_arguments():
    with pytest.raises(act.ExportError, match="input #1 is a int"):
        act.export_joint(lambda x, n: x.sum() * n, (torch.randn(2, requires_grad=True), 3))
    with pytest.raises(act.ExportError, match="unknown tracing 'magic'"):
        act.export_joint(_mlp(), (torch.randn(2, 32),), tracing="magic")
    with pytest.raises(act.ExportError, match="invalid function name"):
        act.export_joint(_mlp(), (torch.randn(2, 32),), name="1 bad")
