"""A proposal as one partner (origin) may see it: every origin-scoped use case loads it here."""

from __future__ import annotations

from models.db.proposals import Proposal
from models.domain.errors import Forbidden, NotFound
from models.services.platform.locks import locked_proposal_or_none


def owned_proposal(origin: str, proposal_id: str, *, lock: bool = False) -> Proposal:
    """The proposal if it belongs to ``origin``: NotFound (404) when missing, Forbidden (403) when
    another origin's. ``lock=True`` locks it until the surrounding unit_of_work ends."""
    proposal_id = str(proposal_id)
    proposal = locked_proposal_or_none(proposal_id) if lock else Proposal.get_or_none(Proposal.id == proposal_id)
    if proposal is None:
        raise NotFound("Proposal not found", error_code="PROPOSAL_NOT_FOUND")
    if proposal.origin != origin:
        raise Forbidden("This token is not permitted to access this proposal", error_code="FORBIDDEN")
    return proposal
