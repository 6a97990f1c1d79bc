"""Starts the ranks of a test's torch.distributed job (gloo over loopback on
the CPU) as processes, waits for them within a bound, and reads what each
wrote: the launcher test_torch_pipeline.py and test_torch_ranks_agree.py
share."""
import json
import os
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_ranks(tmp_path, worker, args, world, env_of=lambda rank: {}, timeout=400):
    """Runs `python worker OUT ARGS...` (worker: a file beside this one) as
    ranks 0..world-1 of one job, OUT a JSON file per rank, with RANK,
    WORLD_SIZE, MASTER_ADDR, MASTER_PORT, OMP_NUM_THREADS=1 and
    env_of(rank) set; asserts every rank exited 0 (its output's tail
    otherwise) and returns the ranks' JSON, in rank order."""
    port = free_port()
    procs, outs = [], []
    for r in range(world):
        out = tmp_path / f"rank{r}.json"
        env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=str(port), OMP_NUM_THREADS="1", **env_of(r))
        procs.append(subprocess.Popen([sys.executable, os.path.join(HERE, worker), str(out)] +
                                      list(args), env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
        outs.append(out)
    logs = []
    try:
        for p in procs:
            logs.append(p.communicate(timeout=timeout)[0])
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for p, log in zip(procs, logs):
        assert p.returncode == 0, log[-3000:]
    return [json.loads(o.read_text()) for o in outs]
