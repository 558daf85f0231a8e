"""POST /callbacks/esignature: the e-signature provider's result, HMAC-authenticated.

Outside /v1 (no bearer token): the provider signs the raw body with the shared secret
(``X-Signature: sha256=<hex>``). The event is handed to the signature-result actor through the
outbox; a repeated event is deduplicated there and the actor ignores late ones.
"""

from flask import Blueprint, jsonify

from models import runtime
from models.services.contract.signature import FINISHED, RESULT_FIELDS, STARTED
from models.services.contract.signature_events import accept_result

from ..callbacks import signed_json
from ..errors import error_response

bp = Blueprint("signature_callback", __name__)
PLAIN_BLUEPRINTS = [bp]


@bp.route("/callbacks/esignature", methods=["POST"])
def esignature_callback():
    """Verify the signature, validate the event and queue it; 200 once accepted."""
    body, refused = signed_json(runtime.current().settings.esignature.callback_secret)
    if refused is not None:
        return refused
    if not isinstance(body.get("process_id"), str):
        return error_response(
            400, "process_id is required", error_code="VALIDATION_ERROR", details={"field": "process_id"}
        )
    event = body.get("event")
    if event not in (STARTED, FINISHED):
        return error_response(
            400, f"event must be {STARTED} or {FINISHED}", error_code="VALIDATION_ERROR", details={"field": "event"}
        )
    accept_result(body["process_id"], event, {name: body.get(name) for name in RESULT_FIELDS})
    return jsonify(received=True)
