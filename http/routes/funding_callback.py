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
from schemas.callbacks import FundingEvent

from ..callbacks import signed_json

bp = Blueprint("funding_callback", __name__)
PLAIN_BLUEPRINTS = [bp]


@bp.route("/callbacks/funding", methods=["POST"])
def funding_callback():
    """Verify the signature and the event, then withdraw the contract named by its CCB number."""
    body, refused = signed_json(runtime.current().settings.funding.callback_secret, FundingEvent())
    if refused is not None:
        return refused
    reason = body.get("reason") or "customer exercised the withdrawal right"
    proposal_id = withdraw_contract(body["issuer_application_id"], reason=reason)
    return jsonify(received=True, proposal_id=proposal_id, status=Status.CANCELLED_BY_USER.value)
