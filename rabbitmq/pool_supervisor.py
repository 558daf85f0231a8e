"""Starts one dramatiq process group per pool and keeps them together (`make pools`).

Ctrl-C or SIGTERM stops every pool gracefully (dramatiq finishes the messages in hand). When one
pool dies the others are stopped too and the exit code is non-zero, so a process manager
(systemd, a container runtime) restarts the whole layout instead of running it half-staffed.
When the supervisor itself dies, even by SIGKILL, its pools stop too (rabbitmq/parent_watch.py).
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

from rabbitmq.parent_watch import SUPERVISOR_PID_VARIABLE, supervised_child_setup

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("pools")


def _stop(children: dict, grace: float = 30.0) -> None:
    for process in children.values():
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for process in children.values():
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()


def run(pools, dramatiq: str) -> int:
    """Run ``pools`` until a signal or until one of them exits; returns the exit code."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    children: dict[str, subprocess.Popen] = {}
    stopping = []

    def on_signal(signum, frame):
        stopping.append(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from models.services.platform.metrics import prune_dead_process_files

        os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
        prune_dead_process_files()
    supervisor = os.getpid()
    environment = {**os.environ, SUPERVISOR_PID_VARIABLE: str(supervisor)}
    for pool in pools:
        command = pool.command(dramatiq)
        log.info("pool %s: %s", pool.name, " ".join(command))
        # Own session: a terminal Ctrl-C reaches only this supervisor, which stops them once. The
        # pre-exec hook makes the pool's dramatiq main die with this supervisor.
        children[pool.name] = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment,
            start_new_session=True,
            preexec_fn=partial(supervised_child_setup, supervisor),
        )
    code = 0
    try:
        while not stopping:
            exited = {name: p.returncode for name, p in children.items() if p.poll() is not None}
            if exited:
                log.error("pool(s) exited: %s; stopping the others", exited)
                code = next(iter(exited.values())) or 1
                break
            time.sleep(0.5)
    finally:
        _stop(children)
    return code


if __name__ == "__main__":
    from rabbitmq.pools import main

    sys.exit(main(["run", *sys.argv[1:]]))
