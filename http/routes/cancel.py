"""POST /v1/proposals/<id>/cancel: only in CONTRACT_GENERATED or AWAITING_SIGNATURE."""

import flask_smorest

from models.domain.clock import isoformat_z
from models.services.contract import cancellation
from schemas.contract import CancelResultSchema
from schemas.errors import ErrorSchema

from ..auth import current_origin

blp = flask_smorest.Blueprint("cancel", __name__, description="Cancel a proposal before disbursement")


@blp.route("/proposals/<uuid:proposal_id>/cancel", methods=["POST"])
@blp.response(200, CancelResultSchema)
@blp.alt_response(400, schema=ErrorSchema, description="Status is not CONTRACT_GENERATED or AWAITING_SIGNATURE")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal not found")
def cancel(proposal_id):
    """Irreversible CANCELED; the funding application is cancelled afterwards (best effort)."""
    proposal = cancellation.cancel_proposal(current_origin(), str(proposal_id))
    return {
        "id": proposal.id,
        "cpf": proposal.cpf,
        "full_name": proposal.full_name,
        "status": proposal.status,
        "updated_at": isoformat_z(proposal.updated_at),
    }
