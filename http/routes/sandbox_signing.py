"""Sandbox signing pages: the sandbox e-signature provider's ``user_redirect_url``.

GET opens the page (signature IN_PROGRESS). POST with a JSON body completes it: ``{}`` passes the
four checks; ``process_result``, ``authentication_result``, ``liveness_result`` and
``trust_result`` override each one. Then 303 to ``signature_redirect_url`` when one was given.
Mounted only when ``sandbox_routes`` is on.
"""
from html import escape

from flask import Blueprint, jsonify, redirect, request

from models.db.sandbox_providers import SandboxSigningProcess
from models.domain.clock import now
from models.external.esignature.sandbox import PASSING_RESULTS
from models.services.contract.signature import FINISHED, RESULT_FIELDS, STARTED
from models.services.platform.unit_of_work import unit_of_work
from models.settings import current

from ..errors import error_response
from .signature_callback import queue_result

bp = Blueprint("sandbox_signing", __name__)
PLAIN_BLUEPRINTS = [bp] if current().sandbox_routes else []


def _process(process_id: str):
    return SandboxSigningProcess.get_or_none(SandboxSigningProcess.process_id == process_id)


@bp.route("/sandbox/esign/<process_id>", methods=["GET"])
def open_page(process_id):
    """The signing page; the first visit starts the process (IN_PROGRESS)."""
    process = _process(process_id)
    if process is None:
        return error_response(404, "Unknown signing process", error_code="PROCESS_NOT_FOUND")
    with unit_of_work():
        if process.status == "PENDING":
            SandboxSigningProcess.update(status="IN_PROGRESS").where(
                SandboxSigningProcess.process_id == process_id).execute()
            queue_result(process_id, STARTED, {})
    return (f"<!doctype html><title>Sandbox signing</title><h1>Sandbox signing</h1>"
            f"<p>Contract for {escape(process.signer_name)} (CPF {escape(process.signer_cpf)}).</p>"
            f"<p>POST JSON to this URL to sign: <code>{{}}</code> passes every check; set "
            f"{', '.join(RESULT_FIELDS)} to override a result.</p>")


@bp.route("/sandbox/esign/<process_id>", methods=["POST"])
def complete(process_id):
    """Finish the signature with the given results and notify the service (via the outbox)."""
    process = _process(process_id)
    if process is None:
        return error_response(404, "Unknown signing process", error_code="PROCESS_NOT_FOUND")
    if process.status in ("COMPLETED", "CANCELED"):
        return error_response(409, f"Signing process is {process.status.lower()}", error_code="PROCESS_CLOSED")
    body = request.get_json(silent=True)
    body = body if isinstance(body, dict) else {}
    results = {name: str(body.get(name, PASSING_RESULTS[name])) for name in RESULT_FIELDS}
    with unit_of_work():
        SandboxSigningProcess.update(status="COMPLETED", results=results, completed_at=now()).where(
            SandboxSigningProcess.process_id == process_id).execute()
        queue_result(process_id, FINISHED, results)
    if process.redirect_url:
        return redirect(process.redirect_url, code=303)
    return jsonify(process_id=process_id, status="COMPLETED", results=results)
