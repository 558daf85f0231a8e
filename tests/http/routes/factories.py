"""Rows inserted directly, for read-side tests that must not depend on the write paths.

Each helper takes keyword overrides for any column; the defaults describe a plausible row.
``proposal`` also writes its status history (a StatusChange per status in ``path``).
"""
from __future__ import annotations

import itertools
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from models.db.analysis import CreditAnalysis, Offer
from models.db.contact import MessageSend
from models.db.contracts import Contract, Disbursement
from models.db.proposals import Consent, Proposal, StatusChange

T0 = datetime(2026, 5, 11, 15, 0, tzinfo=timezone.utc)
_cpfs = itertools.count(10000000001)


def next_cpf() -> str:
    return str(next(_cpfs))


def proposal(*, path: tuple[str, ...] = (), **fields) -> Proposal:
    """A proposal (PARTNER_A, CREATED at T0 unless overridden); ``path`` = statuses it went through
    after CREATED, the last one being its current status unless ``status`` is given."""
    created = fields.pop("created_at", T0)
    statuses = ("CREATED", *path)
    row = dict(origin="PARTNER_A", product_id="7c1f3f4e-0000-4000-8000-000000000001", cpf=next_cpf(),
               full_name="MARIA DA SILVA", birth_date=date(1985, 3, 14), email="maria@example.com",
               phone="+5511987654321", status=statuses[-1], created_at=created,
               updated_at=fields.pop("updated_at", created), status_sequence=len(statuses) - 1)
    row.update(fields)
    p = Proposal.create(**row)
    for sequence, status in enumerate(statuses):
        StatusChange.create(proposal=p.id, sequence=sequence, old_status=statuses[sequence - 1] if sequence else None,
                            new_status=status, trigger="TEST", source="http",
                            changed_at=created + timedelta(minutes=sequence))
    return p


def consent(p: Proposal, **fields) -> Consent:
    row = dict(proposal=p.id, ip="203.0.113.7", latitude=-23.5505, longitude=-46.6333,
               document_text="I authorise the payroll margin query.", channel="web", captured_at=T0)
    row.update(fields)
    return Consent.create(**row)


def analysis(p: Proposal, **fields) -> CreditAnalysis:
    """An APPROVED analysis with a R$ 10,000.00 limit unless overridden."""
    row = dict(proposal=p.id, cpf=p.cpf, origin=p.origin, outcome="APPROVED", available_margin=Decimal("850.00"),
               max_loan_amount=Decimal("10000.00"), max_installments=48, max_monthly_payment=Decimal("850.00"),
               min_monthly_payment=Decimal("50.00"), monthly_rate=Decimal("0.0199"), pod_limit_max=Decimal("10000.00"),
               margin_snapshot={"available_margin": "850.00", "employer": "ACME LTDA"},
               engine_result={"score": 712, "decision": "APPROVED"}, started_at=T0,
               finished_at=T0 + timedelta(seconds=9), approved_at=T0 + timedelta(seconds=9))
    row.update(fields)
    return CreditAnalysis.create(**row)


def offer(p: Proposal, **fields) -> Offer:
    row = dict(proposal=p.id, source="analysis", kind="standard", principal_amount=Decimal("5000.00"), installments=24,
               installment_amount=Decimal("289.15"), interest_rate=Decimal("1.9900"),
               expires_at=T0 + timedelta(days=7), payload={"offer_type": "STANDARD", "status": "ACTIVE"}, created_at=T0)
    row.update(fields)
    return Offer.create(**row)


def contract(p: Proposal, **fields) -> Contract:
    row = dict(proposal=p.id, offer_id=p.selected_offer_id or "00000000-0000-4000-8000-000000000000", origin=p.origin,
               cpf=p.cpf, status="ISSUED", principal_amount=Decimal("5000.00"), total_amount=Decimal("6939.60"),
               installment_amount=Decimal("289.15"), installments=24, interest_rate=Decimal("1.9900"),
               first_due_date=date(2026, 7, 5), final_due_date=date(2028, 6, 5), created_at=T0)
    row.update(fields)
    return Contract.create(**row)


def disbursement(c: Contract, **fields) -> Disbursement:
    row = dict(contract=c.id, idempotency_key=f"disb-{c.id}", status="PAID", amount=c.principal_amount,
               scheduled_for=date(2026, 5, 12), attempts=1, paid_at=T0 + timedelta(days=1))
    row.update(fields)
    return Disbursement.create(**row)


def message(p: Proposal, **fields) -> MessageSend:
    row = dict(proposal=p.id, channel="sms", recipient=p.phone, purpose="token",
               text="Your code is ******", delivery_status="SENT", provider_message_id="sms-1", sent_at=T0)
    row.update(fields)
    return MessageSend.create(**row)
