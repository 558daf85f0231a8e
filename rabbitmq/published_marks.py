"""The "published" marks of the rows the after-commit publish sent, written in batches.

Why: nearly every transaction writes one outbox row, and its after-commit publish then marked it
with an UPDATE of its own: a statement and a commit per message (13 per proposal). The mark only
tells the sweeper not to send the row again, and a row the after-commit publish holds is the
sweeper's only once its lease (``outbox.after_commit_lease_seconds``) lapses. So a process
collects the ids it sent and one thread writes them with one UPDATE every
``outbox.published_mark_interval_seconds`` (settings keep it under half the lease), sooner when
``MAX_BATCH`` are waiting, and at exit.

A mark not written before the lease lapses (the process died, or the database was away that long)
makes the sweeper send the row again: a duplicate message, which the actors' idempotency makes
harmless, as a crash between publish and mark always could. A failed write keeps the ids for the
next try. With an interval of 0 each publish writes its marks itself, at once.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading

from models.db.compiled import Compiled
from models.db.database import db
from models.db.outbox import OutboxMessage
from models.domain.clock import now

log = logging.getLogger(__name__)

# Enough for a busy second of one process; one UPDATE ... IN of this many ids is still cheap.
MAX_BATCH = 200


def write(ids: list[str]) -> None:
    """Mark ``ids`` published now, in one statement (the caller's connection and transaction)."""
    if len(ids) == 1:  # an unbatched publish of one message: the commonest shape, rendered once
        _MARK_ONE_PUBLISHED.execute(now(), ids[0])
    elif ids:
        OutboxMessage.update(published_at=now(), publish_attempts=OutboxMessage.publish_attempts + 1).where(
            OutboxMessage.id.in_(ids)
        ).execute()


_MARK_ONE_PUBLISHED: Compiled[OutboxMessage] = Compiled(
    lambda at, message_id: OutboxMessage.update(
        published_at=at, publish_attempts=OutboxMessage.publish_attempts + 1
    ).where(OutboxMessage.id == message_id),
    OutboxMessage.published_at,
    str,
)


class PublishedMarks:
    """The ids one process sent and has not marked yet, and the thread that marks them."""

    def __init__(self, interval_seconds: float = 0.0) -> None:
        self.interval_seconds = interval_seconds
        self._forget_the_parent()

    def _forget_the_parent(self) -> None:
        # Also run in a forked child (os.register_at_fork below): it inherits the parent's queue,
        # which the parent writes, and a lock some parent thread may have held; its own writer
        # thread starts with its first add.
        self._lock = threading.Lock()
        self._ids: list[str] = []
        self._full = threading.Event()
        self._writer_started = False
        self._failed_tries = 0  # since the last write that succeeded (one warning per outage)

    def add(self, ids: list[str]) -> None:
        """Queue ``ids`` (just sent) for the next write."""
        with self._lock:
            if not self._writer_started:
                self._writer_started = True
                threading.Thread(target=self._run, name="outbox-published-marks", daemon=True).start()
                atexit.register(self.flush)
            self._ids.extend(ids)
            full = len(self._ids) >= MAX_BATCH
        if full:
            self._full.set()

    def waiting(self) -> int:
        with self._lock:
            return len(self._ids)

    def flush(self) -> int:
        """Write every queued mark now; how many. What could not be written stays queued (logged)."""
        with self._lock:
            ids, self._ids = self._ids, []
        if not ids:  # an idle process's writer borrows no connection
            return 0
        written = 0
        try:
            with db.connection_context() if db.is_closed() else contextlib.nullcontext():
                while written < len(ids):
                    batch = ids[written : written + MAX_BATCH]
                    write(batch)
                    written += len(batch)
        except Exception:
            with self._lock:
                self._ids[:0] = ids[written:]
            self._failed_tries += 1
            if self._failed_tries == 1:  # the first of an outage, with its cause; the rest quietly
                log.warning(
                    "outbox: %d published marks not written; retrying every %.1f s (rows whose lease "
                    "lapses meanwhile are sent again by the sweeper)",
                    len(ids) - written,
                    self.interval_seconds,
                    exc_info=True,
                )
            else:
                log.debug("outbox: published marks still not written (try %d)", self._failed_tries)
            return written
        if self._failed_tries:
            log.info("outbox: published marks written again after %d failed tries", self._failed_tries)
            self._failed_tries = 0
        return written

    def _run(self) -> None:
        while True:
            self._full.wait(self.interval_seconds)
            self._full.clear()
            self.flush()


# At once until the process's bootstrap sets the interval (app.py, from the settings).
_marks = PublishedMarks()
os.register_at_fork(after_in_child=lambda: _marks._forget_the_parent())


def set_interval(interval_seconds: float) -> None:
    _marks.interval_seconds = interval_seconds


def mark(ids: list[str]) -> None:
    """Mark ``ids`` published: at once with an interval of 0, else by the batch writer."""
    if _marks.interval_seconds <= 0:
        write(ids)
    else:
        _marks.add(ids)


def waiting() -> int:
    """Marks queued in this process and not written yet."""
    return _marks.waiting()


def flush() -> int:
    """Write the marks queued in this process now (tests, shutdown); how many."""
    return _marks.flush()
