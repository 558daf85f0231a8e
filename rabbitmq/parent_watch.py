"""Pool processes die with the process that started them, so a `make pools` killed with SIGKILL
never leaves pools consuming on (a process manager's restart would double the consumers).

Three generations: the supervisor (rabbitmq/pool_supervisor.py) starts one dramatiq main per pool,
and each dramatiq main forks its worker processes. SIGTERM stops each of them gracefully (the
messages in hand are finished), so every guard below sends SIGTERM:

* **parent-death signal** (Linux ``prctl(PR_SET_PDEATHSIG)``): the kernel sends SIGTERM to a
  process when its parent dies. The supervisor sets it in each dramatiq main before exec; each
  worker process sets it at boot (dramatiq's main does not watch its workers' side of this).
* **parent watch**, the fallback where the signal is unavailable or was set too late: a thread in
  each worker process polls every ``POLL_SECONDS``; when its dramatiq main is gone (its parent pid
  changed) it stops itself, and when the supervisor is gone (the main's parent changed from
  ``POOL_SUPERVISOR_PID``) it stops its dramatiq main, which stops every worker of the pool.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading

log = logging.getLogger("pools")

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
POLL_SECONDS = 1.0
# Set by the supervisor for its pools: the pid their dramatiq mains must keep as parent.
SUPERVISOR_PID_VARIABLE = "POOL_SUPERVISOR_PID"


def die_with_parent(signum: int = signal.SIGTERM) -> bool:
    """Ask the kernel for ``signum`` when this process's parent dies (Linux); False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def supervised_child_setup(supervisor_pid: int) -> None:
    """``preexec_fn`` of each pool the supervisor starts (runs in the child before exec): die with
    the supervisor, and leave at once when it already died before the signal was armed."""
    die_with_parent()
    if os.getppid() != supervisor_pid:
        os._exit(1)


def parent_of(pid: int) -> int | None:
    """``pid``'s parent pid (Linux /proc), or None when the process is gone or unreadable."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after it.
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


class ParentWatch(threading.Thread):
    """Stops this worker process when its dramatiq main is gone, and the main when the supervisor
    is gone (see the module docstring)."""

    def __init__(self, main_pid: int, supervisor_pid: int | None, interval: float = POLL_SECONDS) -> None:
        super().__init__(name="parent-watch", daemon=True)
        self.main_pid = main_pid
        self.supervisor_pid = supervisor_pid
        self.interval = interval
        self._stopped = threading.Event()

    def run(self) -> None:
        while not self._stopped.wait(self.interval):
            if os.getppid() != self.main_pid:
                log.error("pool: dramatiq main %s is gone; stopping worker process %s", self.main_pid, os.getpid())
                os.kill(os.getpid(), signal.SIGTERM)
                return
            if self.supervisor_pid is not None and parent_of(self.main_pid) not in (self.supervisor_pid, None):
                log.error("pool: supervisor %s is gone; stopping dramatiq main %s", self.supervisor_pid, self.main_pid)
                os.kill(self.main_pid, signal.SIGTERM)
                return

    def stop(self) -> None:
        self._stopped.set()


def watch_parents() -> ParentWatch:
    """Arm both guards in a dramatiq worker process (called at its boot)."""
    parent = multiprocessing.parent_process()
    main_pid = parent.pid if parent is not None and parent.pid else os.getppid()
    die_with_parent()
    supervisor = os.environ.get(SUPERVISOR_PID_VARIABLE, "")
    watch = ParentWatch(main_pid, int(supervisor) if supervisor.isdigit() else None)
    watch.start()
    if os.getppid() != main_pid:  # the main died before the signal was armed
        os.kill(os.getpid(), signal.SIGTERM)
    return watch
