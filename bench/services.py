"""A throw-away production shape for benchmarks: a bench database, a bench queue prefix, and
gunicorn / pools / floor workers as subprocesses, all removed at the end."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
AMQP_URL = os.environ.get("BENCH_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class BenchEnvironment:
    """``with BenchEnvironment() as env: env.start_api(); env.start_pools() ...``"""

    def __init__(self, tag: str = "bench") -> None:
        self.database = f"loans_{tag}_{os.getpid()}"
        self.prefix = f"{tag}{os.getpid()}."
        self.port = free_port()
        self.metrics_dir = tempfile.mkdtemp(prefix="bench-prom-")
        self.children: list[subprocess.Popen] = []
        self.database_url = ADMIN_URL.rsplit("/", 1)[0] + f"/{self.database}"
        self.env = {
            **os.environ,
            "APP_ENV": "sandbox",
            "DATABASE_URL": self.database_url,
            "AMQP_URL": AMQP_URL,
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
        self._admin(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        self._delete_queues()
        shutil.rmtree(self.metrics_dir, ignore_errors=True)
        return False

    def _admin(self, *statements: str) -> None:
        import psycopg2

        connection = psycopg2.connect(ADMIN_URL)
        connection.autocommit = True
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
        connection.close()

    def _delete_queues(self) -> None:
        import pika

        from rabbitmq.queues import ALL_QUEUES

        connection = pika.BlockingConnection(pika.URLParameters(AMQP_URL))
        channel = connection.channel()
        for family in (*ALL_QUEUES, "floor"):
            for suffix in ("", ".DQ", ".XQ"):
                channel.queue_delete(self.prefix + family + suffix)
        connection.close()

    def spawn(self, *command: str, log_name: str) -> subprocess.Popen:
        # Left open: the child writes to it for as long as it runs.
        log = open(Path(self.metrics_dir).parent / f"{self.database}-{log_name}.log", "w")  # noqa: SIM115
        process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.children.append(process)
        return process

    def start_api(self, workers: int = 2, threads: int = 8) -> None:
        self.env.update(WEB_CONCURRENCY=str(workers), API_THREADS=str(threads))
        self.spawn(str(BIN / "gunicorn"), "--config", "http/gunicorn_conf.py", "app:create_app()", log_name="api")
        self.wait_ready()

    def start_pools(self) -> None:
        self.spawn(sys.executable, "-m", "rabbitmq.pools", "run", log_name="pools")
        time.sleep(1.0)

    def wait_ready(self, limit: float = 60.0) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                if requests.get(self.base_url + "/health/ready", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise RuntimeError(f"the bench API did not become ready (logs in {tempfile.gettempdir()})")

    def stop(self) -> None:
        for process in self.children:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.children:
            try:
                process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        self.children.clear()
