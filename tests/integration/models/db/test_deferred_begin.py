"""A transaction's BEGIN travels with its first statement (models/db/pool.py; PostgreSQL only)."""

from __future__ import annotations

import peewee
import psycopg2.extensions
import pytest

from models.db.database import db, is_postgres
from models.db.proposals import Proposal
from tests import builders

IDLE, IN_TRANSACTION = psycopg2.extensions.TRANSACTION_STATUS_IDLE, psycopg2.extensions.TRANSACTION_STATUS_INTRANS


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("the deferred BEGIN is the PostgreSQL pool's; SQLite begins as peewee does")
    with db.connection_context():
        yield


def _server_status() -> int:
    return db.connection().info.transaction_status


def test_a_transaction_opens_on_its_first_statement_and_an_empty_one_sends_nothing(postgres):
    with db.atomic():
        assert _server_status() == IDLE  # BEGIN not sent yet
    assert _server_status() == IDLE
    with db.atomic():
        db.execute_sql("SELECT 1")
        assert _server_status() == IN_TRANSACTION
    assert _server_status() == IDLE  # committed


def test_a_rolled_back_transaction_undoes_its_writes_and_a_committed_one_keeps_them(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with db.atomic() as transaction:
        Proposal.update(full_name="ROLLED BACK").where(Proposal.id == proposal.id).execute()
        transaction.rollback()
    with db.atomic():
        Proposal.update(full_name="KEPT").where(Proposal.id == proposal.id).execute()
    assert Proposal.get_by_id(proposal.id).full_name == "KEPT"
    assert _server_status() == IDLE


def test_a_failing_first_statement_rolls_its_transaction_back_and_the_connection_goes_on(postgres):
    with pytest.raises(peewee.DatabaseError), db.atomic():
        db.execute_sql("SELECT 1 / 0")
    assert _server_status() == IDLE
    assert db.execute_sql("SELECT 2").fetchone() == (2,)
    assert _server_status() == IDLE  # a statement outside a transaction does not open one


def test_a_savepoint_as_first_statement_opens_the_transaction_and_rolls_back_alone(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    with db.atomic():
        with pytest.raises(peewee.IntegrityError), db.atomic():
            Proposal.update(full_name="INNER").where(Proposal.id == proposal.id).execute()
            Proposal.insert(id=proposal.id).execute()  # duplicate key: the savepoint rolls back
        Proposal.update(cpf="00000000191").where(Proposal.id == proposal.id).execute()
    kept = Proposal.get_by_id(proposal.id)
    assert (kept.full_name, kept.cpf) == (proposal.full_name, "00000000191")
