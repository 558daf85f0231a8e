"""Sandbox signing pages: the sandbox e-signature provider's ``user_redirect_url``.

GET opens the page (signature IN_PROGRESS). POST with a JSON body completes it: ``{}`` passes the
four checks; ``process_result``, ``authentication_result``, ``liveness_result`` and
``trust_result`` override each one. Then 303 to ``signature_redirect_url`` when one was given.
Mounted only when ``sandbox_routes`` is on.
"""

from html import escape

from flask import Blueprint, jsonify, redirect, request
from marshmallow import ValidationError

from models import runtime
from models.services.contract import sandbox_signing
from models.services.contract.signature import RESULT_FIELDS
from schemas.callbacks import SignatureResults

from ..api import validation_error_response
from ..presenters.responses import instance_of

bp = Blueprint("sandbox_signing", __name__)
PLAIN_BLUEPRINTS = [bp] if runtime.current().settings.sandbox_routes else []


@bp.route("/sandbox/esign/<process_id>", methods=["GET"])
def open_page(process_id):
    """The signing page; the first visit starts the process (IN_PROGRESS)."""
    process = sandbox_signing.open_signing(process_id)
    return (
        f"<!doctype html><title>Sandbox signing</title><h1>Sandbox signing</h1>"
        f"<p>Contract for {escape(process.signer_name)} (CPF {escape(process.signer_cpf)}).</p>"
        f"<p>POST JSON to this URL to sign: <code>{{}}</code> passes every check; set "
        f"{', '.join(RESULT_FIELDS)} to override a result.</p>"
    )


@bp.route("/sandbox/esign/<process_id>", methods=["POST"])
def complete(process_id):
    """Finish the signature with the given results and notify the service (via the outbox)."""
    # No JSON body (or a browser's form post): every check passes; a JSON body must be an object.
    document = request.get_json(silent=True) if request.is_json and request.get_data().strip() else {}
    try:
        overrides = instance_of(SignatureResults).load(document)
    except ValidationError as error:
        return validation_error_response(error.normalized_messages())
    process, results = sandbox_signing.complete_signing(process_id, overrides)
    if process.redirect_url:
        return redirect(process.redirect_url, code=303)
    return jsonify(process_id=process_id, status="COMPLETED", results=results)
