"""The one database handle, chosen at start-up from DATABASE_URL (SQLite file or PostgreSQL)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import peewee

from models.db.pool import pooled_postgres
from models.settings import ROOT

log = logging.getLogger(__name__)


class _DatabaseProxy(peewee.DatabaseProxy):
    def savepoint(self):
        # The database's own savepoint, not the proxy's: the PostgreSQL pool counts open ones
        # (pool.py, "Savepoints counted"); ``atomic`` inside a transaction comes through here.
        return self.obj.savepoint()


db = _DatabaseProxy()

# WAL lets the API thread read while a worker thread writes; busy_timeout waits for the writer
# instead of failing with "database is locked".
SQLITE_PRAGMAS = {"journal_mode": "wal", "busy_timeout": 10000, "foreign_keys": 1, "synchronous": "normal"}


# PostgreSQL connections are pooled per process: a request or an actor message borrows one and
# db.close() hands it back, instead of paying a new connection each time.
POOL_MAX_CONNECTIONS = 32
POOL_STALE_SECONDS = 300


def _sqlite_path(url: str) -> str | None:
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :]
    if path in ("", ":memory:"):
        raise ValueError("an in-memory SQLite database is not shared between worker threads; use a file")
    return path


def open_database(url: str) -> peewee.Database:
    """Connect the proxy to ``url`` and return the concrete database."""
    path = _sqlite_path(url)
    if path is not None:
        full = Path(path) if Path(path).is_absolute() else ROOT / path
        full.parent.mkdir(parents=True, exist_ok=True)
        # BEGIN IMMEDIATE: a transaction that reads then writes (outbox relay, unit_of_work) would
        # otherwise fail at once with "database is locked" when another thread wrote meanwhile
        # (SQLite cannot upgrade a stale read snapshot); IMMEDIATE waits on busy_timeout instead.
        database = peewee.SqliteDatabase(str(full), pragmas=SQLITE_PRAGMAS, timeout=10, lock_type="IMMEDIATE")
    else:
        database = pooled_postgres(url, max_connections=POOL_MAX_CONNECTIONS, stale_timeout=POOL_STALE_SECONDS)
    db.initialize(database)
    return database


def is_postgres() -> bool:
    return isinstance(db.obj, peewee.PostgresqlDatabase)


# Any constant shared by every process of the service (advisory locks are per database).
SCHEMA_LOCK_KEY = 7_420_001
# Lock waits that a retry can outlast: PostgreSQL's lock_not_available (lock_timeout) and
# deadlock_detected, SQLite's busy timeout.
_RETRYABLE_PGCODES = ("55P03", "40P01")


def create_schema(*, lock_timeout_seconds: float = 5.0, attempts: int = 12) -> None:
    """Create every table, column and index that is missing, unless the database already holds the
    schema of this code (models/db/schema_version.py): then no DDL runs and no table is locked.

    DDL waits at most ``lock_timeout_seconds`` for a lock held by live traffic, then its
    transaction is rolled back and retried (backoff up to 10 s), ``attempts`` times in all."""
    from models.db.schema_version import applied_fingerprint, code_fingerprint
    from models.db.tables import ALL_TABLES

    with db.connection_context():
        wanted = code_fingerprint(ALL_TABLES)
        if applied_fingerprint() == wanted:
            return
        for attempt in range(1, attempts + 1):
            try:
                _apply_schema(wanted, lock_timeout_seconds)
                return
            except peewee.OperationalError as error:
                if attempt == attempts or not _lock_wait_failed(error):
                    raise
                pause = min(0.5 * 2 ** (attempt - 1), 10.0)
                log.warning("schema: a table lock is held by live traffic (%s); retrying in %.1f s", error, pause)
                time.sleep(pause)


def _apply_schema(wanted: str, lock_timeout_seconds: float) -> None:
    from models.db.migrations import add_missing_columns
    from models.db.schema_version import SchemaVersion, applied_fingerprint, record_fingerprint
    from models.db.tables import ALL_TABLES

    with startup_lock(lock_timeout_seconds=lock_timeout_seconds):
        if applied_fingerprint() == wanted:  # another process applied it while this one waited
            return
        _create_tables([*ALL_TABLES, SchemaVersion])
        add_missing_columns(db.obj, ALL_TABLES)  # tables created by an earlier release
        if is_postgres():  # read-side trigram and sort indexes (PostgreSQL-only SQL)
            from models.db.indexes import create_postgres_indexes

            create_postgres_indexes()
        record_fingerprint(wanted)
        log.info("schema: applied (fingerprint %s)", wanted[:12])


def _create_tables(models: list[type[peewee.Model]]) -> None:
    """``create_tables(safe=True)`` with the indexes this database keeps (models/db/indexes.py)."""
    from models.db.indexes import declared_indexes

    for model in peewee.sort_models(models):
        model._schema.create_sequences()
        model._schema.create_table(safe=True)
        for query in declared_indexes(model):
            db.execute(query)


def _lock_wait_failed(error: peewee.OperationalError) -> bool:
    driver = getattr(error, "orig", None)  # the driver's exception peewee wrapped
    if getattr(driver, "pgcode", None) in _RETRYABLE_PGCODES:
        return True
    return "database is locked" in str(error)


@contextmanager
def startup_lock(*, lock_timeout_seconds: float | None = None) -> Iterator[None]:
    """A transaction that one process at a time holds (start-up: schema, seed data).

    API workers and pools start together on a fresh database: concurrent CREATE TABLE IF NOT
    EXISTS collide on PostgreSQL's catalog, and check-then-insert seeding duplicates rows. With
    ``lock_timeout_seconds`` every lock wait of the transaction, this one included, is bounded.
    """
    with db.atomic():
        if is_postgres():
            if lock_timeout_seconds is not None:
                timeout = f"{int(lock_timeout_seconds * 1000)}ms"
                db.execute_sql("SELECT set_config('lock_timeout', %s, true)", (timeout,))
            db.execute_sql("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
        yield


class BaseModel(peewee.Model):
    """Every table's model. A lookup by one column and a new row's INSERT run from SQL rendered once
    per shape (simple_statements.py); every other query is peewee's own."""

    class Meta:
        database = db
        legacy_table_names = False

    @classmethod
    def get(cls, *query, **filters):
        if len(query) == 1 and not filters:
            from models.db import simple_statements  # imported late: it imports this module

            row = simple_statements.lookup(cls, query[0])
            if row is not simple_statements.NOT_SIMPLE:
                if row is None:
                    raise cls.DoesNotExist(f"{cls.__name__} instance matching query does not exist: {query[0]!r}")
                return row
        return super().get(*query, **filters)

    def save(self, force_insert=False, only=None):
        if only is None and (force_insert or self._pk is None):
            from models.db import simple_statements

            if simple_statements.insert(self):
                return 1
        return super().save(force_insert=force_insert, only=only)
