"""POST /callbacks/esignature: the e-signature provider's result, HMAC-authenticated.

Outside /v1 (no bearer token): the provider signs the raw body with the shared secret
(``X-Signature: sha256=<hex>``). The event is handed to the signature-result actor through the
outbox; a repeated event is deduplicated there and the actor ignores late ones.
"""

from flask import Blueprint, jsonify

from models import runtime
from models.services.contract.signature import RESULT_FIELDS
from models.services.contract.signature_events import accept_result
from schemas.callbacks import ESignatureEvent

from ..callbacks import signed_json

bp = Blueprint("signature_callback", __name__)
PLAIN_BLUEPRINTS = [bp]


@bp.route("/callbacks/esignature", methods=["POST"])
def esignature_callback():
    """Verify the signature, validate the event and queue it; 200 once accepted."""
    body, refused = signed_json(runtime.current().settings.esignature.callback_secret, ESignatureEvent())
    if refused is not None:
        return refused
    accept_result(body["process_id"], body["event"], {name: body.get(name) for name in RESULT_FIELDS})
    return jsonify(received=True)
