"""Canonical form of exported MLIR for comparisons in tests: SSA names
renumbered in order of definition, trailing !torch.none results of
multi-result ops dropped, bool lists spelled !torch.list<bool>."""
import re

_DEF = re.compile(r'^(%[A-Za-z0-9_]+)(?::(\d+))? = "([^"]+)"\((.*?)\)(.*) -> (.*)$')


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
    text = text.replace("!torch.list<any>", "!torch.list<bool>")
    names = {}
    single = set()  # multi-result ops reduced to one result
    lines = []
    for raw in text.splitlines():
        line = raw.strip()
        m = _DEF.match(line)
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
