"""POST /proposals/start."""

from __future__ import annotations

from models import runtime
from models.services.credit.start import start_proposal
from schemas.credit import StartRequest, StartResponse

from ..auth import current_partner
from ..blueprint import INVALID_BODY, Blueprint

blp = Blueprint("credit_start", __name__, description="Start a proposal")

CONFLICTS = (
    "CONTRACT_ACTIVE (a contract of the CPF is signed and not yet paid), CONTRACT_EXISTS (a contract of the "
    "CPF was generated and awaits its signature), PROPOSAL_PENDING_FRAUD_ANALYSIS, PROPOSAL_PROCESSING_IN_PROGRESS, "
    "PROPOSAL_AWAITING_DISBURSEMENT (proposal_id, status), PROPOSAL_FINALIZED (proposal_id, status), "
    "DELINQUENT_CONTRACT (longest_overdue_days)"
)


@blp.route("/proposals/start", methods=["POST"], endpoint="start_proposal")
@blp.arguments(StartRequest)
@blp.response(201, StartResponse, description="Proposal created (status CREATED)")
@blp.alt_response(
    200,
    schema=StartResponse,
    description="The CPF already has an active proposal of this origin; it is returned and nothing is created",
)
@blp.errors({400: INVALID_BODY, 409: CONFLICTS})
def start(body):
    """Start a proposal for a CPF, or get back its active proposal."""
    rt = runtime.current()
    proposal, created = start_proposal(
        current_partner(),
        body["cpf"],
        body["full_name"].strip(),
        body["birth_date"],
        collections=rt.ports.collections,
        products_settings=rt.settings.products,
        lifecycle_settings=rt.settings.lifecycle,
        credit_settings=rt.settings.credit,
        contract_settings=rt.settings.contract,
    )
    message = "Proposal created" if created else "The CPF already has an active proposal; returning it"
    view = {
        "message": message,
        "proposal_id": proposal.id,
        "cpf": proposal.cpf,
        "full_name": proposal.full_name,
        "product_id": proposal.product_id,
        "status": proposal.status,
    }
    return view, 201 if created else 200
