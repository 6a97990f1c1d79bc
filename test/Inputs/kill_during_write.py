"""Ctrl-C and SIGTERM while ac-opt holds staged outputs leave no temporary
file behind (docs/reliability.md, "Signals").

  kill_during_write.py AC_OPT DIR

Writes DIR/chain.mlir (a 3000-op chain: its printed module fills a pipe),
runs ac-opt on it with a report and a plan file in DIR and its standard
output a pipe nobody reads: the outputs are staged (DIR/r.json.tmp.*) and
ac-opt blocks writing the module.  Then SIGTERM (and, in a second run,
SIGINT) ends it.  Prints, per signal, how ac-opt ended and what is left in
DIR besides the module."""
import glob
import os
import signal
import subprocess
import sys
import time

acopt, d = sys.argv[1:3]
module = os.path.join(d, "chain.mlir")
with open(module, "w") as f:
    f.write("func.func @f(%x: tensor<64xf32>, %dy: tensor<64xf32> {ac.tangent}) -> "
            "(tensor<64xf32> {ac.output}, tensor<64xf32>) attributes {ac.joint} {\n")
    prev = "%x"
    for i in range(3000):
        f.write("  %%a%d = math.tanh %s : tensor<64xf32>\n" % (i, prev))
        prev = "%%a%d" % i
    f.write("  %%g = arith.mulf %s, %%dy : tensor<64xf32>\n" % prev)
    f.write("  return %s, %%g : tensor<64xf32>, tensor<64xf32>\n}\n" % prev)
for sig in (signal.SIGTERM, signal.SIGINT):
    report = os.path.join(d, "r.json")
    p = subprocess.Popen([acopt, module, "--ac-report=" + report,
                          "--ac-plan-out=" + os.path.join(d, "p.json")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         # SIGINT as at a terminal (a background job, as
                         # under lit, starts with it ignored: left ignored).
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    start = time.time()
    while len(glob.glob(os.path.join(d, "*.tmp.*"))) < 2 and p.poll() is None and time.time() - start < 120:
        time.sleep(0.005)
    staged = len(glob.glob(os.path.join(d, "*.tmp.*")))
    p.send_signal(sig)
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    p.stdout.close()
    left = sorted(f for f in os.listdir(d) if f != os.path.basename(module))
    print("%s: staged %d, ended by %s, left %s" % (
        signal.Signals(sig).name, staged,
        signal.Signals(-p.returncode).name if p.returncode < 0 else "exit %d" % p.returncode,
        left or "nothing"))
