"""Checks that every list of options is the one table's (include/autoac/options.def).

usage: check_options.py OPTIONS_DEF USAGE_TEXT [PASS_HELP]

USAGE_TEXT is `ac-opt --help`; PASS_HELP, when given, is
`mlir-opt --load-pass-plugin=AutoACPlugin.so --help`.  Prints one line per
check and exits 1 on the first list that differs from the table.
"""
import re
import sys


def table(path):
    """(name, scope, help) of each AC_OPTION in the table, in order."""
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    rows = re.findall(r'AC_OPTION\(\s*"([^"]+)"\s*,\s*\w+\s*,\s*(\w+)\s*,\s*(PASS|TOOL)\s*,'
                      r'\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)', text)
    return [(name, scope, bytes(help_, "utf-8").decode("unicode_escape"))
            for name, kind, scope, default, help_ in rows]


def fail(msg):
    print("MISMATCH: " + msg)
    sys.exit(1)


def main():
    rows = table(sys.argv[1])
    if len(rows) < 13:
        fail("options.def has %d options; the parser above is out of date" % len(rows))
    names = [r[0] for r in rows]
    passed = [r[0] for r in rows if r[1] == "PASS"]
    print("table: " + " ".join(names))
    # ac-opt's usage text: one line per option, in table order, with its help.
    usage = open(sys.argv[2]).read().splitlines()
    listed = []
    for line in usage:
        m = re.match(r"^  ([a-z][a-z-]*) +(\S.*)$", line)
        if m:
            listed.append(m.group(1))
            help_ = dict((r[0], r[2]) for r in rows).get(m.group(1))
            if help_ is None or not m.group(2).startswith(help_):
                fail("usage line for '%s' does not carry the table's help: %r" % (m.group(1), line))
    if listed != names:
        fail("ac-opt --help lists %s, the table %s" % (listed, names))
    print("ac-opt usage: every option of the table, in order, with its help")
    if len(sys.argv) > 3:
        helptext = open(sys.argv[3]).read().splitlines()
        start = [i for i, l in enumerate(helptext) if re.match(r"^ +--auto-ac +- ", l)]
        if len(start) != 1:
            fail("no single --auto-ac entry in mlir-opt --help")
        indent = len(helptext[start[0]]) - len(helptext[start[0]].lstrip())
        opts = []
        for line in helptext[start[0] + 1:]:
            if len(line) - len(line.lstrip()) <= indent:
                break
            m = re.match(r"^ +--([a-z][a-z-]*)(=<\w+>)? +- (.*)$", line)
            if not m:
                fail("unexpected line in auto-ac's options: %r" % line)
            opts.append(m.group(1))
            if m.group(3) != dict((r[0], r[2]) for r in rows)[m.group(1)]:
                fail("pass option '%s' does not carry the table's help" % m.group(1))
        if sorted(opts) != sorted(passed):
            fail("auto-ac's options are %s, the table's PASS options %s" % (sorted(opts), sorted(passed)))
        print("auto-ac pass options: the table's PASS options, with their help")


main()
