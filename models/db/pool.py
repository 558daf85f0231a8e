"""The PostgreSQL connection pool: peewee's, without a ping for a connection that just answered,
and with a transaction's BEGIN sent in the same round trip as its first statement (below).

peewee's pool checks every connection it hands out with ``SELECT 1`` (a round trip and a
PostgreSQL transaction of its own). Every request and every actor message borrows a connection, so
that check was 45 of the 272 transactions the database ran per proposal in the full-flow benchmark,
nearly all on a connection that had finished its previous work milliseconds earlier. A connection
given back less than ``ping_after_idle_seconds`` ago is handed out without the check; an older one
is still checked, so a connection that sat idle across a PostgreSQL restart is discarded as before.

What the skipped check would have caught (the server restarted within that second) surfaces as
the first statement's connection error instead: the API answers it with a 503 and ``Retry-After``,
an actor retries, and the pool discards the dead connection when it is given back
(``is_connection_reusable`` refuses a connection whose status is unknown).
"""

from __future__ import annotations

import threading
import time

import peewee
from playhouse.db_url import parse
from playhouse.pool import PooledPostgresqlDatabase

# Short enough that a connection idle across a server restart (which takes seconds) is pinged.
PING_AFTER_IDLE_SECONDS = 1.0


class RecentlyUsedPool(PooledPostgresqlDatabase):
    """Pings a pooled connection at check-out only when it has been idle for a while."""

    def __init__(self, *args, ping_after_idle_seconds: float = PING_AFTER_IDLE_SECONDS, **kwargs) -> None:
        self._ping_after_idle_seconds = ping_after_idle_seconds
        self._checked_in_at: dict[int, float] = {}  # conn_key -> time.monotonic() of its check-in
        self._deferred = threading.local()  # .conn: the connection whose BEGIN is not sent yet
        self._savepoints = threading.local()  # .open: this thread's savepoints not yet ended
        super().__init__(*args, **kwargs)

    # --- Savepoints counted ---------------------------------------------------------------------
    # A row lock taken inside a savepoint is released when that savepoint rolls back, while the
    # transaction goes on. Whoever remembers a lock for the rest of its transaction
    # (unit_of_work.note_row_locked) remembers only one taken with no savepoint open.

    def savepoint(self):
        return _CountedSavepoint(self)

    def open_savepoints(self) -> int:
        """How many savepoints this thread has open (``atomic`` blocks inside a transaction)."""
        return getattr(self._savepoints, "open", 0)

    def _count_savepoint(self, step: int) -> None:
        self._savepoints.open = self.open_savepoints() + step

    # --- BEGIN sent with the transaction's first statement --------------------------------------
    # peewee sends BEGIN as a statement of its own: a round trip per transaction (about 190 per
    # proposal in the full-flow benchmark). It is sent instead in front of the transaction's first
    # statement, in the same round trip ("BEGIN;" + statement: PostgreSQL runs both, the driver
    # keeps the statement's result); a transaction that runs no statement sends neither BEGIN nor
    # COMMIT. Snapshots are taken per statement (READ COMMITTED), so nothing sees a difference.

    def begin(self, isolation_level=None) -> None:
        if isolation_level or self._isolation_level:
            super().begin(isolation_level)
            return
        self._deferred.conn = self.connection()

    def _begin_pending(self) -> bool:
        """Whether this thread's connection has a BEGIN to send (and forget it)."""
        pending = getattr(self._deferred, "conn", None)
        if pending is None:
            return False
        self._deferred.conn = None
        return pending is self._state.conn

    def _execute_cursor(self, sql, params, **cursor_options):
        if self._begin_pending():
            sql = "BEGIN;" + sql
        return super()._execute_cursor(sql, params, **cursor_options)

    def commit(self) -> None:
        if not self._begin_pending():
            super().commit()

    def rollback(self) -> None:
        if not self._begin_pending():
            super().rollback()

    def _close(self, conn, close_conn: bool = False) -> None:
        if getattr(self._deferred, "conn", None) is conn:
            self._deferred.conn = None  # never carried over to the connection's next user
        with self._pool_lock:
            super()._close(conn, close_conn)
            key = self.conn_key(conn)
            if close_conn or conn.closed:
                self._checked_in_at.pop(key, None)
            else:
                self._checked_in_at[key] = time.monotonic()

    def _is_closed(self, conn) -> bool:
        # Called under the pool lock by _connect, for the connection about to be handed out.
        checked_in_at = self._checked_in_at.pop(self.conn_key(conn), None)
        if conn.closed:
            return True
        fresh = checked_in_at is not None and time.monotonic() - checked_in_at < self._ping_after_idle_seconds
        if fresh and self._adapter.txn_status(conn) == self._adapter.txn_idle:
            return False
        return super()._is_closed(conn)


class _CountedSavepoint(peewee._savepoint):
    def __enter__(self):
        self.db._count_savepoint(1)
        try:
            return super().__enter__()
        except BaseException:
            self.db._count_savepoint(-1)
            raise

    def __exit__(self, exc_type, exc_val, exc_tb):
        try:
            return super().__exit__(exc_type, exc_val, exc_tb)
        finally:
            self.db._count_savepoint(-1)


def pooled_postgres(url: str, *, max_connections: int, stale_timeout: int) -> RecentlyUsedPool:
    """The pool for a ``postgresql://`` URL (the same parameters peewee's ``connect`` reads)."""
    return RecentlyUsedPool(**parse(url), max_connections=max_connections, stale_timeout=stale_timeout)
