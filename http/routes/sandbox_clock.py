"""POST /v1/sandbox/proposals/{id}/advance: the sandbox test clock of one proposal (mounted only in
sandbox/test, README "Sandbox test clock")."""

from __future__ import annotations

from models import runtime
from models.services.lifecycle.sandbox_clock import advance
from schemas.sandbox_clock import AdvanceRequest, AdvanceResponse

from ..auth import current_origin
from ..blueprint import FORBIDDEN, INVALID_BODY, PROPOSAL_NOT_FOUND, Blueprint

if runtime.current().settings.sandbox_routes:
    blp = Blueprint("sandbox_clock", __name__, description="Sandbox: a proposal's test clock")

    @blp.route("/sandbox/proposals/<proposal_id>/advance", methods=["POST"], endpoint="advance_sandbox_clock")
    @blp.arguments(AdvanceRequest)
    @blp.response(
        200,
        AdvanceResponse,
        description="The proposal's clock moved; the lifecycle timeouts that came are applied (exits), "
        "the scheduled work that fell due is handed to its workers (released) and runs just after",
    )
    @blp.errors(
        {
            400: INVALID_BODY + "; VALIDATION_ERROR (details.field seconds) past the clock's limit",
            403: FORBIDDEN,
            404: PROPOSAL_NOT_FOUND,
        }
    )
    def advance_clock(body, proposal_id):
        """Move this proposal's clock ``seconds`` forward and run what falls due, with the same
        status changes and webhooks as when the time passes (sandbox only)."""
        rt = runtime.current()
        advanced = advance(
            current_origin(),
            str(proposal_id),
            body["seconds"],
            sandbox_routes=rt.settings.sandbox_routes,
            lifecycle_settings=rt.settings.lifecycle,
            credit_settings=rt.settings.credit,
            contract_settings=rt.settings.contract,
        )
        return {
            "proposal_id": advanced.proposal.id,
            "status": advanced.proposal.status,
            "sandbox_clock": advanced.clock,
            "released": advanced.released,
            "exits": [{"exit": d.exit.value, "reason": d.reason.value, "deadline": d.at} for d in advanced.exits],
        }
