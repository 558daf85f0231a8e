"""Everything the CCB states, gathered once from the offer, the proposal, the consent and the settings.

The numbers are the offer the customer pre-accepted (the figures the API answered in the offer and
answers in the contract data): amounts, rates and CET from its payload; the schedule is the Price
schedule of its financed amount, the same one the offer's total and IOF were computed from. They
are kept raw here (decimal text, ISO dates) and stored with the contract (``Contract.terms``);
only the document formats them (``brazilian_format``).
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime
from decimal import Decimal

from models.db.analysis import Offer
from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.db.partners import Partner
from models.db.proposals import Consent, Proposal, StatusChange
from models.domain import calendar
from models.domain.clock import isoformat_z, to_local
from models.domain.loan.cet import cet
from models.domain.loan.cet_worksheet import cet_flows, financed_components
from models.domain.loan.price import amortization_schedule
from models.services.banking.banks import AUTHORISED_BANKS
from models.settings import CcbSettings

# Shape of the stored terms; the document renders only this shape (older contracts keep their PDF).
TERMS_VERSION = 2
# Settings of [ccb] a CCB cannot be issued without (Lei 10.931/2004 art. 29: creditor, places).
REQUIRED_CCB_SETTINGS = ("creditor_name", "creditor_cnpj", "issue_place", "payment_place")


class CcbNotConfigured(RuntimeError):
    """The settings lack what every CCB must state; no contract is issued until they are filled in."""


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


def _ccb_values(ccb: CcbSettings, *, environment: str) -> dict:
    """Creditor, places and channels from ``[ccb]``; raises when a required one is empty."""
    values = {
        name: str(getattr(ccb, name))
        for name in (
            "creditor_name",
            "creditor_cnpj",
            "creditor_address",
            "issue_place",
            "payment_place",
            "customer_service",
            "ombudsman",
            "document_notice",
        )
    }
    missing = [name for name in REQUIRED_CCB_SETTINGS if not values[name].strip()]
    if missing:
        raise CcbNotConfigured(
            f"[ccb] {', '.join(missing)} must be set in config.toml for the "
            f"{environment} environment before a CCB can be issued"
        )
    return values


def _consent(proposal: Proposal) -> dict | None:
    consent = _LATEST_CONSENT.first(proposal.id)
    token = _TOKEN_VALIDATION.first(proposal.id)
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


# _consent's reads, rendered once (models/db/compiled.py): the proposal's latest consent, and its
# change to TOKEN_VALIDATED (the first row found, as peewee's first() read it).
_LATEST_CONSENT: Compiled[Consent] = Compiled(
    lambda proposal_id: (
        Consent.select().where(Consent.proposal == proposal_id).order_by(Consent.captured_at.desc()).limit(1)
    ),
    str,
)
_TOKEN_VALIDATION: Compiled[StatusChange] = Compiled(
    lambda proposal_id: (
        StatusChange.select()
        .where(StatusChange.proposal == proposal_id, StatusChange.new_status == "TOKEN_VALIDATED")
        .limit(1)
    ),
    str,
)


def cet_release_date(payload: dict, fallback: date) -> date:
    """The release date the offer's CET was computed from: the business day after the offer was
    made (``calculation_details.generated_at``), as offer building does; ``fallback`` without it."""
    generated = (payload.get("calculation_details") or {}).get("generated_at")
    if not generated:
        return fallback
    return calendar.disbursement_date(datetime.fromisoformat(generated.replace("Z", "+00:00")))


def _money(value) -> str:
    return str(Decimal(str(value)).quantize(Decimal("0.01")))


def build_terms(
    contract: Contract,
    proposal: Proposal,
    ccb_number: str | None,
    generated_at,
    *,
    ccb_settings: CcbSettings,
    environment: str,
) -> dict:
    """The printed terms of ``contract``: its offer, the proposal's parties, destination and consent,
    and the ``[ccb]`` settings."""
    partner = Partner.get_or_none(Partner.code == proposal.origin)
    to_pay = destination(proposal)
    if to_pay["type"] == "ACCOUNT":
        to_pay["bank_name"] = AUTHORISED_BANKS.get(proposal.bank_code or "")
    return compose_terms(
        Offer.get_by_id(contract.offer_id).payload,
        contract_id=contract.id,
        ccb_number=ccb_number,
        generated_at=generated_at,
        first_due_date=contract.first_due_date,
        disbursement_date=contract.disbursement_date,
        borrower={
            "name": proposal.full_name,
            "cpf": proposal.cpf,
            "birth_date": str(proposal.birth_date),
            "email": proposal.email,
            "phone": proposal.phone,
        },
        origin={"code": proposal.origin, "name": partner.name if partner else proposal.origin},
        destination=to_pay,
        consent=_consent(proposal),
        ccb=_ccb_values(ccb_settings, environment=environment),
    )


def compose_terms(
    payload: dict,
    *,
    contract_id: str,
    ccb_number: str | None,
    generated_at: datetime,
    first_due_date: date,
    disbursement_date: date,
    borrower: dict,
    origin: dict,
    destination: dict,
    consent: dict | None,
    ccb: dict,
) -> dict:
    """The terms from an offer ``payload`` and the other parts, without touching the database: parties,
    amounts, rates, CET worksheet, charges, schedule, places, disbursement and consent."""
    details = payload.get("calculation_details") or {}
    released = Decimal(str(payload["principal_amount"]))
    charges = {
        "iof": Decimal(str(payload["iof_amount"])),
        "tac": Decimal(str(payload["tac_amount"])),
        "insurance": Decimal(str(payload.get("insurance_amount") or 0)),
    }
    financed = Decimal(str(details.get("financed_amount") or released + sum(charges.values())))
    components = financed_components({"released": released, **charges})
    if sum(item.amount for item in components) != financed:
        raise ValueError(
            f"offer {payload.get('id')}: released amount and charges do not add up to the amount financed ({financed})"
        )
    monthly_rate = Decimal(str(details.get("monthly_rate") or Decimal(str(payload["interest_rate"])) / 100))
    schedule = amortization_schedule(financed, monthly_rate, int(payload["installments"]), first_due_date)
    release = cet_release_date(payload, disbursement_date)
    flows = cet_flows(release, released, [(row.due_date, row.installment) for row in schedule])
    figures = payload.get("cet") or _solve_cet(released, flows)
    total = sum((row.installment for row in schedule), Decimal(0))
    conditions = payload.get("terms_and_conditions") or {}
    return {
        "version": TERMS_VERSION,
        "ccb_number": ccb_number,
        "contract_id": contract_id,
        "generated_at": isoformat_z(generated_at),
        "issue": {"place": ccb["issue_place"], "generated_on": to_local(generated_at).date().isoformat()},
        "payment_place": ccb["payment_place"],
        "creditor": {"name": ccb["creditor_name"], "cnpj": ccb["creditor_cnpj"], "address": ccb["creditor_address"]},
        "channels": {"customer_service": ccb["customer_service"], "ombudsman": ccb["ombudsman"]},
        "document_notice": ccb["document_notice"],
        "borrower": borrower,
        "origin": origin,
        "amounts": {
            "released_amount": _money(released),
            "financed_amount": _money(financed),
            "iof_amount": _money(charges["iof"]),
            "tac_amount": _money(charges["tac"]),
            "insurance_amount": _money(charges["insurance"]),
            "total_amount": _money(payload["total_amount"]),
            "interest_amount": _money(total - financed),
            "installment_amount": _money(payload["installment_amount"]),
            "installments": len(schedule),
        },
        "rates": {
            "monthly_percent": str(payload["interest_rate"]),
            "annual_percent": str(payload["annual_interest_rate"]),
            "cet_monthly_percent": str(figures["monthly"]),
            "cet_annual_percent": str(figures["annual"]),
        },
        "charges": {
            "late_payment_fee_percent": str(conditions.get("late_payment_fee", "")),
            "default_interest_monthly_percent": str(conditions.get("default_interest", "")),
        },
        "cet_worksheet": {
            "release_date": release.isoformat(),
            "components": [
                {"component": item.name, "amount": str(item.amount), "share_percent": str(item.share_percent)}
                for item in components
            ],
            "flows": [
                {"number": flow.number, "date": flow.when.isoformat(), "days": flow.days, "amount": str(flow.amount)}
                for flow in flows
            ],
        },
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
        "first_due_date": first_due_date.isoformat(),
        "final_due_date": schedule[-1].due_date.isoformat(),
        "terms_and_conditions": {k: str(v) for k, v in conditions.items()},
        "disbursement": {"expected_date": disbursement_date.isoformat(), "destination": destination},
        "consent": consent,
    }


def _solve_cet(released: Decimal, flows) -> dict:
    """CET of an offer stored without one (older payloads): solved from the same flows."""
    result = cet(released, [(flow.when, flow.amount) for flow in flows[1:]], flows[0].when)
    return {"annual": result.annual, "monthly": result.monthly}
