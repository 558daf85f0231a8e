"""Contract generation (hybrid, /async, ?async=true), polling, and the stored CCB document."""

from flask import send_file

from httpapi.presenters import contract as contract_views
from models import runtime
from models.domain.lifecycles import ContractStatus
from models.domain.statuses import CONTRACT_QUERY_TERMINAL
from models.services.contract import generation as contracts
from models.services.contract import reads as contract_reads
from models.services.contract import signed_version
from schemas.async_processing import Acknowledgement, AsyncQuery
from schemas.contract import ContractDataSchema, ContractDocumentQuery, ContractRequestSchema, ContractStatusSchema
from schemas.errors import TerminalStatusSchema

from ..auth import current_origin
from ..blueprint import FORBIDDEN, INVALID_BODY, INVALID_QUERY, PROPOSAL_NOT_FOUND, Blueprint
from ..errors import ApiError
from ..presenters.responses import serialized

blp = Blueprint("contract", __name__, description="Contract generation and digital signature")
IN_PROGRESS = ContractStatus.CONTRACT_GENERATION_IN_PROGRESS
TERMINAL = {status.value for status in CONTRACT_QUERY_TERMINAL}


def _start(proposal_id: str, body: dict, wait: bool):
    contract_settings = runtime.current().settings.contract
    contract = contracts.start_contract(
        current_origin(), proposal_id, body.get("signature_redirect_url"), contract_settings=contract_settings
    )
    contract = contracts.await_generation(contract, contract_settings.hybrid_wait_seconds if wait else None)
    if contract.status == IN_PROGRESS:
        return serialized(Acknowledgement, contract_views.acknowledgement(contract), 202)
    if contract.status == ContractStatus.FAILED:
        raise ApiError(
            503, "Contract generation failed; call POST contract again", error_code="CONTRACT_GENERATION_FAILED"
        )
    return serialized(ContractDataSchema, contract_views.contract_data(contract), 201)


GENERATION_ERRORS = {
    400: INVALID_BODY + "; OFFER_EXPIRED (selected offer expired) or OFFER_NOT_AVAILABLE (replaced), "
    "details.field selected_offer_id",
    403: FORBIDDEN,
    404: PROPOSAL_NOT_FOUND,
    409: "SIGNED_CONTRACT_EXISTS, CONTRACT_GENERATION_IN_PROGRESS, CONTRACT_ALREADY_GENERATED, PROPOSAL_FINALIZED, "
    "CONTRACT_ACTIVE (another proposal of the CPF, any origin, holds a contract signed and not yet paid, or "
    "paid after this proposal's analysis read the margin), CONTRACT_GENERATION_IN_PROGRESS or "
    "CONTRACT_ALREADY_GENERATED also when another proposal of the CPF holds such a contract, "
    "BANKING_DATA_REQUIRED (banking data not confirmed), or the status does not allow a contract "
    "(details.currentStatus)",
    503: "CONTRACT_GENERATION_FAILED: call POST contract again",
}


@blp.route("/proposals/<uuid:proposal_id>/contract", methods=["POST"], endpoint="generate_contract")
@blp.arguments(ContractRequestSchema, required=False)
@blp.arguments(AsyncQuery, location="query")
@blp.response(201, ContractDataSchema)
@blp.alt_response(202, schema=Acknowledgement, description="Still generating (or ?async=true)")
@blp.errors(GENERATION_ERRORS)
def generate(body, query, proposal_id):
    """Generate the contract and start the signature; waits about 28 s (hybrid), else 202."""
    return _start(str(proposal_id), body, wait=not query["async_"])


@blp.route("/proposals/<uuid:proposal_id>/contract/async", methods=["POST"], endpoint="generate_contract_async")
@blp.arguments(ContractRequestSchema, required=False)
@blp.response(202, Acknowledgement)
@blp.errors(GENERATION_ERRORS)
def generate_async(body, proposal_id):
    """Start contract generation and answer 202 at once; poll GET .../contract/status."""
    return _start(str(proposal_id), body, wait=False)


def _poll(proposal_id: str):
    proposal, contract = contract_reads.proposal_contract(current_origin(), proposal_id)
    if proposal.status in TERMINAL:
        return serialized(TerminalStatusSchema, contract_views.terminal_status(proposal), 409)
    if contract is None:
        raise ApiError(404, "Contract not found for this proposal", error_code="CONTRACT_NOT_FOUND")
    if contract.status == IN_PROGRESS:
        return serialized(Acknowledgement, contract_views.acknowledgement(contract), 202)
    return contract_views.contract_status(proposal, contract)


@blp.route("/proposals/<uuid:proposal_id>/contract", methods=["GET"], endpoint="get_contract")
@blp.route("/proposals/<uuid:proposal_id>/contract/status", methods=["GET"], endpoint="get_contract_status")
@blp.response(200, ContractStatusSchema)
@blp.alt_response(202, schema=Acknowledgement, description="Still generating")
@blp.alt_response(
    409, schema=TerminalStatusSchema, description="TERMINAL_PROPOSAL_STATUS: proposal in a terminal status"
)
@blp.errors({403: FORBIDDEN, 404: PROPOSAL_NOT_FOUND + " or CONTRACT_NOT_FOUND"})
def contract_status(proposal_id):
    """Contract and signature status (polling route; .../contract/status is its alias, kept for
    compatibility)."""
    return _poll(str(proposal_id))


@blp.route("/proposals/<uuid:proposal_id>/contract/document", methods=["GET"], endpoint="get_contract_document")
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
@blp.doc(responses={200: {"content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}}})
@blp.errors(
    {
        400: INVALID_QUERY + " (version is not original)",
        403: FORBIDDEN,
        404: PROPOSAL_NOT_FOUND + " or CONTRACT_DOCUMENT_NOT_FOUND",
    }
)
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
