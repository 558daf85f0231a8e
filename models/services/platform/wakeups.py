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
from typing import TypeVar

log = logging.getLogger(__name__)

CHANNEL = "loan_wakeups"
RECHECK_SECONDS = 1.0

T = TypeVar("T")


class Wakeups:
    """Waiters name the keys their work's commit notifies, and only a wake of one of those keys
    sends them back to the database: under load every commit of every proposal wakes somebody, and
    waiters that re-read on each of them spent a tenth of the API's CPU (BENCHMARKS.md).

    Each waiter has an event of its own, set only by a wake of one of its keys (by every wake when
    it names none): with one condition shared by all, every wake of any key woke every waiting
    thread of the process to compare its keys and sleep again (a thread switch per waiter per
    commit, and ``Condition.notify`` alone was 3 % of the API's samples)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_key: dict[str, set[threading.Event]] = {}
        self._any_key: set[threading.Event] = set()  # waiters that name no key

    def wake(self, keys: list[str]) -> None:
        with self._lock:
            woken = list(self._any_key)
            for key in keys:
                woken.extend(self._by_key.get(key, ()))
        for event in woken:
            event.set()

    def wait_until(self, predicate: Callable[[], bool], timeout: float, *, keys: tuple[str, ...] = ()) -> bool:
        """Block until ``predicate()`` holds or ``timeout`` seconds pass; returns the last result.
        ``predicate`` runs again when one of ``keys`` is woken (any wake when none is named), and
        at least every RECHECK_SECONDS, so a lost notification costs a re-check, never an answer."""
        deadline = time.monotonic() + timeout
        woken = threading.Event()
        with self._lock:
            for key in keys:
                self._by_key.setdefault(key, set()).add(woken)
            if not keys:
                self._any_key.add(woken)
        try:
            while True:
                # Cleared before the predicate reads: a wake from here on (its commit may be
                # after the read) leaves the event set, so the wait below returns at once.
                woken.clear()
                if predicate():
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                woken.wait(min(remaining, RECHECK_SECONDS))
        finally:
            with self._lock:
                self._any_key.discard(woken)
                for key in keys:
                    waiting = self._by_key.get(key)
                    if waiting is not None:
                        waiting.discard(woken)
                        if not waiting:
                            del self._by_key[key]

    def poll_until(
        self, read: Callable[[], T], done: Callable[[T], bool], timeout: float, *, keys: tuple[str, ...] = ()
    ) -> tuple[T, bool]:
        """``wait_until`` over what ``read()`` returns: the last value it read and whether ``done``
        held for it, so a waiter answers with the row its last poll read instead of reading it again."""
        last: list[T] = []

        def check() -> bool:
            last[:] = [read()]
            return done(last[0])

        finished = self.wait_until(check, timeout, keys=keys)
        return last[0], finished


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
