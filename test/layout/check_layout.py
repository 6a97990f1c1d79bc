#!/usr/bin/env python3
"""The layout's two rules, checked on the sources (docs/architecture.md,
"Layout rules"):

1. No function over LIMIT lines: C and C++ under lib/, tools/ and include/
   (Universal Ctags finds each function's first and last line), Python
   under python/autoac/, tools/, scripts/ and bench/ (the ast module).
2. No circle between the C files of lib/: file A uses file B when A names a
   function B defines and exports (not static); the files in a circle of
   such uses are reported.
3. No circle between the modules of the Python package (python/autoac/):
   module A uses B when A imports B at module level (an import inside a
   function runs when called: the lazy imports the layout allows);
   `from P import name` uses the module P.name when there is one, else P.

An exception is a line of test/layout/exceptions.txt with its reason:

    length  PATH  FUNCTION  -- why it is one function
    circle  PATH PATH ...   -- why these files call each other

An exception that no longer applies (the function got short, the circle
went away) is an error too, so the list stays true.

    python3 test/layout/check_layout.py [--root DIR] [--limit N]

Prints every violation and exits 1 when any, 0 otherwise.
"""
import argparse
import ast
import collections
import json
import os
import re
import shutil
import subprocess
import sys

import networkx

LIMIT = 120
C_DIRS = ("lib", "tools", "include")
C_EXTS = (".c", ".h", ".cpp")
PY_DIRS = ("python/autoac", "tools", "scripts", "bench")


def tracked(root, dirs, exts):
    """The files under `dirs` ending in `exts`, relative to root: git's
    tracked files in a checkout, else every such file (a source tarball)."""
    p = subprocess.run(["git", "-C", root, "ls-files", "--"] + list(dirs),
                       capture_output=True, text=True)
    if p.returncode == 0 and os.path.isdir(os.path.join(root, ".git")):
        files = p.stdout.split()
    else:
        files = []
        for d in dirs:
            for base, subdirs, names in os.walk(os.path.join(root, d)):
                subdirs[:] = [s for s in subdirs if s != "__pycache__"]
                files += [os.path.relpath(os.path.join(base, n), root) for n in names]
    return sorted(f for f in files if f.endswith(exts))


def ctags(root, files):
    """Universal Ctags' function tags (JSON) of `files`."""
    if not files:
        return []
    exe = shutil.which("ctags")
    if not exe:
        raise SystemExit("check_layout: ctags not found (Universal Ctags; scripts/setup.sh installs it)")
    p = subprocess.run([exe, "--kinds-C=f", "--kinds-C++=f", "--fields=+neF", "--output-format=json",
                        "-o", "-"] + files, cwd=root, capture_output=True, text=True)
    if p.returncode != 0 or "Universal Ctags" not in subprocess.run(
            [exe, "--version"], capture_output=True, text=True).stdout:
        raise SystemExit("check_layout: ctags failed or is not Universal Ctags: " + p.stderr.strip())
    tags = []
    for line in p.stdout.splitlines():
        t = json.loads(line)
        if t.get("_type") == "tag" and t.get("kind") == "function":
            tags.append(t)
    return tags


def c_lengths(root, tags):
    for t in tags:
        if "end" in t:
            yield t["path"], t["name"], t["end"] - t["line"] + 1


def py_lengths(root, files):
    for f in files:
        with open(os.path.join(root, f)) as fh:
            tree = ast.parse(fh.read(), f)
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f, n.name, n.end_lineno - n.lineno + 1


COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', re.S)
WORD = re.compile(r"[A-Za-z_]\w*")


def uses(root, files, tags):
    """file -> the other files whose exported functions it names."""
    defs = collections.defaultdict(set)
    for t in tags:
        if t["path"] in files and not t.get("file"):  # "file": static
            defs[t["name"]].add(t["path"])
    graph = {f: set() for f in files}
    for f in files:
        with open(os.path.join(root, f)) as fh:
            text = COMMENT_OR_STRING.sub(" ", fh.read())
        for w in set(WORD.findall(text)):
            graph[f].update(d for d in defs.get(w, ()) if d != f)
    return graph


def circles(graph):
    """The strongly connected components of more than one file, each
    sorted (networkx)."""
    dg = networkx.DiGraph()
    dg.add_nodes_from(graph)
    dg.add_edges_from((a, b) for a, bs in graph.items() for b in bs)
    return [tuple(sorted(c)) for c in networkx.strongly_connected_components(dg) if len(c) > 1]


PY_PACKAGE = "python/autoac"


def _module_name(rel):
    """python/autoac/a/b.py -> autoac.a.b; python/autoac/a/__init__.py ->
    autoac.a; and the package a name inside it resolves against."""
    parts = rel[len("python/"):-len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def _module_level(tree):
    """The import statements that run when the module is imported: at the
    top level, or inside a top-level if / try (never in a def or class)."""
    todo = list(tree.body)
    while todo:
        n = todo.pop(0)
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            yield n
        elif isinstance(n, (ast.If, ast.Try)):
            todo[:0] = n.body + n.orelse + getattr(n, "finalbody", []) + \
                [x for h in getattr(n, "handlers", []) for x in h.body]


def py_uses(root, files):
    """module -> the package's modules it imports at module level."""
    mods = {}
    for f in files:
        name, pkg = _module_name(f)
        mods[name] = (f, pkg)
    graph = {m: set() for m in mods}
    for m, (f, pkg) in mods.items():
        with open(os.path.join(root, f)) as fh:
            tree = ast.parse(fh.read(), f)
        for n in _module_level(tree):
            if isinstance(n, ast.Import):
                targets = [a.name for a in n.names]
            else:
                base = pkg.split(".")[:len(pkg.split(".")) - (n.level - 1)] if n.level else []
                where = ".".join(base + ([n.module] if n.module else []))
                targets = [where + "." + a.name if where + "." + a.name in mods else where
                           for a in n.names]
            graph[m].update(t for t in targets if t in mods and t != m)
    return graph


def read_exceptions(path):
    lengths, circ, errors = {}, {}, []
    if not os.path.exists(path):
        return lengths, circ, errors
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, sep, why = line.partition("--")
            words = head.split()
            if not sep or not why.strip() or len(words) < 2 or words[0] not in ("length", "circle"):
                errors.append("%s:%d: expected 'length PATH FUNCTION -- why' or "
                              "'circle PATH PATH... -- why'" % (path, n))
            elif words[0] == "length" and len(words) == 3:
                lengths[(words[1], words[2])] = n
            elif words[0] == "circle" and len(words) >= 3:
                circ[tuple(sorted(words[1:]))] = n
            else:
                errors.append("%s:%d: malformed exception" % (path, n))
    return lengths, circ, errors


def check(root, limit, exceptions):
    ex_len, ex_circ, errors = read_exceptions(exceptions)
    c_files = tracked(root, C_DIRS, C_EXTS)
    tags = ctags(root, c_files)
    long_ones = {}
    for path, name, n in list(c_lengths(root, tags)) + list(
            py_lengths(root, tracked(root, PY_DIRS, (".py",)))):
        if n > limit:
            long_ones[(path, name)] = max(n, long_ones.get((path, name), 0))
    for (path, name), n in sorted(long_ones.items()):
        if (path, name) not in ex_len:
            errors.append("%s: %s is %d lines (more than %d): cut it, or list it with a "
                          "reason in %s" % (path, name, n, limit, exceptions))
    for (path, name), line in sorted(ex_len.items()):
        if (path, name) not in long_ones:
            errors.append("%s:%d: %s in %s is not over %d lines (or is gone): remove the "
                          "exception" % (exceptions, line, name, path, limit))
    lib_c = [f for f in c_files if f.startswith("lib/") and f.endswith(".c")]
    found = set(circles(uses(root, set(lib_c), tags)))
    for comp in sorted(found):
        if comp not in ex_circ:
            errors.append("circle: %s call each other: break it (a stage calls only the "
                          "stages below it), or list it with a reason in %s"
                          % (", ".join(comp), exceptions))
    py_files = tracked(root, (PY_PACKAGE,), (".py",))
    py_found = set(circles(py_uses(root, py_files)))
    for comp in sorted(py_found):
        if comp not in ex_circ:
            errors.append("circle: the modules %s import each other at module level: break "
                          "it (import below, or inside the function that needs it), or list "
                          "it with a reason in %s" % (", ".join(comp), exceptions))
    found |= py_found
    for comp, line in sorted(ex_circ.items()):
        if comp not in found:
            errors.append("%s:%d: no circle among %s: remove the exception"
                          % (exceptions, line, ", ".join(comp)))
    return errors, len(long_ones), len(found)


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
    ap.add_argument("--limit", type=int, default=LIMIT)
    ap.add_argument("--exceptions", default=os.path.join(here, "exceptions.txt"))
    args = ap.parse_args(argv)
    errors, nlong, ncirc = check(args.root, args.limit, args.exceptions)
    for e in errors:
        print(e)
    print("check_layout: %d functions over %d lines, %d circles, %d problems"
          % (nlong, args.limit, ncirc, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
