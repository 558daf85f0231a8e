"""POST /v1/proposals/<id>/cancel: only in CONTRACT_GENERATED or AWAITING_SIGNATURE."""
import flask_smorest

from models.domain.clock import isoformat_z
from models.services.contract import cancellation
from models.services.platform.unit_of_work import unit_of_work
from schemas.contract import CancelResultSchema
from schemas.errors import ErrorSchema

from ..auth import owned_proposal

blp = flask_smorest.Blueprint("cancel", __name__, description="Cancel a proposal before disbursement")


@blp.route("/proposals/<uuid:proposal_id>/cancel", methods=["POST"])
@blp.response(200, CancelResultSchema)
@blp.alt_response(400, schema=ErrorSchema, description="Status is not CONTRACT_GENERATED or AWAITING_SIGNATURE")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal not found")
def cancel(proposal_id):
    """Irreversible CANCELED; the funding application is cancelled afterwards (best effort)."""
    with unit_of_work():
        proposal = owned_proposal(str(proposal_id), for_update=True)
        cancellation.cancel(proposal)
    return {"id": proposal.id, "cpf": proposal.cpf, "full_name": proposal.full_name, "status": proposal.status,
            "updated_at": isoformat_z(proposal.updated_at)}
