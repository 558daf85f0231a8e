"""POST /callbacks/funding: the funding partner's events, HMAC-authenticated (outside /v1).

The one event handled is the customer's withdrawal after disbursement (``WITHDRAWAL``), which
moves the proposal to CANCELLED_BY_USER and the contract with that CCB number with it; the cancel
route never does. A repeated event for a proposal already withdrawn is acknowledged without a
second change.
"""

from flask import Blueprint, jsonify

from models import runtime
from models.domain.statuses import Status
from models.services.contract.cancellation import withdraw_contract

from ..callbacks import signed_json
from ..errors import error_response

bp = Blueprint("funding_callback", __name__)
PLAIN_BLUEPRINTS = [bp]
WITHDRAWAL = "WITHDRAWAL"


@bp.route("/callbacks/funding", methods=["POST"])
def funding_callback():
    """Verify the signature and the event, then withdraw the contract named by its CCB number."""
    body, refused = signed_json(runtime.current().settings.funding.callback_secret)
    if refused is not None:
        return refused
    if body.get("event") != WITHDRAWAL:
        return error_response(
            400, f"event must be {WITHDRAWAL}", error_code="VALIDATION_ERROR", details={"field": "event"}
        )
    number = body.get("issuer_application_id")
    if not isinstance(number, str) or not number:
        return error_response(
            400,
            "issuer_application_id is required",
            error_code="VALIDATION_ERROR",
            details={"field": "issuer_application_id"},
        )
    reason = str(body.get("reason") or "customer exercised the withdrawal right")
    proposal_id = withdraw_contract(number, reason=reason)
    return jsonify(received=True, proposal_id=proposal_id, status=Status.CANCELLED_BY_USER.value)
