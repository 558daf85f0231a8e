"""Everything the CCB states, gathered once from the offer, the proposal and the consent."""

from __future__ import annotations

import hashlib
from datetime import date
from decimal import Decimal

from models.db.analysis import Offer
from models.db.contracts import Contract
from models.db.partners import Partner
from models.db.proposals import Consent, Proposal, StatusChange
from models.domain.clock import isoformat_z
from models.domain.loan.cet import cet
from models.domain.loan.price import amortization_schedule


def destination(proposal: Proposal) -> dict:
    """Where the money goes: the Pix key or the account saved with the banking data."""
    holder = {"holder_document": proposal.cpf, "holder_name": proposal.full_name}
    if proposal.pix_key:
        return {"type": "PIX", "pix_key": proposal.pix_key, "pix_key_type": proposal.pix_key_type, **holder}
    return {
        "type": "ACCOUNT",
        "bank_code": proposal.bank_code,
        "bank_branch": proposal.bank_branch,
        "bank_branch_digit": proposal.bank_branch_digit,
        "bank_account": proposal.bank_account,
        "bank_account_digit": proposal.bank_account_digit,
        "account_type": proposal.account_type,
        **holder,
    }


def _consent(proposal: Proposal) -> dict | None:
    consent = proposal.consents.order_by(Consent.captured_at.desc()).first()
    token = (
        StatusChange.select()
        .where(StatusChange.proposal == proposal.id, StatusChange.new_status == "TOKEN_VALIDATED")
        .first()
    )
    if consent is None:
        return None
    return {
        "ip": consent.ip,
        "latitude": consent.latitude,
        "longitude": consent.longitude,
        "channel": consent.channel,
        "captured_at": isoformat_z(consent.captured_at),
        "document_text_sha256": hashlib.sha256(consent.document_text.encode()).hexdigest(),
        "token_validated_at": isoformat_z(token.changed_at) if token else None,
    }


def _cet(payload: dict, schedule, release: date) -> tuple[dict, list]:
    if payload.get("cet"):
        return payload["cet"], payload.get("cost_breakdown") or []
    principal = Decimal(str(payload["principal_amount"]))
    result = cet(
        principal,
        [(row.due_date, row.installment) for row in schedule],
        release,
        components={
            "principal": principal,
            "iof": Decimal(str(payload["iof_amount"])),
            "tac": Decimal(str(payload["tac_amount"])),
        },
    )
    return {"annual": result.annual, "monthly": result.monthly}, result.breakdown


def build_terms(contract: Contract, proposal: Proposal, ccb_number: str | None, generated_at) -> dict:
    """The printed terms: parties, amounts, rates, CET, charges, schedule, disbursement and consent."""
    payload = Offer.get_by_id(contract.offer_id).payload
    details = payload.get("calculation_details") or {}
    financed = Decimal(str(details.get("financed_amount") or payload["principal_amount"]))
    monthly_rate = Decimal(str(details.get("monthly_rate") or Decimal(str(payload["interest_rate"])) / 100))
    schedule = amortization_schedule(financed, monthly_rate, contract.installments, contract.first_due_date)
    cet_figures, breakdown = _cet(payload, schedule, contract.disbursement_date)
    partner = Partner.get_or_none(Partner.code == proposal.origin)
    return {
        "ccb_number": ccb_number,
        "generated_at": isoformat_z(generated_at),
        "borrower": {
            "name": proposal.full_name,
            "cpf": proposal.cpf,
            "birth_date": str(proposal.birth_date),
            "email": proposal.email,
            "phone": proposal.phone,
        },
        "origin": {"code": proposal.origin, "name": partner.name if partner else proposal.origin},
        "amounts": {
            name: str(payload[name])
            for name in (
                "principal_amount",
                "total_amount",
                "installment_amount",
                "iof_amount",
                "tac_amount",
                "insurance_amount",
            )
        }
        | {"financed_amount": str(financed), "installments": contract.installments},
        "rates": {
            "monthly_percent": str(payload["interest_rate"]),
            "annual_percent": str(payload["annual_interest_rate"]),
            "cet_monthly_percent": str(cet_figures["monthly"]),
            "cet_annual_percent": str(cet_figures["annual"]),
        },
        "cost_breakdown": [{k: str(v) for k, v in item.items()} for item in breakdown],
        "schedule": [
            {
                "number": r.number,
                "due_date": r.due_date.isoformat(),
                "installment": str(r.installment),
                "interest": str(r.interest),
                "amortization": str(r.amortization),
                "balance": str(r.balance),
            }
            for r in schedule
        ],
        "first_due_date": contract.first_due_date.isoformat(),
        "final_due_date": contract.final_due_date.isoformat(),
        "terms_and_conditions": {k: str(v) for k, v in (payload.get("terms_and_conditions") or {}).items()},
        "disbursement": {"expected_date": contract.disbursement_date.isoformat(), "destination": destination(proposal)},
        "consent": _consent(proposal),
    }
