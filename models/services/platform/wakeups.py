"""Wake a waiting hybrid request as soon as the actor that finishes its work commits.

In one process a condition variable does it; across processes (gunicorn API, dramatiq pools) on
PostgreSQL, LISTEN/NOTIFY carries the key to every API process. Waiters always re-check the
database, so a lost notification costs at most one re-check interval, never a wrong answer.
"""

from __future__ import annotations

import logging
import select
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

CHANNEL = "loan_wakeups"
RECHECK_SECONDS = 1.0


class Wakeups:
    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._generation = 0

    def wake(self, keys: list[str]) -> None:
        with self._condition:
            self._generation += 1
            self._condition.notify_all()

    def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block until ``predicate()`` holds or ``timeout`` seconds pass; returns the last result."""
        deadline = time.monotonic() + timeout
        while True:
            with self._condition:
                seen = self._generation
            if predicate():
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            with self._condition:
                if self._generation == seen:
                    self._condition.wait(min(remaining, RECHECK_SECONDS))


wakeups = Wakeups()


def publish_after_commit(keys: list[str]) -> None:
    """After-commit notifier: wake local waiters and, on PostgreSQL, every other process."""
    wakeups.wake(keys)
    from models.db.database import db, is_postgres

    if is_postgres():
        try:
            for key in set(keys):
                db.execute_sql("SELECT pg_notify(%s, %s)", (CHANNEL, key))
        except Exception:
            log.warning("pg_notify failed; waiters fall back to re-checking", exc_info=True)


class PostgresListener(threading.Thread):
    """Relays NOTIFY on CHANNEL to this process's waiters (API processes on PostgreSQL)."""

    def __init__(self, dsn: str) -> None:
        super().__init__(name="wakeup-listener", daemon=True)
        self.dsn = dsn
        self.stopping = threading.Event()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop listening (before the database goes away, so the thread does not reconnect)."""
        self.stopping.set()
        self.join(timeout)

    def run(self) -> None:
        import psycopg2

        while not self.stopping.is_set():
            try:
                conn = psycopg2.connect(self.dsn)
                conn.set_session(autocommit=True)
                conn.cursor().execute(f"LISTEN {CHANNEL}")
                while not self.stopping.is_set():
                    if select.select([conn], [], [], 1.0) == ([], [], []):
                        continue
                    conn.poll()
                    keys = [n.payload for n in conn.notifies]
                    conn.notifies.clear()
                    if keys:
                        wakeups.wake(keys)
            except Exception:
                log.warning("wake-up listener lost its connection; reconnecting", exc_info=True)
                self.stopping.wait(1.0)
