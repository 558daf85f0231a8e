"""POST /proposals/{id}/pre-accept: the customer's choice of offer."""

from __future__ import annotations

from models.services.credit.pre_accept import pre_accept
from models.services.platform.proposal_clock import proposal_now
from schemas.credit_analysis import PreAcceptRequest, PreAcceptResponse

from ..auth import current_origin
from ..blueprint import FORBIDDEN, INVALID_BODY, PROPOSAL_NOT_FOUND, Blueprint

blp = Blueprint("credit_pre_accept", __name__, description="Pre-acceptance of an offer")


@blp.route("/proposals/<proposal_id>/pre-accept", methods=["POST"], endpoint="pre_accept")
@blp.arguments(PreAcceptRequest)
@blp.response(200, PreAcceptResponse, description="Offer selected and pre-accepted (status PRE_ACCEPTED)")
@blp.errors(
    {
        400: INVALID_BODY + "; OFFER_NOT_FOUND, OFFER_NOT_AVAILABLE, OFFER_EXPIRED (details.field selected_offer_id)",
        403: FORBIDDEN,
        404: PROPOSAL_NOT_FOUND,
        409: "INVALID_STATUS_FOR_PREACCEPT or SIGNED_CONTRACT_EXISTS",
    }
)
def pre_accept_offer(body, proposal_id):
    """Select ``selected_offer_id`` (OFFER_SELECTED) and pre-accept it (PRE_ACCEPTED)."""
    proposal, offer = pre_accept(current_origin(), proposal_id, str(body["selected_offer_id"]))
    return {
        "message": "Offer pre-accepted; send the banking data next",
        "proposal_id": proposal.id,
        "status": proposal.status,
        "selected_offer": offer,
        "pre_accepted_at": proposal_now(proposal),
    }
