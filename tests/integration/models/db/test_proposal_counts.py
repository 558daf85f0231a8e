"""The trigger-kept per-status counters agree with count(*) (PostgreSQL backend only)."""

import pytest

from models.db.database import db, is_postgres
from models.db.proposal_counts import counted_total
from models.db.proposals import Proposal
from tests import builders as f


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("PostgreSQL-only counters; this run uses SQLite")


def test_inserts_status_moves_and_deletes_are_counted(postgres):
    # Given proposals of two origins
    a1, a2 = f.proposal(), f.proposal()
    f.proposal(origin="PARTNER_B")
    # When one moves status and another is deleted
    Proposal.update(status="TOKEN_SENT").where(Proposal.id == a1.id).execute()
    Proposal.delete().where(Proposal.id == a2.id).execute()
    # Then the counters match the table
    assert counted_total("PARTNER_A", []) == 1
    assert counted_total("PARTNER_A", ["TOKEN_SENT"]) == 1
    assert counted_total("PARTNER_A", ["CREATED", "SIGNED"]) == 0
    assert counted_total("PARTNER_B", ["CREATED"]) == 1


def test_truncate_resets_the_counters(postgres):
    f.proposal()
    db.execute_sql("TRUNCATE proposal CASCADE")
    assert counted_total("PARTNER_A", []) == 0
