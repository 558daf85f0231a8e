"""POST /callbacks/funding: the funding partner's events, HMAC-authenticated (outside /v1).

The one event handled is the customer's withdrawal after disbursement (``WITHDRAWAL``), which
moves the proposal to CANCELLED_BY_USER; the cancel route never does. A repeated event for a
proposal already withdrawn is acknowledged without a second change.
"""
from flask import Blueprint, jsonify

from models.db.contracts import Contract
from models.domain.errors import DomainError
from models.domain.statuses import Status
from models.services.contract.cancellation import withdraw
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import unit_of_work

from ..callbacks import signed_json
from ..errors import error_response

bp = Blueprint("funding_callback", __name__)
PLAIN_BLUEPRINTS = [bp]
WITHDRAWAL = "WITHDRAWAL"


@bp.route("/callbacks/funding", methods=["POST"])
def funding_callback():
    """Verify the signature, find the contract by its CCB number and apply the withdrawal."""
    body, refused = signed_json("funding")
    if refused is not None:
        return refused
    if body.get("event") != WITHDRAWAL:
        return error_response(400, f"event must be {WITHDRAWAL}", error_code="VALIDATION_ERROR",
                              details={"field": "event"})
    number = body.get("issuer_application_id")
    if not isinstance(number, str) or not number:
        return error_response(400, "issuer_application_id is required", error_code="VALIDATION_ERROR",
                              details={"field": "issuer_application_id"})
    contract = Contract.get_or_none(Contract.issuer_application_id == number)
    if contract is None:
        return error_response(404, "Unknown contract", error_code="CONTRACT_NOT_FOUND")
    reason = str(body.get("reason") or "customer exercised the withdrawal right")
    try:
        with unit_of_work():
            proposal = locked_proposal(contract.proposal_id)
            if proposal.status != Status.CANCELLED_BY_USER.value:
                withdraw(proposal, source="funding", reason=reason)
    except DomainError as error:
        return error_response(409, error.message, error_code=error.error_code or "INVALID_STATUS",
                              details={"currentStatus": proposal.status})
    return jsonify(received=True, proposal_id=contract.proposal_id, status=Status.CANCELLED_BY_USER.value)
