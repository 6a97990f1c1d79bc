"""The layout checker on small trees it must pass or fail: a long C and a
long Python function, a circle of three C files, exceptions that excuse
them, stale and malformed exceptions, and a tree with no git."""
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layout  # noqa: E402


def c_func(name, lines, calls=()):
    body = "".join("  %s();\n" % c for c in calls)
    body += "  x += 1;\n" * max(0, lines - 2 - len(calls))
    return "int %s(void) {\n%s}\n" % (name, body)


def tree(tmp_path, files, git=True):
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    if git:
        subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
        subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    return str(tmp_path)


def run(root, exceptions_text=None, limit=10):
    ex = os.path.join(root, "exceptions.txt")
    if exceptions_text is not None:
        with open(ex, "w") as f:
            f.write(exceptions_text)
    return check_layout.check(root, limit, ex)[0]


CIRCLE = {
    "lib/a/a.c": "int x;\n" + c_func("acA", 5, ["acB"]),
    "lib/b/b.c": "int x;\n" + c_func("acB", 5, ["acC"]),
    "lib/c/c.c": "int x;\n" + c_func("acC", 5, ["acA"]) +
                 "static int acD(void) { return 0; }\n",
    # d calls a but nothing calls d back: no circle through d
    "lib/d/d.c": "int x;\n" + c_func("acE", 5, ["acA"]),
}


def test_short_and_acyclic_passes(tmp_path):
    root = tree(tmp_path, {"lib/a/a.c": "int x;\n" + c_func("acA", 5, ["acB"]),
                           "lib/b/b.c": "int x;\n" + c_func("acB", 5),
                           "python/autoac/m.py": "def f():\n    return 1\n"})
    assert run(root) == []


def test_long_functions_are_named(tmp_path):
    root = tree(tmp_path, {"lib/a/a.c": "int x;\n" + c_func("acLong", 12) + c_func("acShort", 10),
                           "tools/t/t.py": "def long_one():\n" + "    x = 1\n" * 11})
    errs = run(root)
    assert len(errs) == 2, errs
    assert "lib/a/a.c: acLong is 12 lines" in errs[0]
    assert "tools/t/t.py: long_one is 12 lines" in errs[1]


def test_circle_of_three_is_named_once(tmp_path):
    errs = run(tree(tmp_path, CIRCLE))
    assert errs == ["circle: lib/a/a.c, lib/b/b.c, lib/c/c.c call each other: break it "
                    "(a stage calls only the stages below it), or list it with a reason in " +
                    os.path.join(str(tmp_path), "exceptions.txt")]


def test_static_functions_and_comments_are_no_use(tmp_path):
    files = {"lib/a/a.c": "int x;\n" + c_func("acA", 5, ["acB"]),
             # b names acA only in a comment and a string, and calls a
             # static function of its own
             "lib/b/b.c": "/* acA */ const char *s = \"acA\";\n"
                          "static int acF(void) { return 0; }\n" + c_func("acB", 5, ["acF"])}
    assert run(tree(tmp_path, files)) == []


def test_exceptions_excuse_and_must_stay_true(tmp_path):
    files = dict(CIRCLE)
    files["lib/e/e.c"] = "int x;\n" + c_func("acLong", 12)
    root = tree(tmp_path, files)
    ok = ("length lib/e/e.c acLong -- one table\n"
          "circle lib/c/c.c lib/a/a.c lib/b/b.c -- mutual recursion\n")
    assert run(root, ok) == []
    stale = ok + "length lib/a/a.c acA -- was long\ncircle lib/a/a.c lib/d/d.c -- was one\n"
    errs = run(root, stale)
    assert len(errs) == 2, errs
    assert "acA in lib/a/a.c is not over 10 lines" in errs[0]
    assert "no circle among lib/a/a.c, lib/d/d.c" in errs[1]


@pytest.mark.parametrize("line", ["length lib/e/e.c acLong\n",          # no reason
                                  "length lib/e/e.c -- why\n",          # no function
                                  "width lib/e/e.c acLong -- why\n"])   # no such rule
def test_malformed_exceptions_are_errors(tmp_path, line):
    root = tree(tmp_path, {"lib/e/e.c": "int x;\n" + c_func("acShort", 5)})
    errs = run(root, line)
    assert len(errs) == 1 and "exceptions.txt:1:" in errs[0], errs


def test_without_git_every_file_counts(tmp_path):
    root = tree(tmp_path, {"lib/a/a.c": "int x;\n" + c_func("acLong", 12)}, git=False)
    errs = run(root)
    assert len(errs) == 1 and "acLong is 12 lines" in errs[0]


def test_python_module_circle_is_named(tmp_path):
    files = {"python/autoac/__init__.py": "from . import a\n",
             "python/autoac/a.py": "from .b import g\n\ndef f():\n    return g()\n",
             "python/autoac/b.py": "import autoac.a\n\ndef g():\n    return 1\n"}
    errs = run(tree(tmp_path, files))
    assert len(errs) == 1 and "the modules autoac.a, autoac.b import each other" in errs[0], errs
    ok = "circle autoac.a autoac.b -- a test\n"
    assert run(str(tmp_path), ok) == []


def test_python_lazy_imports_and_packages_are_no_circle(tmp_path):
    files = {
        # a package that re-exports its submodules, which import names from
        # the package above and a sibling: no circle
        "python/autoac/__init__.py": "class AutoacError(Exception):\n    pass\n",
        "python/autoac/sub/__init__.py": "from .x import f\nfrom .y import g\n",
        "python/autoac/sub/x.py": "from .. import AutoacError\nfrom . import y\n\ndef f():\n    return y\n",
        "python/autoac/sub/y.py": "def g():\n    from .x import f  # lazy: runs when called\n    return f\n",
        # a guarded import at module level still counts, one in a class does not
        "python/autoac/z.py": "try:\n    from .sub import x\nexcept ImportError:\n    x = None\n",
        "python/autoac/w.py": "class C:\n    from . import z\n",
    }
    assert run(tree(tmp_path, files)) == []
    # ... and the guarded one closes a circle once z is imported back
    (tmp_path / "python/autoac/sub/y.py").write_text("from .. import z\n")
    subprocess.run(["git", "-C", str(tmp_path), "add", "-A"], check=True)
    errs = run(str(tmp_path))
    # z -> sub.x (from .sub import x: the module) -> sub.y -> z
    assert len(errs) == 1 and "the modules autoac.sub.x, autoac.sub.y, autoac.z " in errs[0], errs
