"""POST /v1/proposals/<id>/cancel: only in CONTRACT_GENERATED or AWAITING_SIGNATURE."""

from models.services.contract import cancellation
from schemas.contract import CancelResultSchema

from ..auth import current_origin
from ..blueprint import FORBIDDEN, PROPOSAL_NOT_FOUND, Blueprint

blp = Blueprint("cancel", __name__, description="Cancel a proposal before disbursement")


@blp.route("/proposals/<uuid:proposal_id>/cancel", methods=["POST"], endpoint="cancel_proposal")
@blp.response(200, CancelResultSchema)
@blp.errors(
    {
        400: "The status is not CONTRACT_GENERATED or AWAITING_SIGNATURE (details.currentStatus); "
        "INVALID_CONTENT_TYPE (a body that is not application/json)",
        403: FORBIDDEN,
        404: PROPOSAL_NOT_FOUND,
    }
)
def cancel(proposal_id):
    """Irreversible CANCELED; the funding application is cancelled afterwards (best effort)."""
    return cancellation.cancel_proposal(current_origin(), str(proposal_id))
