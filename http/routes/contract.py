"""Contract generation (hybrid, /async, ?async=true), polling, and the stored CCB document."""
import flask_smorest
from flask import jsonify, send_file

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain.statuses import CONTRACT_QUERY_TERMINAL, Status
from httpapi.presenters import contract as contract_views
from models.services.contract import generation as contracts
from models.services.contract import signed_version
from models.services.platform.unit_of_work import unit_of_work
from models.services.platform.wakeups import wakeups
from models.settings import current
from schemas.async_processing import Acknowledgement, AsyncQuery
from schemas.contract import (ContractDataSchema, ContractDocumentQuery, ContractRequestSchema,
                              ContractStatusSchema, TerminalStatusSchema)
from schemas.errors import ErrorSchema

from ..auth import owned_proposal
from ..errors import ApiError

blp = flask_smorest.Blueprint("contract", __name__, description="Contract generation and digital signature")
IN_PROGRESS = Status.CONTRACT_GENERATION_IN_PROGRESS.value
TERMINAL = {status.value for status in CONTRACT_QUERY_TERMINAL}


def _reply(body: dict, code: int):
    response = jsonify(body)
    response.status_code = code
    return response


def _start(proposal_id: str, body: dict, wait: bool):
    with unit_of_work():
        proposal = owned_proposal(proposal_id, for_update=True)
        contract = contracts.start(proposal, body.get("signature_redirect_url"))
    if wait:
        wakeups.wait_until(lambda: Contract.get_by_id(contract.id).status != IN_PROGRESS,
                           current().contract.hybrid_wait_seconds)
    contract = Contract.get_by_id(contract.id)
    if contract.status == IN_PROGRESS:
        return _reply(contract_views.acknowledgement(proposal, contract), 202)
    if contract.status == "FAILED":
        raise ApiError(503, "Contract generation failed; call POST contract again", error_code="CONTRACT_GENERATION_FAILED")
    return _reply(contract_views.contract_data(contract), 201)


_409 = "SIGNED_CONTRACT_EXISTS, CONTRACT_GENERATION_IN_PROGRESS, CONTRACT_ALREADY_GENERATED, PROPOSAL_FINALIZED, CONTRACT_ACTIVE"


@blp.route("/proposals/<uuid:proposal_id>/contract", methods=["POST"])
@blp.arguments(ContractRequestSchema)
@blp.arguments(AsyncQuery, location="query")
@blp.response(201, ContractDataSchema)
@blp.alt_response(202, schema=Acknowledgement, description="Still generating (or ?async=true)")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal not found")
@blp.alt_response(409, schema=ErrorSchema, description=_409)
def generate(body, query, proposal_id):
    """Generate the contract and start the signature; waits about 28 s (hybrid), else 202."""
    return _start(str(proposal_id), body, wait=not query["async_"])


@blp.route("/proposals/<uuid:proposal_id>/contract/async", methods=["POST"])
@blp.arguments(ContractRequestSchema)
@blp.response(202, Acknowledgement)
@blp.alt_response(404, schema=ErrorSchema, description="Proposal not found")
@blp.alt_response(409, schema=ErrorSchema, description=_409)
def generate_async(body, proposal_id):
    """Start contract generation and answer 202 at once; poll GET .../contract/status."""
    return _start(str(proposal_id), body, wait=False)


def _poll(proposal_id: str):
    proposal: Proposal = owned_proposal(proposal_id)
    if proposal.status in TERMINAL:
        return _reply({"code": "TERMINAL_PROPOSAL_STATUS", "message": f"Proposal is in terminal status {proposal.status}",
                       "details": {"current_status": proposal.status}}, 409)
    contract = contracts.latest_contract(proposal.id)
    if contract is None:
        raise ApiError(404, "Contract not found for this proposal", error_code="CONTRACT_NOT_FOUND")
    if contract.status == IN_PROGRESS:
        return _reply(contract_views.acknowledgement(proposal, contract), 202)
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
@blp.response(200, description="The contract (CCB) as application/pdf. Once the contract is SIGNED this is "
                               "the signed version: the CCB followed by a final page with the signature "
                               "evidence (provider, process id, the four validation results, signing time, "
                               "SHA-256 of the unsigned original). ?version=original serves the unsigned "
                               "original, before and after signing. Header X-Contract-Version tells which "
                               "one was served (original or signed).",
              content_type="application/pdf")
@blp.alt_response(400, schema=ErrorSchema, description="version is not original")
@blp.alt_response(404, schema=ErrorSchema, description="Proposal or document not found")
def contract_document(query, proposal_id):
    """The CCB PDF of the proposal's latest contract: signed version once signed, else the original."""
    proposal = owned_proposal(str(proposal_id))
    contract = contracts.latest_contract(proposal.id)
    found = signed_version.stored_document(contract, query.get("version")) if contract is not None else None
    if found is None:
        raise ApiError(404, "Contract document not found", error_code="CONTRACT_DOCUMENT_NOT_FOUND")
    path, version = found
    suffix = "-assinada" if version == signed_version.SIGNED else ""
    response = send_file(path, mimetype="application/pdf", download_name=f"CCB-{contract.id}{suffix}.pdf")
    response.headers["X-Contract-Version"] = version
    return response
