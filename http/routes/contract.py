"""Contract generation (hybrid, /async, ?async=true), polling, and the stored CCB document."""

import flask_smorest
from flask import jsonify, send_file

from httpapi.presenters import contract as contract_views
from models import runtime
from models.domain.lifecycles import ContractStatus
from models.domain.statuses import CONTRACT_QUERY_TERMINAL
from models.services.contract import generation as contracts
from models.services.contract import reads as contract_reads
from models.services.contract import signed_version
from schemas.async_processing import Acknowledgement, AsyncQuery
from schemas.contract import (
    ContractDataSchema,
    ContractDocumentQuery,
    ContractRequestSchema,
    ContractStatusSchema,
    TerminalStatusSchema,
)
from schemas.errors import ErrorSchema

from ..auth import current_origin
from ..errors import ApiError

blp = flask_smorest.Blueprint("contract", __name__, description="Contract generation and digital signature")
IN_PROGRESS = ContractStatus.CONTRACT_GENERATION_IN_PROGRESS
TERMINAL = {status.value for status in CONTRACT_QUERY_TERMINAL}


def _reply(body: dict, code: int):
    response = jsonify(body)
    response.status_code = code
    return response


def _start(proposal_id: str, body: dict, wait: bool):
    contract_settings = runtime.current().settings.contract
    contract = contracts.start_contract(
        current_origin(), proposal_id, body.get("signature_redirect_url"), contract_settings=contract_settings
    )
    contract = contracts.await_generation(contract.id, contract_settings.hybrid_wait_seconds if wait else None)
    if contract.status == IN_PROGRESS:
        return _reply(contract_views.acknowledgement(contract), 202)
    if contract.status == ContractStatus.FAILED:
        raise ApiError(
            503, "Contract generation failed; call POST contract again", error_code="CONTRACT_GENERATION_FAILED"
        )
    return _reply(contract_views.contract_data(contract), 201)


_400 = "Selected offer expired (OFFER_EXPIRED) or replaced (OFFER_NOT_AVAILABLE); details.field selected_offer_id"
_409 = (
    "SIGNED_CONTRACT_EXISTS, CONTRACT_GENERATION_IN_PROGRESS, CONTRACT_ALREADY_GENERATED, PROPOSAL_FINALIZED, "
    "CONTRACT_ACTIVE (another contract of the CPF, any origin), BANKING_DATA_REQUIRED (banking data not confirmed)"
)


@blp.route("/proposals/<uuid:proposal_id>/contract", methods=["POST"])
@blp.arguments(ContractRequestSchema)
@blp.arguments(AsyncQuery, location="query")
@blp.response(201, ContractDataSchema)
@blp.alt_response(202, schema=Acknowledgement, description="Still generating (or ?async=true)")
@blp.alt_response(400, schema=ErrorSchema, description=_400)
@blp.alt_response(404, schema=ErrorSchema, description="Proposal not found")
@blp.alt_response(409, schema=ErrorSchema, description=_409)
def generate(body, query, proposal_id):
    """Generate the contract and start the signature; waits about 28 s (hybrid), else 202."""
    return _start(str(proposal_id), body, wait=not query["async_"])


@blp.route("/proposals/<uuid:proposal_id>/contract/async", methods=["POST"])
@blp.arguments(ContractRequestSchema)
@blp.response(202, Acknowledgement)
@blp.alt_response(400, schema=ErrorSchema, description=_400)
@blp.alt_response(404, schema=ErrorSchema, description="Proposal not found")
@blp.alt_response(409, schema=ErrorSchema, description=_409)
def generate_async(body, proposal_id):
    """Start contract generation and answer 202 at once; poll GET .../contract/status."""
    return _start(str(proposal_id), body, wait=False)


def _poll(proposal_id: str):
    proposal, contract = contract_reads.proposal_contract(current_origin(), proposal_id)
    if proposal.status in TERMINAL:
        return _reply(
            {
                "code": "TERMINAL_PROPOSAL_STATUS",
                "message": f"Proposal is in terminal status {proposal.status}",
                "details": {"current_status": proposal.status},
            },
            409,
        )
    if contract is None:
        raise ApiError(404, "Contract not found for this proposal", error_code="CONTRACT_NOT_FOUND")
    if contract.status == IN_PROGRESS:
        return _reply(contract_views.acknowledgement(contract), 202)
    return _reply(contract_views.contract_status(proposal, contract), 200)


@blp.route("/proposals/<uuid:proposal_id>/contract", methods=["GET"])
@blp.route("/proposals/<uuid:proposal_id>/contract/status", methods=["GET"], endpoint="contract_status_alias")
@blp.response(200, ContractStatusSchema)
@blp.alt_response(202, schema=Acknowledgement, description="Still generating")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal or contract not found")
@blp.alt_response(409, schema=TerminalStatusSchema, description="Proposal in a terminal status")
def contract_status(proposal_id):
    """Contract and signature status (polling route; .../contract/status is its alias, kept for
    compatibility)."""
    return _poll(str(proposal_id))


@blp.route("/proposals/<uuid:proposal_id>/contract/document", methods=["GET"])
@blp.arguments(ContractDocumentQuery, location="query")
@blp.response(
    200,
    description="The contract (CCB) as application/pdf. Once the contract is SIGNED this is "
    "the signed version: the CCB followed by a final page with the signature "
    "evidence (provider, process id, the four validation results, signing time, "
    "SHA-256 of the unsigned original). ?version=original serves the unsigned "
    "original, before and after signing. Header X-Contract-Version tells which "
    "one was served (original or signed).",
    content_type="application/pdf",
)
@blp.alt_response(400, schema=ErrorSchema, description="version is not original")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal or document not found")
def contract_document(query, proposal_id):
    """The CCB PDF of the proposal's latest contract: signed version once signed, else the original."""
    document = contract_reads.contract_document(
        current_origin(),
        str(proposal_id),
        query.get("version"),
        contract_settings=runtime.current().settings.contract,
    )
    if document is None:
        raise ApiError(404, "Contract document not found", error_code="CONTRACT_DOCUMENT_NOT_FOUND")
    path, contract_id, version = document
    suffix = "-assinada" if version == signed_version.SIGNED else ""
    response = send_file(path, mimetype="application/pdf", download_name=f"CCB-{contract_id}{suffix}.pdf")
    response.headers["X-Contract-Version"] = version
    return response
