"""Read a proposal for a change: row-locked on PostgreSQL (SQLite serialises writers anyway)."""
from __future__ import annotations

from models.db.database import is_postgres
from models.db.proposals import Proposal


def locked_proposal(proposal_id: str) -> Proposal:
    """The proposal, locked until the surrounding transaction ends (call inside unit_of_work)."""
    query = Proposal.select().where(Proposal.id == proposal_id)
    if is_postgres():
        query = query.for_update()
    return query.get()
