"""The embedded default under the full flow: `make run` (``python app.py``: waitress, SQLite and the
in-process broker and worker in one process) on a throw-away SQLite file, with the same partner
threads, webhook receivers and checks as the production shape."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import webhook_check
from bench.proc_cpu import CpuSampler, print_cpu
from bench.services import ROOT, descendants, free_port, run_cli, wait_until_ready

KIND = "embedded service (API + worker)"


class EmbeddedService:
    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="bench-embedded-")
        self.path = Path(self.directory) / "bench.sqlite3"
        self.port = free_port()
        # Not the caller's AMQP_URL: the embedded default is the in-process broker.
        self.env = {key: value for key, value in os.environ.items() if key not in ("AMQP_URL", "QUEUE_PREFIX")}
        self.env.update(
            APP_ENV="sandbox",
            DATABASE_URL=f"sqlite:///{self.path}",
            PORT=str(self.port),
            HOST="127.0.0.1",
            LOG_LEVEL=os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
        )
        self.env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(Path(self.directory) / "service.log", "a")  # noqa: SIM115 (the child writes to it)
        self.process = subprocess.Popen(
            [sys.executable, "app.py"], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        wait_until_ready(self.base_url, 60, f"the embedded service did not become ready (log in {self.directory})")

    def cli(self, *arguments: str) -> str:
        return run_cli(self.env, *arguments)

    def rows(self, sql: str) -> list[tuple]:
        connection = sqlite3.connect(self.path, timeout=30)
        try:
            return connection.execute(sql).fetchall()
        finally:
            connection.close()

    def kinds(self) -> dict[int, str]:
        found = {os.getpid(): "load generator + receivers"}
        if self.process is not None:
            for pid in (self.process.pid, *descendants(self.process.pid)):
                found[pid] = KIND
        return found

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_and_report(n: int, concurrency: int, poll: float) -> None:
    from bench.full_flow import STEPS, drive, print_steps, summarise

    service = EmbeddedService()
    try:
        service.start()
        receivers = webhook_check.start_receivers(service.cli)
        with CpuSampler(service.kinds) as sampler:
            results, wall = drive(service.base_url, n, concurrency, poll)
        delivered = webhook_check.check(receivers, service.rows)
        for receiver in receivers.values():
            receiver.stop()
    finally:
        service.stop()
    flow = summarise(results)
    print(f"\nembedded default (make run: waitress, SQLite, in-process broker): {n} proposals, {concurrency} threads")
    for step, count in flow["failures"].items():
        print(f"  FAILED at {step}: {count} proposal(s); first: {flow['first_failure'][step]}")
    print(f"  completed: {flow['complete']}/{n} in {wall:.2f} s -> {n / wall:.1f} proposals/s")
    print_steps({"per_step": flow["per_step"]}, [step for step in STEPS if flow["per_step"].get(step)])
    webhook_check.print_check(delivered)
    print_cpu(sampler.totals(), n, wall)
    shutil.rmtree(service.directory, ignore_errors=True)
