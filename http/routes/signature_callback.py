"""POST /callbacks/esignature: the e-signature provider's result, HMAC-authenticated.

Outside /v1 (no bearer token): the provider signs the raw body with the shared secret
(``X-Signature: sha256=<hex>``). The event is handed to the signature-result actor through the
outbox; a repeated event is deduplicated there and the actor ignores late ones.
"""
from flask import Blueprint, jsonify

from models.db.contracts import Contract
from models.services.contract.signature import FINISHED, RESULT_FIELDS, STARTED
from models.services.platform.unit_of_work import enqueue, unit_of_work

from ..callbacks import signed_json
from ..errors import error_response
from models.services.platform.actor_names import ActorName

bp = Blueprint("signature_callback", __name__)
PLAIN_BLUEPRINTS = [bp]


def queue_result(process_id: str, event: str, results: dict) -> None:
    """Hand an event to the signature-result actor (inside unit_of_work); duplicates keep one message."""
    enqueue(ActorName.HANDLE_SIGNATURE_RESULT, process_id, event, results, dedup_key=f"esign:{process_id}:{event}")


@bp.route("/callbacks/esignature", methods=["POST"])
def esignature_callback():
    """Verify the signature, validate the event and queue it; 200 once accepted."""
    body, refused = signed_json("esignature")
    if refused is not None:
        return refused
    if not isinstance(body.get("process_id"), str):
        return error_response(400, "process_id is required", error_code="VALIDATION_ERROR", details={"field": "process_id"})
    event = body.get("event")
    if event not in (STARTED, FINISHED):
        return error_response(400, f"event must be {STARTED} or {FINISHED}", error_code="VALIDATION_ERROR",
                              details={"field": "event"})
    if not Contract.select().where(Contract.unico_process_id == body["process_id"]).exists():
        return error_response(404, "Unknown signing process", error_code="PROCESS_NOT_FOUND")
    results = {name: body.get(name) for name in RESULT_FIELDS}
    with unit_of_work():
        queue_result(body["process_id"], event, results)
    return jsonify(received=True)
