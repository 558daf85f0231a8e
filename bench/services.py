"""A throw-away production shape for benchmarks: a bench database, a bench queue prefix, and
gunicorn / pools / floor workers as subprocesses, all removed at the end.

It runs against the shared servers (BENCH_POSTGRES_URL, BENCH_AMQP_URL) or against the ones it is
given (the fault-injection run passes its private instances). A child spawned with
``restart=True`` is restarted when it exits, as a process manager (systemd ``Restart=always``)
restarts `make api` / `make pools` in production; every restart is recorded in ``restarts``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
AMQP_URL = os.environ.get("BENCH_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
# A process manager's pause before restarting a child that exited (systemd RestartSec).
RESTART_PAUSE = 1.0


def run_sql(database_url: str, sql: str) -> list[tuple]:
    """Run one statement on a connection of its own, outside any transaction (autocommit: DDL such
    as CREATE DATABASE needs it); its rows, [] for a statement that returns none."""
    import psycopg2

    connection = psycopg2.connect(database_url)
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchall() if cursor.description else []
    finally:
        connection.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_ready(base_url: str, limit: float, failure: str) -> None:
    """Poll ``/health/ready`` until it answers 200; RuntimeError(``failure``) after ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if requests.get(base_url + "/health/ready", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise RuntimeError(failure)


def run_cli(env: dict[str, str], *arguments: str) -> str:
    """An ops command (`make cli ARGS="..."`) in ``env``; its output (RuntimeError when it fails)."""
    done = subprocess.run(
        [str(BIN / "flask"), "--app", "app:create_app", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode:
        raise RuntimeError(f"cli {' '.join(arguments)} failed: {done.stderr[-2000:]}")
    return done.stdout


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children first), read from /proc (Linux)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name (2nd field) may hold spaces: the fields after its ")" are fixed.
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # exited while we read
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, frontier = [], [pid]
    while frontier:
        children = [child for parent in frontier for child in parents.get(parent, [])]
        found += children
        frontier = children
    return found


@dataclass(frozen=True)
class Restart:
    """A kept child that exited and was started again."""

    name: str
    exit_code: int
    at: float  # time.monotonic()


class BenchEnvironment:
    """``with BenchEnvironment() as env: env.start_api(); env.start_pools() ...``"""

    def __init__(
        self, tag: str = "bench", admin_url: str = ADMIN_URL, amqp_url: str = AMQP_URL, log_dir: str | None = None
    ) -> None:
        self.database = f"loans_{tag}_{os.getpid()}"
        self.prefix = f"{tag}{os.getpid()}."
        self.port = free_port()
        self.admin_url, self.amqp_url = admin_url, amqp_url
        self.metrics_dir = tempfile.mkdtemp(prefix="bench-prom-")
        self.log_dir = Path(log_dir) if log_dir else Path(self.metrics_dir).parent
        self.children: list[subprocess.Popen] = []
        self.kept: dict[str, subprocess.Popen] = {}
        self.latest: dict[str, subprocess.Popen] = {}  # the last process started under each log name
        self.restarts: list[Restart] = []
        self._stopping = threading.Event()
        self._watcher: threading.Thread | None = None
        self.database_url = admin_url.rsplit("/", 1)[0] + f"/{self.database}"
        self.env = {
            **os.environ,
            "APP_ENV": "sandbox",
            "DATABASE_URL": self.database_url,
            "AMQP_URL": amqp_url,
            "QUEUE_PREFIX": self.prefix,
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "PROMETHEUS_MULTIPROC_DIR": self.metrics_dir,
            "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
        }

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self._admin(f'DROP DATABASE IF EXISTS "{self.database}"', f'CREATE DATABASE "{self.database}"')
        return self

    def __exit__(self, *exc):
        self.stop()
        try:
            self._admin(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            self._delete_queues()
        except Exception as error:
            if exc[0] is None:
                raise
            # The servers may be what failed: keep the error that brought us here.
            print(f"bench clean-up skipped after an error: {type(error).__name__}: {error}", file=sys.stderr)
        finally:
            shutil.rmtree(self.metrics_dir, ignore_errors=True)
        return False

    def _admin(self, *statements: str) -> None:
        for statement in statements:
            run_sql(self.admin_url, statement)

    def _delete_queues(self) -> None:
        import pika

        from rabbitmq.queues import ALL_QUEUES

        connection = pika.BlockingConnection(pika.URLParameters(self.amqp_url))
        channel = connection.channel()
        for family in (*ALL_QUEUES, "floor"):
            for suffix in ("", ".DQ", ".XQ"):
                channel.queue_delete(self.prefix + family + suffix)
        connection.close()

    def log_path(self, log_name: str) -> Path:
        return self.log_dir / f"{self.database}-{log_name}.log"

    def spawn(self, *command: str, log_name: str, restart: bool = False) -> subprocess.Popen:
        """Start ``command`` in its own session; with ``restart``, start it again whenever it exits."""
        # Left open: the child writes to it for as long as it runs (appended to across restarts).
        log = open(self.log_path(log_name), "a")  # noqa: SIM115
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.children.append(process)
        self.latest[log_name] = process
        if restart:
            self.kept[log_name] = process
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._keep_running, name="process-manager", daemon=True)
                self._watcher.start()
        return process

    def _keep_running(self) -> None:
        while not self._stopping.wait(0.2):
            for name, process in list(self.kept.items()):
                if process.poll() is None:
                    continue
                self.restarts.append(Restart(name, process.returncode, time.monotonic()))
                if self._stopping.wait(RESTART_PAUSE):
                    return
                self.spawn(*process.args, log_name=name, restart=True)

    def start_api(
        self,
        workers: int = int(os.environ.get("WEB_CONCURRENCY", "2")),
        threads: int = int(os.environ.get("API_THREADS", "8")),
        restart: bool = False,
    ) -> None:
        self.env.update(WEB_CONCURRENCY=str(workers), API_THREADS=str(threads))
        self.spawn(
            str(BIN / "gunicorn"),
            "--config",
            "http/gunicorn_conf.py",
            "app:create_app()",
            log_name="api",
            restart=restart,
        )
        self.wait_ready()

    def start_pools(self, restart: bool = False, layout: str = "production") -> None:
        """The pools of ``layout`` (rabbitmq/pools.py LAYOUTS: production or small)."""
        self.spawn(sys.executable, "-m", "rabbitmq.pools", "--layout", layout, "run", log_name="pools", restart=restart)
        time.sleep(1.0)

    def pool_worker_pids(self) -> list[int]:
        """The pools' dramatiq processes (each pool's main process and its worker processes)."""
        supervisor = self.kept.get("pools")
        return descendants(supervisor.pid) if supervisor is not None and supervisor.poll() is None else []

    def cli(self, *arguments: str) -> str:
        """An ops command (`make cli ARGS="..."`) against this environment; its output."""
        return run_cli(self.env, *arguments)

    def wait_ready(self, limit: float = 60.0) -> None:
        wait_until_ready(self.base_url, limit, f"the bench API did not become ready (logs in {self.log_dir})")

    def stop(self) -> None:
        self._stopping.set()
        if self._watcher is not None:
            self._watcher.join()
            self._watcher = None
        self.kept.clear()
        for process in self.children:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.children:
            try:
                process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        self.children.clear()
        self._stopping.clear()
