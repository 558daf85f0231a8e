"""Carries a fault plan out on the run's own processes and servers, one fault after another.

Every fault is bounded in time and undone in ``finally`` (a stopped server is started again, and
waited for, whatever happens). Worker processes are killed by the pids this run started (the pool
supervisor's descendants), never by name; the supervisor then exits and the environment's process
manager starts the pools again, as systemd would in production.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field

from bench.fault.evidence import MONEY_PATH, Database
from bench.fault.plan import Fault, FaultKind, Plan

POOLS_BACK_LIMIT = 120.0


@dataclass
class FaultRecord:
    """One fault as it happened (times in seconds since the run's start)."""

    fault: Fault
    started_at: float = 0.0
    ended_at: float = 0.0  # the dependency answers again (or the pools run again)
    wave: int = 0  # proposals released before it
    in_flight: dict[str, int] = field(default_factory=dict)  # proposal statuses when it began
    detail: str = ""

    def covers(self, at: float, grace: float = 5.0) -> bool:
        return self.started_at <= at <= self.ended_at + grace


class Injector:
    """``release(count)`` lets that many more partner journeys start (Journeys.release)."""

    def __init__(self, plan: Plan, env, postgres, rabbitmq, database: Database, started: float, release) -> None:
        self.plan, self.env, self.postgres, self.rabbitmq = plan, env, postgres, rabbitmq
        self.database, self.started, self.release = database, started, release
        self.records: list[FaultRecord] = []
        self._pool_processes = 0

    def _now(self) -> float:
        return time.monotonic() - self.started

    def run(self, stop) -> list[FaultRecord]:
        """Every fault of the plan in order, each after its wave of proposals (``stop``: a
        threading.Event that cuts the run short)."""
        self._pool_processes = len(self.env.pool_worker_pids())
        for fault, wave in zip(self.plan.faults, self.plan.waves(), strict=True):
            self.release(wave)
            if stop.wait(self.plan.lead):
                break
            self._wait_for_money_path(min(wave, self.plan.money_path_min), stop)
            record = FaultRecord(fault, wave=wave, in_flight=self.database.status_counts() or {})
            record.started_at = self._now()
            self.records.append(record)
            try:
                record.detail = self._inflict(fault, stop)
            finally:
                record.ended_at = self._now()
        return self.records

    def _wait_for_money_path(self, count: int, stop) -> None:
        deadline = time.monotonic() + self.plan.money_path_wait - self.plan.lead
        while time.monotonic() < deadline and not stop.is_set():
            counts = self.database.status_counts() or {}
            if sum(counts.get(status, 0) for status in MONEY_PATH) >= count:
                return
            time.sleep(0.05)

    def _inflict(self, fault: Fault, stop) -> str:
        if fault.kind is FaultKind.KILL_WORKERS:
            return self._kill_workers()
        if fault.kind is FaultKind.RABBITMQ_RESTART:
            return self._outage(self.rabbitmq, 0.0, stop)
        if fault.kind is FaultKind.POSTGRES_RESTART:
            return self._outage(self.postgres, 0.0, stop)
        if fault.kind is FaultKind.POSTGRES_DOWN:
            return self._outage(self.postgres, fault.seconds, stop)
        if fault.kind is FaultKind.RABBITMQ_DOWN:
            return self._outage(self.rabbitmq, fault.seconds, stop)
        raise ValueError(f"unknown fault {fault.kind}")

    def _kill_workers(self) -> str:
        pids = self.env.pool_worker_pids()
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # already gone
        # The supervisor sees its pools die and exits; the process manager starts them again.
        deadline = time.monotonic() + POOLS_BACK_LIMIT
        while time.monotonic() < deadline:
            back = [pid for pid in self.env.pool_worker_pids() if pid not in pids]
            if len(back) >= self._pool_processes:
                return f"SIGKILL {len(pids)} pool processes; {len(back)} running again"
            time.sleep(0.2)
        return f"SIGKILL {len(pids)} pool processes; NOT all running again after {POOLS_BACK_LIMIT:.0f} s"

    @staticmethod
    def _outage(server, seconds: float, stop) -> str:
        server.stop()
        try:
            stop.wait(seconds)
        finally:
            took = server.start()
        return f"stopped, {'down ' + format(seconds, '.0f') + ' s, ' if seconds else ''}answering again {took:.1f} s after start"
