"""POST /proposals/{id}/pre-accept: the customer's choice of offer."""

from __future__ import annotations

import flask_smorest

from models.domain.clock import isoformat_z, now
from models.services.credit.offers import summary
from models.services.credit.pre_accept import pre_accept
from schemas.credit_analysis import PreAcceptRequest, PreAcceptResponse
from schemas.errors import ErrorSchema

from ..auth import current_origin
from ..presenters.replies import reply

blp = flask_smorest.Blueprint("credit_pre_accept", __name__, description="Pre-acceptance of an offer")


@blp.route("/proposals/<proposal_id>/pre-accept", methods=["POST"])
@blp.arguments(PreAcceptRequest)
@blp.response(200, PreAcceptResponse, description="Offer selected and pre-accepted (status PRE_ACCEPTED)")
@blp.alt_response(
    400,
    schema=ErrorSchema,
    description="OFFER_NOT_FOUND, OFFER_NOT_AVAILABLE, OFFER_EXPIRED (details.field = selected_offer_id)",
)
@blp.alt_response(409, schema=ErrorSchema, description="INVALID_STATUS_FOR_PREACCEPT or SIGNED_CONTRACT_EXISTS")
def pre_accept_offer(body, proposal_id):
    """Select ``selected_offer_id`` (OFFER_SELECTED) and pre-accept it (PRE_ACCEPTED)."""
    proposal, offer = pre_accept(current_origin(), proposal_id, str(body["selected_offer_id"]))
    return reply(
        {
            "message": "Offer pre-accepted; send the banking data next",
            "proposal_id": proposal.id,
            "status": proposal.status,
            "selected_offer": summary(offer),
            "pre_accepted_at": isoformat_z(now()),
        },
        200,
    )
