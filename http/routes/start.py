"""POST /proposals/start."""

from __future__ import annotations

import flask_smorest

from models import runtime
from models.services.credit.start import start_proposal
from schemas.credit import StartRequest, StartResponse
from schemas.errors import ErrorSchema

from ..auth import current_origin
from ..presenters.replies import reply

blp = flask_smorest.Blueprint("credit_start", __name__, description="Start a proposal")


@blp.route("/proposals/start", methods=["POST"])
@blp.arguments(StartRequest)
@blp.response(201, StartResponse, description="Proposal created (status CREATED)")
@blp.alt_response(
    200,
    schema=StartResponse,
    description="The CPF already has an active proposal of this origin; it is returned and nothing is created",
)
@blp.alt_response(
    409,
    schema=ErrorSchema,
    description="A blocking rule applies (errorCode, proposal_id, status, longest_overdue_days)",
)
def start(body):
    """Start a proposal for a CPF, or get back its active proposal."""
    rt = runtime.current()
    proposal, created = start_proposal(
        current_origin(),
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
    return reply(
        {
            "message": message,
            "proposal_id": proposal.id,
            "cpf": proposal.cpf,
            "full_name": proposal.full_name,
            "product_id": proposal.product_id,
            "status": proposal.status,
        },
        201 if created else 200,
    )
