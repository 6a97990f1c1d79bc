#!/usr/bin/env python3
"""bench/cli_e2e.py - ac-opt against mlir-opt from the command line (issue 14
item 8, docs/bench.md "From the command line").

    bench/cli_e2e.py [--runs N] [--budget SIZE] [--build DIR] [--mlir-opt PATH]
                     [--same-allocator] FILE.mlir

Runs, per round and back to back (so a shared machine's load mostly cancels):
  - the baseline: `mlir-opt --allow-unregistered-dialect FILE -o T` (parse,
    verify, print: what a user compares against);
  - autoac: `ac-opt FILE --ac-budget=SIZE -o T2` (the whole tool: start-up,
    parse, import, plan, rewrite, print, write, exit);
  - with --same-allocator, the baseline again with ac-opt's heap (jemalloc,
    preloaded, with the settings of tools/ac-opt/allocator.c): how much of
    the difference is the allocator and how much is autoac's own work.
Each process's CPU time (user + system, from wait4), wall time, page faults
and peak RSS are taken; the medians over the rounds are printed, and the
ratios autoac / baseline of the CPU times, per round and as the median.
Outputs go to a temporary directory that is removed afterwards.  Nothing is
asserted: speed is measured here, never in a test.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv, env=None):
    """Runs argv to completion; returns (cpu s, wall s, faults, max RSS KiB)."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("cli_e2e: %s failed (%d): %s" % (argv[0], p.returncode, err[-2000:]))
    return ru.ru_utime + ru.ru_stime, wall, ru.ru_minflt + ru.ru_majflt, ru.ru_maxrss


def allocator_env(build):
    """The environment that gives mlir-opt ac-opt's heap, or None."""
    cache = os.path.join(build, "CMakeCache.txt")
    lib = None
    if os.path.exists(cache):
        for line in open(cache):
            if line.startswith("AUTOAC_JEMALLOC_PATH:"):
                lib = line.split("=", 1)[1].strip()
    if not lib or lib.endswith("NOTFOUND"):
        return None
    real = os.path.realpath(lib)  # the .so link of the -dev package
    conf = re.search(r'malloc_conf\s*=\s*((?:"[^"]*"\s*)+);',
                     open(os.path.join(ROOT, "tools/ac-opt/allocator.c")).read())
    env = dict(os.environ)
    env["LD_PRELOAD"] = real
    env["MALLOC_CONF"] = "".join(re.findall(r'"([^"]*)"', conf.group(1)))
    return env


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--budget", default="3.70GiB")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--same-allocator", action="store_true")
    a = ap.parse_args()
    acopt = os.path.join(a.build, "bin", "ac-opt")
    same = allocator_env(a.build) if a.same_allocator else None
    if a.same_allocator and same is None:
        sys.exit("cli_e2e: this build's ac-opt is not linked with jemalloc")
    tmp = tempfile.mkdtemp(prefix="cli_e2e.")
    rows = {"mlir-opt": [], "ac-opt": [], "mlir-opt (ac-opt's heap)": []}
    try:
        base = [a.mlir_opt, "--allow-unregistered-dialect", a.file, "-o",
                os.path.join(tmp, "base.mlir")]
        ours = [acopt, a.file, "--ac-budget=" + a.budget, "-o",
                os.path.join(tmp, "ac.mlir")]
        for _ in range(a.runs):
            rows["mlir-opt"].append(run(base))
            rows["ac-opt"].append(run(ours))
            if same:
                rows["mlir-opt (ac-opt's heap)"].append(run(base, same))
        size = os.path.getsize(a.file)
    finally:
        shutil.rmtree(tmp)
    print("%s (%.1f MB), budget %s, %d rounds; medians" %
          (os.path.basename(a.file), size / 1e6, a.budget, a.runs))
    print("%-26s %8s %8s %8s %9s" % ("", "CPU s", "wall s", "faults", "RSS MiB"))
    for name, r in rows.items():
        if r:
            print("%-26s %8.3f %8.3f %8d %9.0f" % (
                name, statistics.median(x[0] for x in r),
                statistics.median(x[1] for x in r),
                statistics.median(x[2] for x in r),
                statistics.median(x[3] for x in r) / 1024))
    ratios = [o[0] / b[0] for o, b in zip(rows["ac-opt"], rows["mlir-opt"])]
    print("ratio ac-opt / mlir-opt (CPU): median %.2f (runs %s)" %
          (statistics.median(ratios), " ".join("%.2f" % x for x in ratios)))
    if same:
        r2 = [o[0] / b[0] for o, b in zip(rows["ac-opt"], rows["mlir-opt (ac-opt's heap)"])]
        print("ratio ac-opt / mlir-opt on the same heap (CPU): median %.2f (runs %s)" %
              (statistics.median(r2), " ".join("%.2f" % x for x in r2)))


if __name__ == "__main__":
    main()
