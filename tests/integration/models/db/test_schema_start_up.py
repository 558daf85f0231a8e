"""Start-up runs no DDL when the database already holds this code's schema, so a pool restarted
under live traffic never waits on (or blocks) the writers; when DDL is due, its lock waits are
bounded and retried (models/db/schema_version.py, models/db/database.py create_schema)."""

from __future__ import annotations

import logging
import threading

import peewee
import pytest

from models.db.database import create_schema, is_postgres
from models.db.schema_version import SchemaVersion, applied_fingerprint, code_fingerprint
from models.db.tables import ALL_TABLES
from tests import backends

DDL_WORDS = ("CREATE", "ALTER", "DROP", "LOCK")


class _Statements(logging.Handler):
    """The SQL peewee runs (it logs each statement at DEBUG on the "peewee" logger)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sql: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if isinstance(record.msg, tuple) and record.msg:
            self.sql.append(str(record.msg[0]))


@pytest.fixture
def statements():
    logger = logging.getLogger("peewee")
    handler, level = _Statements(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler.sql
    logger.removeHandler(handler)
    logger.setLevel(level)


@pytest.fixture(autouse=True)
def _schema_restored(app):
    """Puts the code's fingerprint back (and any DDL a test left due) after each test."""
    yield
    create_schema()


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("table locks held by another session: PostgreSQL only; this run uses SQLite")


@pytest.fixture
def live_writer(postgres):
    """Another session in the middle of a write transaction on ``proposal`` (the lock any UPDATE or
    INSERT holds until commit), as live traffic does while a pool restarts."""
    import psycopg2

    connection = psycopg2.connect(backends.postgres_database_url())
    cursor = connection.cursor()
    cursor.execute("LOCK TABLE proposal IN ROW EXCLUSIVE MODE")
    try:
        yield connection
    finally:
        connection.rollback()
        connection.close()


def _in_thread(target, timeout: float) -> tuple[bool, list]:
    """Run ``target`` in a thread (its own connection); whether it finished within ``timeout``."""
    outcome: list = []

    def run():
        try:
            target()
            outcome.append(None)
        except Exception as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    return not thread.is_alive(), outcome


def test_the_booted_database_records_the_code_fingerprint():
    assert applied_fingerprint() == code_fingerprint(ALL_TABLES)


def test_a_start_on_an_up_to_date_schema_runs_no_ddl(statements):
    create_schema()
    assert statements, "peewee logged no statement: the check above would prove nothing"
    assert [sql for sql in statements if sql.lstrip().upper().startswith(DDL_WORDS)] == []


def test_a_changed_fingerprint_applies_the_schema_once(statements):
    SchemaVersion.update(fingerprint="an earlier release").execute()
    create_schema()
    assert applied_fingerprint() == code_fingerprint(ALL_TABLES)
    assert any(sql.lstrip().upper().startswith("CREATE") for sql in statements)
    statements.clear()
    create_schema()
    assert [sql for sql in statements if sql.lstrip().upper().startswith(DDL_WORDS)] == []


def test_a_restart_under_a_live_write_transaction_does_not_wait(live_writer):
    # Before: CREATE INDEX IF NOT EXISTS needed a SHARE lock on proposal and waited for the writer.
    finished, outcome = _in_thread(create_schema, timeout=10)
    assert finished, "start-up blocked behind a writer's table lock"
    assert outcome == [None]


def test_due_ddl_gives_up_its_lock_wait_and_raises_after_its_attempts(live_writer):
    SchemaVersion.update(fingerprint="an earlier release").execute()

    def start():
        create_schema(lock_timeout_seconds=0.2, attempts=2)

    finished, outcome = _in_thread(start, timeout=10)
    assert finished
    assert len(outcome) == 1 and isinstance(outcome[0], peewee.OperationalError)
    assert applied_fingerprint() == "an earlier release"  # rolled back: nothing half-applied


def test_due_ddl_retries_until_the_writer_commits(live_writer):
    SchemaVersion.update(fingerprint="an earlier release").execute()
    threading.Timer(1.0, live_writer.rollback).start()  # the writer's transaction ends in 1 s

    def start():
        create_schema(lock_timeout_seconds=0.2, attempts=10)

    finished, outcome = _in_thread(start, timeout=20)
    assert finished and outcome == [None]
    assert applied_fingerprint() == code_fingerprint(ALL_TABLES)
