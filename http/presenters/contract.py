"""Response bodies of the contract routes (spec: Contract data, polling, acknowledgement).

They format the contract and proposal rows the contract services return (read as plain objects)."""

from __future__ import annotations

from decimal import Decimal

from httpapi.presenters.acknowledgement import acknowledgement_body
from models.domain.clock import isoformat_z


def _text(value) -> str | None:
    """Decimal text with two places ("1.79", "18609.36"), as the contract data table asks."""
    return None if value is None else str(Decimal(value).quantize(Decimal("0.01")))


def _stamp(value) -> str | None:
    return isoformat_z(value) if value is not None else None


def _signature(contract, *, with_process: bool) -> dict:
    body = {"signature_id": contract.signature_id}
    if with_process:
        body["unico_process_id"] = contract.unico_process_id
    body |= {
        "user_redirect_url": contract.user_redirect_url,
        "status": contract.signature_status,
        "expires_at": _stamp(contract.signature_expires_at),
    }
    return body if with_process else {k: body[k] for k in ("signature_id", "status", "user_redirect_url", "expires_at")}


def contract_data(contract) -> dict:
    """Body of POST contract (201): every field of the spec's Contract data table."""
    amounts = {
        "principal_amount": _text(contract.principal_amount),
        "interest_rate": _text(contract.interest_rate),
        "total_amount": _text(contract.total_amount),
        "installment_amount": _text(contract.installment_amount),
    }
    return {
        "contract_id": contract.id,
        "status": contract.status,
        **amounts,
        "installments": contract.installments,
        "first_due_date": contract.first_due_date.isoformat(),
        "has_original_document": contract.has_original_document,
        "user_redirect_url": contract.user_redirect_url,
        "unico_process_id": contract.unico_process_id,
        "digital_signature": _signature(contract, with_process=True),
        "contract_details": {
            "principal_amount": amounts["principal_amount"],
            "interest_rate": amounts["interest_rate"],
            "installments": contract.installments,
            "total_amount": amounts["total_amount"],
            "installment_amount": amounts["installment_amount"],
            "first_due_date": contract.first_due_date.isoformat(),
            "disbursement_date": contract.disbursement_date.isoformat() if contract.disbursement_date else None,
        },
    }


def contract_status(proposal, contract) -> dict:
    """Body of GET contract (200); disbursement information once the money was paid."""
    body = {
        "proposal_id": proposal.id,
        "proposal_status": proposal.status,
        "contract_id": contract.id,
        "contract_status": contract.status,
        "digital_signature": _signature(contract, with_process=False),
    }
    if contract.disbursement_paid_at is not None:
        body["disbursement"] = {
            "disbursement_amount": _text(contract.disbursement_amount),
            "disbursement_date": contract.disbursement_date.isoformat(),
            "disbursement_paid_at": _stamp(contract.disbursement_paid_at),
            "issuer_application_id": contract.issuer_application_id,
        }
    return body


def acknowledgement(contract) -> dict:
    """202 body while the contract is being generated."""
    proposal_id = contract.proposal_id
    return acknowledgement_body(
        proposal_id,
        "CONTRACT_GENERATION_IN_PROGRESS",
        contract.created_at,
        f"/proposals/{proposal_id}/contract/status",
        "Contract generation in progress; poll status_url every 2 seconds",
    )
