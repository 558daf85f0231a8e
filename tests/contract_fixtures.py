"""Proposals ready for the contract path, written straight to the database.

The credit path (start -> pre-accept) belongs to another area; these helpers create what it would
leave behind: a PRE_ACCEPTED proposal with consent, an approved analysis and a selected Offer whose
payload comes from the domain's build_offers (every spec field, like the real analysis stores).
"""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from urllib.parse import urlparse

import freezegun
import pytest

from models.db.analysis import CreditAnalysis, Offer
from models.db.proposals import Consent, Proposal, StatusChange
from models.domain.clock import now
from models.domain.loan.offers import build_offers
from models.domain.loan.pricing import AnalysisResult, Pricing

PRICING = Pricing(monthly_rate=Decimal("0.0179"), tac=Decimal("0.00"), insurance_rate=Decimal("0.02"),
                  min_amount=Decimal("500.00"), max_amount=Decimal("150000.00"),
                  min_installment_amount=Decimal("50.00"))
DEFAULT_CPF = "12345678909"
PHONE = "+5511987654321"


def offer_payload(proposal_id: str, margin: str = "600.00", installments: int = 48) -> dict:
    """The standard offer build_offers makes for this margin and term."""
    result = AnalysisResult(available_margin=Decimal(margin), max_installments=installments,
                            monthly_rate=None, pod_limit_max=Decimal("150000.00"))
    return build_offers(result, PRICING, proposal_id, now())[0]


def pre_accepted_proposal(*, cpf: str = DEFAULT_CPF, origin: str = "PARTNER_A", margin: str = "600.00",
                          status: str = "PRE_ACCEPTED", full_name: str = "MARIA DA SILVA") -> Proposal:
    """A proposal in ``status`` (PRE_ACCEPTED by default) with its selected offer and consent."""
    created = now() - timedelta(minutes=30)
    proposal = Proposal.create(origin=origin, product_id="8f0d5a52-7a2c-4c41-9d55-3d1f0f3b1a10", cpf=cpf,
                               full_name=full_name, birth_date="1985-04-12", email="maria@example.com",
                               phone=PHONE, status=status, created_at=created, updated_at=created)
    StatusChange.create(proposal=proposal.id, sequence=0, old_status=None, new_status=status, trigger="FIXTURE",
                        source="test", changed_at=created)
    Consent.create(proposal=proposal.id, ip="203.0.113.7", latitude=-23.5505, longitude=-46.6333,
                   document_text="I authorise the payroll margin query and the credit analysis.", channel="web",
                   captured_at=created)
    analysis = CreditAnalysis.create(proposal=proposal.id, cpf=cpf, origin=origin, outcome="APPROVED",
                                     available_margin=Decimal(margin), max_installments=48,
                                     pod_limit_max=Decimal("150000.00"), approved_at=created, finished_at=created)
    payload = offer_payload(proposal.id, margin)
    offer = Offer.create(id=payload["id"], proposal=proposal.id, analysis=analysis.id, source="analysis",
                         kind=payload["kind"], principal_amount=payload["principal_amount"],
                         installments=payload["installments"], installment_amount=payload["installment_amount"],
                         interest_rate=payload["interest_rate"], expires_at=now() + timedelta(days=7), payload=payload)
    Proposal.update(selected_offer_id=offer.id).where(Proposal.id == proposal.id).execute()
    return Proposal.get_by_id(proposal.id)


def with_bank_account(proposal: Proposal) -> Proposal:
    """The same proposal in BANK_DATA_SUBMITTED with a traditional account saved."""
    Proposal.update(status="BANK_DATA_SUBMITTED", bank_code="341", bank_branch="1234", bank_account="567890",
                    bank_account_digit="1", account_type="checking").where(Proposal.id == proposal.id).execute()
    return Proposal.get_by_id(proposal.id)


def disbursed_proposal(issuer_application_id: str | None = None) -> Proposal:
    """A DISBURSED proposal with its ISSUED contract, written directly."""
    from models.db.contracts import Contract

    proposal = with_bank_account(pre_accepted_proposal())
    Proposal.update(status="DISBURSED").where(Proposal.id == proposal.id).execute()
    offer = proposal.offers.get()
    Contract.create(proposal=proposal.id, offer_id=offer.id, origin=proposal.origin, cpf=proposal.cpf, status="ISSUED",
                    principal_amount=offer.principal_amount, total_amount=offer.payload["total_amount"],
                    installment_amount=offer.installment_amount, installments=offer.installments,
                    interest_rate=offer.interest_rate, first_due_date=offer.payload["first_due_date"],
                    final_due_date=offer.payload["final_due_date"], issuer_application_id=issuer_application_id)
    return Proposal.get_by_id(proposal.id)


# A Tuesday, 12:00 in São Paulo: a business day, outside the payroll maintenance window.
BUSINESS_NOON = "2026-03-10T15:00:00Z"


@pytest.fixture
def business_day(app):
    """Run the test at BUSINESS_NOON with the clock ticking (workers see the same clock)."""
    with freezegun.freeze_time(BUSINESS_NOON, tick=True) as frozen:
        yield frozen


def signing_path(contract_body: dict) -> str:
    """Path of the sandbox signing page from a contract body's user_redirect_url."""
    url = contract_body.get("user_redirect_url") or contract_body["digital_signature"]["user_redirect_url"]
    return urlparse(url).path


def awaiting_signature(client, headers, drain, *, redirect_url: str | None = None, **proposal_args):
    """Walk a fixture proposal through banking data and contract generation (HTTP API only)."""
    proposal = pre_accepted_proposal(**proposal_args)
    base = f"/v1/proposals/{proposal.id}"
    assert client.post(f"{base}/banking-data", json={"use_pix_cpf": True}, headers=headers()).json["ok"] is True
    body = {"signature_redirect_url": redirect_url} if redirect_url else {}
    response = client.post(f"{base}/contract/async", json=body, headers=headers())
    assert response.status_code == 202, response.json
    drain()
    contract = client.get(f"{base}/contract", headers=headers())
    assert contract.json["proposal_status"] == "AWAITING_SIGNATURE", contract.json
    return Proposal.get_by_id(proposal.id), contract.json


def history(proposal_id: str) -> list[str]:
    """Statuses the proposal went through, in order."""
    return [change.new_status for change in
            StatusChange.select().where(StatusChange.proposal == proposal_id).order_by(StatusChange.sequence)]
