"""Fixed-shape statements prepared once per PostgreSQL connection (models/db/prepared.py)."""

from __future__ import annotations

import peewee
import pytest

from models.db.compiled import Compiled
from models.db.database import db, is_postgres
from models.db.prepared import prepared
from models.db.proposals import Proposal
from tests import builders

_STATUS_SQL = 'SELECT "t1"."status" FROM "proposal"'
_STATUS_OF = Compiled(lambda proposal_id: Proposal.select(Proposal.status).where(Proposal.id == proposal_id), str)


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("prepared statements are PostgreSQL's; SQLite runs the SQL as it is")
    yield
    # A test may leave its connection running text (below): the next test gets it back fresh.
    with db.connection_context():
        db.execute_sql("DEALLOCATE ALL")
        prepared._held[db.obj.connection()] = set()


def _held_here() -> dict[str, str]:
    """This connection's prepared statements: name -> statement text."""
    return dict(db.execute_sql("SELECT name, statement FROM pg_prepared_statements").fetchall())


def _name_of(sql_fragment: str) -> str:
    (name,) = [name for name, text in _held_here().items() if sql_fragment in text]
    return name


def test_a_compiled_statement_is_prepared_once_per_connection_and_answers_as_text_did(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with db.connection_context():
        assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"
        name = _name_of(_STATUS_SQL)
        assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"
        assert _STATUS_OF.first("no-such-proposal") is None
        # One PREPARE, three executions of it (each execution is planned or uses the generic plan).
        runs = db.execute_sql(
            "SELECT generic_plans + custom_plans FROM pg_prepared_statements WHERE name = %s", (name,)
        ).fetchone()
        assert runs == (3,)


def test_a_statement_prepared_in_a_rolled_back_transaction_is_still_used(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with db.connection_context():
        with db.atomic() as transaction:
            assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"
            transaction.rollback()
        name = _name_of(_STATUS_SQL)
        assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"
        assert name in _held_here()


def test_a_statement_postgres_cannot_prepare_runs_as_text_and_its_transaction_goes_on(postgres):
    # No type can be inferred for a parameter compared with NULL only: PREPARE refuses it.
    sql = "SELECT %s IS NULL"
    with db.connection_context(), db.atomic():
        proposal = builders.proposal(path=("TOKEN_SENT",))
        assert prepared.execute(sql, [None]).fetchone() == (True,)
        assert prepared.execute(sql, ["x"]).fetchone() == (False,)
        assert Proposal.get_by_id(proposal.id).status == "TOKEN_SENT"  # the transaction is usable
    assert Proposal.get_or_none(Proposal.id == proposal.id) is not None  # and it committed


def test_a_connection_whose_statement_vanished_fails_once_then_runs_text(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with db.connection_context():
        _STATUS_OF.first(proposal.id)
        db.execute_sql(f"DEALLOCATE {_name_of(_STATUS_SQL)}")
        with pytest.raises(peewee.DatabaseError, match="does not exist"):
            _STATUS_OF.first(proposal.id)
        assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"
        assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"
        assert not [text for text in _held_here().values() if _STATUS_SQL in text]


def test_switched_off_every_statement_runs_as_text(postgres, monkeypatch):
    monkeypatch.setattr(prepared, "enabled", False)
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with db.connection_context():
        db.execute_sql("DEALLOCATE ALL")
        assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"
        assert builders.proposal(path=("TOKEN_SENT",)).status == "TOKEN_SENT"  # an INSERT template too
        assert _held_here() == {}


def test_sqlite_runs_the_sql_as_it_is(app):
    if is_postgres():
        pytest.skip("SQLite only")
    proposal = builders.proposal(path=("TOKEN_SENT",))
    assert _STATUS_OF.first(proposal.id).status == "TOKEN_SENT"


def test_a_lost_connection_while_preparing_raises_and_leaves_the_statement_preparable(postgres, monkeypatch):
    # A statement no other test runs, so this process has not prepared it yet
    sql = 'SELECT "t1"."id" FROM "proposal" AS "t1" WHERE ("t1"."phone" = %s) LIMIT %s'
    real = db.obj.execute_sql

    class AdminShutdown(Exception):
        pgcode = "57P01"  # not a refusal of the statement: the connection's trouble

    def connection_lost_on_prepare(text, params=None):
        if text.startswith("PREPARE"):
            error = peewee.OperationalError("terminating connection due to administrator command")
            error.orig = AdminShutdown()
            raise error
        return real(text, params)

    with db.connection_context():
        monkeypatch.setattr(db.obj, "execute_sql", connection_lost_on_prepare)
        with pytest.raises(peewee.OperationalError):
            prepared.execute(sql, ["+5511900000000", 1])
        monkeypatch.undo()
        assert prepared.execute(sql, ["+5511900000000", 1]).fetchall() == []
        assert [text for text in _held_here().values() if '"t1"."phone" = $1' in text]
