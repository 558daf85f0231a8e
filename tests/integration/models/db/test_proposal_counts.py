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


_EARLIER_ROW_FUNCTION = """
CREATE OR REPLACE FUNCTION proposal_status_count_bump(o varchar, s varchar, pid varchar, delta int)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO proposal_status_count (origin, status, slot, n)
    VALUES (o, s, abs(hashtext(pid)) %% 16, delta)
    ON CONFLICT (origin, status, slot) DO UPDATE SET n = proposal_status_count.n + EXCLUDED.n
$$;
CREATE OR REPLACE FUNCTION proposal_status_count_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM proposal_status_count_bump(OLD.origin, OLD.status, OLD.id, -1);
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        PERFORM proposal_status_count_bump(NEW.origin, NEW.status, NEW.id, 1);
    END IF;
    RETURN NULL;
END $$;
"""


def test_a_database_of_the_earlier_release_gets_this_release_s_row_function(postgres):
    # Given counters kept by the earlier release's trigger function (a helper called per upsert)
    from models.db.proposal_counts import create_proposal_counts

    db.execute_sql(_EARLIER_ROW_FUNCTION)
    kept_before = f.proposal()
    # When the schema is applied again at start-up
    create_proposal_counts()
    # Then the row function writes its upserts itself, the helper is gone, and counting goes on
    body = db.execute_sql("SELECT prosrc FROM pg_proc WHERE proname = 'proposal_status_count_row'").fetchone()[0]
    assert "proposal_status_count_bump" not in body and "ON CONFLICT" in body
    assert db.execute_sql("SELECT to_regproc('proposal_status_count_bump')").fetchone() == (None,)
    Proposal.update(status="TOKEN_SENT").where(Proposal.id == kept_before.id).execute()
    f.proposal()
    assert (counted_total("PARTNER_A", ["CREATED"]), counted_total("PARTNER_A", ["TOKEN_SENT"])) == (1, 1)
