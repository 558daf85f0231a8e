"""A `make pools` supervisor killed with SIGKILL leaves no pool process behind: its dramatiq mains
get the parent-death signal and stop their worker processes, and each worker process also dies
with its main (rabbitmq/parent_watch.py).

The supervisor runs as `make pools` starts it, on 127.0.0.1's RabbitMQ with a queue prefix of its
own and the test database; every process is found from the supervisor's pid, killed by pid in a
finally when still alive, and the run's queues are deleted afterwards."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from rabbitmq import parent_watch, pools
from tests import backends

ROOT = Path(__file__).resolve().parents[3]
POOLS = ("scheduler", "disbursement")
BOOT_SECONDS = 60
GONE_SECONDS = 15


def _rabbitmq_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5672), timeout=1):
            return True
    except OSError:
        return False


def _all_processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process (Linux /proc)."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                table[int(entry)] = (int(fields[1]), fields[0])
            except (OSError, ValueError, IndexError):
                continue
    return table


def _descendants(root: int) -> set[int]:
    table = _all_processes()
    found, frontier = set(), {root}
    while frontier:
        children = {pid for pid, (parent, _) in table.items() if parent in frontier} - found
        found |= children
        frontier = children
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for whoever adopted it to reap it has exited)."""
    entry = _all_processes().get(pid)
    return entry is not None and entry[1] != "Z"


def _delete_queues(prefix: str) -> None:
    import pika

    connection = pika.BlockingConnection(pika.URLParameters(backends.AMQP_URL))
    try:
        channel = connection.channel()
        for pool in pools.POOLS:
            if pool.name in POOLS:
                for queue in pool.queues:
                    for name in (prefix + queue, f"{prefix}{queue}.DQ", f"{prefix}{queue}.XQ"):
                        channel.queue_delete(name)
    finally:
        connection.close()


@pytest.fixture
def pool_environment(app, tmp_path):
    if not sys.platform.startswith("linux"):
        pytest.skip("finds the pool processes in /proc (Linux)")
    if not _rabbitmq_up():
        pytest.skip("the pools consume from RabbitMQ on 127.0.0.1:5672, which is not running")
    prefix = f"orphans{os.getpid()}."
    environment = {
        **os.environ,
        "AMQP_URL": backends.AMQP_URL,
        "QUEUE_PREFIX": prefix,
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        **{f"POOL_{name.upper()}_PROCESSES": "1" for name in POOLS},
        **{f"POOL_{name.upper()}_THREADS": "1" for name in POOLS},
    }
    yield environment
    _delete_queues(prefix)


@contextmanager
def _running_pools(environment: dict, tmp_path: Path) -> Iterator[tuple[subprocess.Popen, set[int], set[int]]]:
    """The supervisor with its pools booted: (supervisor, dramatiq mains, worker processes). Every
    process still alive at the end is killed by pid."""
    log_path = tmp_path / "pools.log"
    log = log_path.open("wb")
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "rabbitmq.pools", "run", *POOLS], cwd=ROOT, env=environment, stdout=log, stderr=log
    )
    started: set[int] = set()
    try:
        # Each pool: its dramatiq main (the supervisor's child) and one worker process (the main's).
        mains: set[int] = set()
        deadline = time.monotonic() + BOOT_SECONDS
        while time.monotonic() < deadline:
            started = _descendants(supervisor.pid)
            table = _all_processes()
            mains = {pid for pid in started if table.get(pid, (0, ""))[0] == supervisor.pid}
            if len(mains) == len(POOLS) and len(started) >= 2 * len(POOLS):
                break
            assert supervisor.poll() is None, log_path.read_text()
            time.sleep(0.2)
        assert len(started) >= 2 * len(POOLS), f"pools did not start: {log_path.read_text()}"
        yield supervisor, mains, started - mains
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait(5)
        for pid in started:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        log.close()


def _gone_within(pids: set[int], seconds: float) -> set[int]:
    """The pids still alive after waiting up to ``seconds`` for them all to exit."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(pid) for pid in pids):
        time.sleep(0.2)
    return {pid for pid in pids if _alive(pid)}


def test_killing_the_supervisor_stops_every_pool_process(pool_environment, tmp_path):
    with _running_pools(pool_environment, tmp_path) as (supervisor, mains, workers):
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait(5)
        assert _gone_within(mains | workers, GONE_SECONDS) == set(), "pool processes outlived their supervisor"


def test_killing_a_dramatiq_main_stops_its_workers_and_the_layout(pool_environment, tmp_path):
    with _running_pools(pool_environment, tmp_path) as (supervisor, mains, workers):
        main = min(mains)
        os.kill(main, signal.SIGKILL)
        # Its worker processes die with it; the supervisor sees a pool gone and stops the others.
        assert _gone_within(mains | workers, GONE_SECONDS) == set()
        assert supervisor.wait(GONE_SECONDS) != 0


# The fallback without the parent-death signal: a process watching its parent (ParentWatch) stops
# when that parent is SIGKILLed. The middle process prints its child's pid and waits.
_MIDDLE = textwrap.dedent(
    """
    import subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", sys.argv[1]])
    print(child.pid, flush=True)
    time.sleep(60)
    """
)
_WATCHING_CHILD = textwrap.dedent(
    """
    import os, signal, time
    from rabbitmq.parent_watch import ParentWatch
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(1))
    ParentWatch(os.getppid(), None, interval=0.1).start()
    print("watching", flush=True)
    deadline = time.monotonic() + 30
    while not stopped and time.monotonic() < deadline:
        time.sleep(0.05)
    """
)


def test_a_worker_whose_main_is_killed_stops_by_its_parent_watch():
    middle = subprocess.Popen(
        [sys.executable, "-c", _MIDDLE, _WATCHING_CHILD], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    child = 0
    try:
        child = int(middle.stdout.readline())
        assert middle.stdout.readline().strip() == "watching"
        middle.send_signal(signal.SIGKILL)
        middle.wait(5)
        deadline = time.monotonic() + GONE_SECONDS
        while time.monotonic() < deadline and _alive(child):
            time.sleep(0.1)
        assert not _alive(child)
    finally:
        if middle.poll() is None:
            middle.kill()
            middle.wait(5)
        if child and _alive(child):
            os.kill(child, signal.SIGKILL)


def test_parent_of_reads_the_parent_pid():
    assert parent_watch.parent_of(os.getpid()) == os.getppid()
    assert parent_watch.parent_of(2**22 + 12345) is None  # above any pid_max: no such process
