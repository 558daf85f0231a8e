"""The proposal's row lock (locks.locked_proposal): lockers exclude each other, rows that merely
reference the proposal do not wait for them (PostgreSQL only: SQLite serialises every writer)."""

from __future__ import annotations

import psycopg2
import pytest

from models.db.database import is_postgres
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import unit_of_work
from tests import backends, builders


@pytest.fixture
def other_session(app):
    """A second session that waits at most 300 ms for a lock."""
    if not is_postgres():
        pytest.skip("row locks between sessions: PostgreSQL only; this run uses SQLite")
    connection = psycopg2.connect(backends.postgres_database_url())
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '300ms'")
    connection.commit()
    try:
        yield connection
    finally:
        connection.rollback()
        connection.close()


def _run(connection, sql: str, *params) -> str | None:
    """None when the statement ran, else the SQLSTATE it failed with."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
        return None
    except psycopg2.Error as error:
        return error.pgcode
    finally:
        connection.rollback()


def test_a_row_referencing_a_locked_proposal_is_written_without_waiting(other_session):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with unit_of_work():
        locked_proposal(proposal.id)
        inserted = _run(
            other_session,
            "INSERT INTO status_change (proposal_id, sequence, old_status, new_status, trigger, source, changed_at)"
            " VALUES (%s, 7, 'TOKEN_SENT', 'TOKEN_VALIDATED', 'TEST', 'http', now())",
            proposal.id,
        )
        relocked = _run(other_session, "SELECT id FROM proposal WHERE id = %s FOR NO KEY UPDATE", proposal.id)
        updated = _run(other_session, "UPDATE proposal SET status = 'TOKEN_VALIDATED' WHERE id = %s", proposal.id)
    assert inserted is None, "a foreign-key check waited for the proposal's lock"
    assert (relocked, updated) == ("55P03", "55P03"), "another locker or a status update went through"
