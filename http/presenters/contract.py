"""Views of the contract routes (spec: Contract data, polling, acknowledgement), built from the
contract and proposal rows the contract services return; schemas/contract.py serializes them
(amounts as decimal text, days, instants)."""

from __future__ import annotations

from httpapi.presenters.acknowledgement import acknowledgement_view


def _signature(contract, *, with_process: bool) -> dict:
    view = {"signature_id": contract.signature_id}
    if with_process:
        view["unico_process_id"] = contract.unico_process_id
    return view | {
        "user_redirect_url": contract.user_redirect_url,
        "status": contract.signature_status,
        "expires_at": contract.signature_expires_at,
    }


def contract_data(contract) -> dict:
    """Body of POST contract (201): every field of the spec's Contract data table."""
    terms = {
        "principal_amount": contract.principal_amount,
        "interest_rate": contract.interest_rate,
        "installments": contract.installments,
        "total_amount": contract.total_amount,
        "installment_amount": contract.installment_amount,
        "first_due_date": contract.first_due_date,
    }
    return {
        "contract_id": contract.id,
        "status": contract.status,
        **terms,
        "has_original_document": contract.has_original_document,
        "user_redirect_url": contract.user_redirect_url,
        "unico_process_id": contract.unico_process_id,
        "digital_signature": _signature(contract, with_process=True),
        "contract_details": {**terms, "disbursement_date": contract.disbursement_date},
    }


def contract_status(proposal, contract) -> dict:
    """Body of GET contract (200); disbursement information once the money was paid."""
    view = {
        "proposal_id": proposal.id,
        "proposal_status": proposal.status,
        "contract_id": contract.id,
        "contract_status": contract.status,
        "digital_signature": _signature(contract, with_process=False),
    }
    if contract.disbursement_paid_at is not None:
        view["disbursement"] = {
            "disbursement_amount": contract.disbursement_amount,
            "disbursement_date": contract.disbursement_date,
            "disbursement_paid_at": contract.disbursement_paid_at,
            "issuer_application_id": contract.issuer_application_id,
        }
    return view


def acknowledgement(contract) -> dict:
    """202 body while the contract is being generated."""
    proposal_id = contract.proposal_id
    return acknowledgement_view(
        proposal_id,
        "CONTRACT_GENERATION_IN_PROGRESS",
        contract.created_at,
        f"/proposals/{proposal_id}/contract/status",
        "Contract generation in progress; poll status_url every 2 seconds",
    )


def terminal_status(proposal) -> dict:
    """409 body of the contract-status query for a proposal in a terminal status."""
    return {
        "code": "TERMINAL_PROPOSAL_STATUS",
        "message": f"Proposal is in terminal status {proposal.status}",
        "details": {"current_status": proposal.status},
    }
