"""POST pre-accept: select an available offer of this proposal, then pre-accept it.

Refusals: the state machine's 409s (INVALID_STATUS_FOR_PREACCEPT, SIGNED_CONTRACT_EXISTS), and
400 with details.field = "selected_offer_id": OFFER_NOT_FOUND, OFFER_NOT_AVAILABLE, OFFER_EXPIRED.
"""

from __future__ import annotations

from models.db.analysis import Offer
from models.db.compiled import Compiled
from models.db.proposals import Proposal
from models.domain.errors import ValidationFailed
from models.domain.offer_availability import ensure_available
from models.domain.status_machine import Trigger, next_status
from models.domain.statuses import Status
from models.services.credit.offers import availability
from models.services.partners.ownership import owned_proposal
from models.services.platform.proposal_clock import proposal_now
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import unit_of_work

# Rendered once (models/db/compiled.py): the offer as get_or_none reads it (LIMIT 1) and the
# selection's UPDATE.
_OFFER_OF_PROPOSAL: Compiled[Offer] = Compiled(
    lambda offer_id, proposal_id: Offer.select().where(Offer.id == offer_id, Offer.proposal == proposal_id).limit(1),
    str,
    str,
)
_SELECT_OFFER: Compiled[Proposal] = Compiled(
    lambda offer_id, proposal_id: Proposal.update(selected_offer_id=offer_id).where(Proposal.id == proposal_id),
    str,
    str,
)


def pre_accept(origin: str, proposal_id: str, offer_id: str) -> tuple[Proposal, Offer]:
    """OFFER_SELECTED then PRE_ACCEPTED in one transaction (two status changes, two events); returns
    the origin's proposal (now PRE_ACCEPTED) and the offer."""
    proposal = owned_proposal(origin, proposal_id)
    next_status(Status(proposal.status), Trigger.SELECT_OFFER)  # the 409s come before offer checks
    offer = _OFFER_OF_PROPOSAL.first(offer_id, proposal.id)
    if offer is None:
        raise ValidationFailed(
            "selected_offer_id is not an offer of this proposal",
            error_code="OFFER_NOT_FOUND",
            details={"field": "selected_offer_id"},
        )
    ensure_available(availability(offer, proposal.selected_offer_id, proposal_now(proposal)))
    with unit_of_work():
        _SELECT_OFFER.execute(offer.id, proposal.id)
        proposal.selected_offer_id = offer.id
        move(proposal, Trigger.SELECT_OFFER, details={"offer_id": offer.id})
        move(proposal, Trigger.PRE_ACCEPT, details={"offer_id": offer.id})
    return proposal, offer
