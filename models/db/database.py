"""The one database handle, chosen at start-up from DATABASE_URL (SQLite file or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import peewee
from playhouse.db_url import connect

from models.settings import ROOT

db = peewee.DatabaseProxy()

# WAL lets the API thread read while a worker thread writes; busy_timeout waits for the writer
# instead of failing with "database is locked".
SQLITE_PRAGMAS = {"journal_mode": "wal", "busy_timeout": 10000, "foreign_keys": 1, "synchronous": "normal"}


# PostgreSQL connections are pooled per process: a request or an actor message borrows one and
# db.close() hands it back, instead of paying a new connection each time.
POOL_MAX_CONNECTIONS = 32
POOL_STALE_SECONDS = 300


def _pooled(url: str) -> str:
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+pool://" + url[len(scheme) :]
    return url


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
        database = connect(_pooled(url), max_connections=POOL_MAX_CONNECTIONS, stale_timeout=POOL_STALE_SECONDS)
    db.initialize(database)
    return database


def is_postgres() -> bool:
    return isinstance(db.obj, peewee.PostgresqlDatabase)


# Any constant shared by every process of the service (advisory locks are per database).
SCHEMA_LOCK_KEY = 7_420_001


def create_schema() -> None:
    """Create every table, column and index that is missing (idempotent)."""
    from models.db.migrations import add_missing_columns
    from models.db.tables import ALL_TABLES

    with db.connection_context(), startup_lock():
        db.create_tables(ALL_TABLES, safe=True)
        add_missing_columns(db.obj, ALL_TABLES)  # tables created by an earlier release
        if is_postgres():  # read-side trigram and sort indexes (PostgreSQL-only SQL)
            from models.db.indexes import create_postgres_indexes

            create_postgres_indexes()


@contextmanager
def startup_lock() -> Iterator[None]:
    """A transaction that one process at a time holds (start-up: schema, seed data).

    API workers and pools start together on a fresh database: concurrent CREATE TABLE IF NOT
    EXISTS collide on PostgreSQL's catalog, and check-then-insert seeding duplicates rows.
    """
    with db.atomic():
        if is_postgres():
            db.execute_sql("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
        yield


class BaseModel(peewee.Model):
    class Meta:
        database = db
        legacy_table_names = False
