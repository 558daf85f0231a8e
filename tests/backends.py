"""Which backend the integration and e2e layers run on: SQLite + in-process broker, or PostgreSQL +
RabbitMQ. The unit layer runs on neither.

TEST_BACKEND=services selects the real services; where they are absent the run is skipped with a
clear message, and fails when CI=true (CI must exercise them). Choosing a backend only sets
environment variables; the PostgreSQL database is created when the service stack boots
(tests/support/stack.py), so a run that boots nothing connects to nothing.
"""

from __future__ import annotations

import functools
import os
import socket

BACKEND = os.environ.get("TEST_BACKEND", "sqlite")
RUN_ID = os.environ.get("TEST_RUN_ID") or str(os.getpid())
POSTGRES_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
AMQP_URL = os.environ.get("TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2F")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@functools.cache
def services_missing() -> tuple[str, ...]:
    """The real services this run selected but cannot reach (probed once per run)."""
    if BACKEND != "services":
        return ()
    missing = []
    if not _port_open("127.0.0.1", 5432):
        missing.append("PostgreSQL on 127.0.0.1:5432")
    if not _port_open("127.0.0.1", 5672):
        missing.append("RabbitMQ on 127.0.0.1:5672")
    return tuple(missing)


def test_database_name() -> str:
    return f"loans_test_{RUN_ID}"


def postgres_database_url() -> str:
    return POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{test_database_name()}"


def create_postgres_database() -> None:
    import psycopg2

    name = test_database_name()
    conn = psycopg2.connect(POSTGRES_ADMIN_URL)
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cur.execute(f'CREATE DATABASE "{name}"')
    conn.close()


def drop_postgres_database() -> None:
    import psycopg2

    conn = psycopg2.connect(POSTGRES_ADMIN_URL)
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{test_database_name()}" WITH (FORCE)')
    conn.close()


def configure_environment(tmp_dir: str) -> None:
    """Set the variables the service reads, before anything imports the service (no connection)."""
    os.environ["APP_ENV"] = "test"
    if BACKEND == "services":
        os.environ["DATABASE_URL"] = postgres_database_url()
        os.environ["AMQP_URL"] = AMQP_URL
        os.environ["QUEUE_PREFIX"] = f"t{RUN_ID}."
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp_dir}/test-{RUN_ID}.sqlite3"
        os.environ.pop("AMQP_URL", None)
