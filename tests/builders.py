"""Test data written straight to the database: the one builder module of the test suite, shared
with the benchmarks. bench/ imports it (bench code used to keep its own copy rather than import
tests; that rule is dropped), so a benchmark measures the rows the tests use.

Everything here needs an open database (the integration and e2e layers, or a benchmark that opened
one) and boots nothing. Two families:

* Read-side rows at a fixed instant ``T0``, for tests that must not depend on the write paths:
  ``proposal`` (with its status history), ``consent``, ``analysis``, ``offer``, ``contract``,
  ``disbursement``, ``message``. Each takes keyword overrides for any column; the defaults
  describe a plausible row.
* What the service's own paths leave behind, at the service clock's now: ``pre_accepted_proposal``
  (the end of the credit path: consent, approved analysis, selected offer built by the domain),
  ``analysis_in_progress``, ``with_bank_account``, ``disbursed_proposal``, and ``recorded_proposal``
  (a CREATED proposal recorded through the status writer, so its status event and outbox row exist).
"""

from __future__ import annotations

import itertools
import uuid
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from models.db.analysis import CreditAnalysis, Offer
from models.db.contact import MessageSend
from models.db.contracts import Contract, Disbursement
from models.db.proposals import Consent, Proposal, StatusChange
from models.domain.clock import now
from models.domain.loan.offers import build_offers
from models.domain.loan.pricing import AnalysisResult, Pricing
from models.services.credit.wire import plain

# A Tuesday, 12:00 in São Paulo: a business day outside the payroll maintenance window.
# The spec's happy path, CREATED to DISBURSED: the statuses of a proposal that went some way along it.
HAPPY_PATH = (
    "CREATED",
    "TOKEN_SENT",
    "TOKEN_VALIDATED",
    "CREDIT_ANALYSIS_IN_PROGRESS",
    "CREDIT_CHECK_COMPLETED",
    "OFFERS_RECEIVED",
    "OFFER_SELECTED",
    "PRE_ACCEPTED",
    "BANK_DATA_SUBMITTED",
    "CONTRACT_GENERATION_IN_PROGRESS",
    "CONTRACT_GENERATED",
    "AWAITING_SIGNATURE",
    "SIGNED",
    "DISBURSED",
)


def path_to(status: str) -> tuple[str, ...]:
    """The happy path's statuses after CREATED up to ``status``: the ``path`` of :func:`proposal`."""
    return HAPPY_PATH[1 : HAPPY_PATH.index(status) + 1]


BUSINESS_NOON = "2026-03-10T15:00:00Z"

# --- read-side rows at T0 -----------------------------------------------------------------------

T0 = datetime(2026, 5, 11, 15, 0, tzinfo=timezone.utc)
_cpfs = itertools.count(10000000001)


def next_cpf() -> str:
    return str(next(_cpfs))


def proposal(*, path: tuple[str, ...] = (), **fields) -> Proposal:
    """A proposal (PARTNER_A, CREATED at T0 unless overridden); ``path`` = statuses it went through
    after CREATED, the last one being its current status unless ``status`` is given."""
    created = fields.pop("created_at", T0)
    statuses = ("CREATED", *path)
    row = dict(
        origin="PARTNER_A",
        product_id="7c1f3f4e-0000-4000-8000-000000000001",
        cpf=next_cpf(),
        full_name="MARIA DA SILVA",
        birth_date=date(1985, 3, 14),
        email="maria@example.com",
        phone="+5511987654321",
        status=statuses[-1],
        created_at=created,
        updated_at=fields.pop("updated_at", created),
        status_sequence=len(statuses) - 1,
    )
    row.update(fields)
    p = Proposal.create(**row)
    for sequence, status in enumerate(statuses):
        StatusChange.create(
            proposal=p.id,
            sequence=sequence,
            old_status=statuses[sequence - 1] if sequence else None,
            new_status=status,
            trigger="TEST",
            source="http",
            changed_at=created + timedelta(minutes=sequence),
        )
    return p


def consent(p: Proposal, **fields) -> Consent:
    row = dict(
        proposal=p.id,
        ip="203.0.113.7",
        latitude=-23.5505,
        longitude=-46.6333,
        document_text="I authorise the payroll margin query.",
        channel="web",
        captured_at=T0,
    )
    row.update(fields)
    return Consent.create(**row)


def analysis(p: Proposal, **fields) -> CreditAnalysis:
    """An APPROVED analysis with a R$ 10,000.00 limit unless overridden."""
    row = dict(
        proposal=p.id,
        cpf=p.cpf,
        origin=p.origin,
        outcome="APPROVED",
        available_margin=Decimal("850.00"),
        max_loan_amount=Decimal("10000.00"),
        max_installments=48,
        max_monthly_payment=Decimal("850.00"),
        min_monthly_payment=Decimal("50.00"),
        monthly_rate=Decimal("0.0199"),
        pod_limit_max=Decimal("10000.00"),
        margin_snapshot={
            "available_margin": "850.00",
            "employer_document": "00000000000191",
            "employer_name": "ACME LTDA",
            "admission_date": "2019-08-01",
            "gross_salary": None,
        },
        engine_result={"score": 712, "decision": "APPROVED"},
        started_at=T0,
        finished_at=T0 + timedelta(seconds=9),
        approved_at=T0 + timedelta(seconds=9),
    )
    row.update(fields)
    return CreditAnalysis.create(**row)


def stored_offer_payload(proposal_id: str, offer_id: str, *, at: datetime = T0) -> dict:
    """The payload the analysis stores for a standard offer (every spec field, amounts as numbers,
    the internal ``kind`` and ``cost_breakdown`` included), built by the domain at ``at``."""
    result = AnalysisResult(
        available_margin=Decimal("600.00"), max_installments=24, monthly_rate=None, pod_limit_max=Decimal("150000.00")
    )
    built = build_offers(result, PRICING, proposal_id, at, id_factory=lambda: offer_id)[0]
    return plain(built)


def offer(p: Proposal, **fields) -> Offer:
    offer_id = fields.pop("id", None) or str(uuid.uuid4())
    row = dict(
        id=offer_id,
        proposal=p.id,
        source="analysis",
        kind="standard",
        principal_amount=Decimal("5000.00"),
        installments=24,
        installment_amount=Decimal("289.15"),
        interest_rate=Decimal("1.9900"),
        expires_at=T0 + timedelta(days=7),
        created_at=T0,
    )
    row.update(fields)
    if "payload" not in row:
        row["payload"] = stored_offer_payload(p.id, offer_id)
    return Offer.create(**row)


def contract(p: Proposal, **fields) -> Contract:
    row = dict(
        proposal=p.id,
        offer_id=p.selected_offer_id or "00000000-0000-4000-8000-000000000000",
        origin=p.origin,
        cpf=p.cpf,
        status="ISSUED",
        principal_amount=Decimal("5000.00"),
        total_amount=Decimal("6939.60"),
        installment_amount=Decimal("289.15"),
        installments=24,
        interest_rate=Decimal("1.9900"),
        first_due_date=date(2026, 7, 5),
        final_due_date=date(2028, 6, 5),
        created_at=T0,
    )
    row.update(fields)
    return Contract.create(**row)


def disbursement(c: Contract, **fields) -> Disbursement:
    row = dict(
        contract=c.id,
        idempotency_key=f"disb-{c.id}",
        status="PAID",
        amount=c.principal_amount,
        scheduled_for=date(2026, 5, 12),
        attempts=1,
        paid_at=T0 + timedelta(days=1),
    )
    row.update(fields)
    return Disbursement.create(**row)


def message(p: Proposal, **fields) -> MessageSend:
    row = dict(
        proposal=p.id,
        channel="sms",
        recipient=p.phone,
        purpose="token",
        text="Your code is ******",
        delivery_status="SENT",
        provider_message_id="sms-1",
        sent_at=T0,
    )
    row.update(fields)
    return MessageSend.create(**row)


# --- what the service's paths leave behind, at now() --------------------------------------------

PRICING = Pricing(
    monthly_rate=Decimal("0.0179"),
    tac=Decimal("0.00"),
    insurance_rate=Decimal("0.02"),
    min_amount=Decimal("500.00"),
    max_amount=Decimal("150000.00"),
    min_installment_amount=Decimal("50.00"),
)
DEFAULT_CPF = "12345678909"
# A traditional account as a partner sends it (banking-data), of the sandbox's own holder.
BANK_ACCOUNT = {
    "bank_code": "341",
    "bank_branch": "1234",
    "bank_account": "567890",
    "bank_account_digit": "1",
    "account_type": "checking",
}
PHONE = "+5511987654321"


def offer_payload(proposal_id: str, margin: str = "600.00", installments: int = 48, pricing: Pricing = PRICING) -> dict:
    """The standard offer build_offers makes for this margin and term."""
    result = AnalysisResult(
        available_margin=Decimal(margin),
        max_installments=installments,
        monthly_rate=None,
        pod_limit_max=Decimal("150000.00"),
    )
    return build_offers(result, pricing, proposal_id, now())[0]


def pre_accepted_proposal(
    *,
    cpf: str = DEFAULT_CPF,
    origin: str = "PARTNER_A",
    margin: str = "600.00",
    status: str = "PRE_ACCEPTED",
    full_name: str = "MARIA DA SILVA",
    installments: int = 48,
    pricing: Pricing = PRICING,
) -> Proposal:
    """A proposal in ``status`` (PRE_ACCEPTED by default) with its consent, an approved analysis
    (``margin``, up to ``installments``) and the selected standard offer whose payload comes from
    the domain's build_offers (every spec field, like the real analysis stores)."""
    created = now() - timedelta(minutes=30)
    proposal = Proposal.create(
        origin=origin,
        product_id="8f0d5a52-7a2c-4c41-9d55-3d1f0f3b1a10",
        cpf=cpf,
        full_name=full_name,
        birth_date="1985-04-12",
        email="maria@example.com",
        phone=PHONE,
        status=status,
        created_at=created,
        updated_at=created,
    )
    StatusChange.create(
        proposal=proposal.id,
        sequence=0,
        old_status=None,
        new_status=status,
        trigger="FIXTURE",
        source="test",
        changed_at=created,
    )
    Consent.create(
        proposal=proposal.id,
        ip="203.0.113.7",
        latitude=-23.5505,
        longitude=-46.6333,
        document_text="I authorise the payroll margin query and the credit analysis.",
        channel="web",
        captured_at=created,
    )
    analysis = CreditAnalysis.create(
        proposal=proposal.id,
        cpf=cpf,
        origin=origin,
        outcome="APPROVED",
        available_margin=Decimal(margin),
        max_installments=installments,
        pod_limit_max=Decimal("150000.00"),
        approved_at=created,
        finished_at=created,
    )
    payload = offer_payload(proposal.id, margin, installments, pricing)
    select_offer(proposal.id, payload, analysis_id=analysis.id)
    return Proposal.get_by_id(proposal.id)


def select_offer(proposal_id: str, payload: dict, *, analysis_id: str | None = None) -> Offer:
    """Store an offer from its wire ``payload`` (valid 7 days) and make it the selected one."""
    offer = Offer.create(
        id=payload["id"],
        proposal=proposal_id,
        analysis=analysis_id,
        source="analysis",
        kind=payload["kind"],
        principal_amount=payload["principal_amount"],
        installments=payload["installments"],
        installment_amount=payload["installment_amount"],
        interest_rate=payload["interest_rate"],
        expires_at=now() + timedelta(days=7),
        payload=payload,
    )
    Proposal.update(selected_offer_id=offer.id).where(Proposal.id == proposal_id).execute()
    return offer


def analysis_in_progress(cpf: str = "52998224725") -> CreditAnalysis:
    """An analysis in progress (its message not queued: the test plays the deliveries) of a
    PARTNER_A proposal in CREDIT_ANALYSIS_IN_PROGRESS, with the consent it runs under."""
    proposal = Proposal.create(
        origin="PARTNER_A",
        product_id="p",
        cpf=cpf,
        full_name="MARIA",
        birth_date="1985-04-12",
        status="CREDIT_ANALYSIS_IN_PROGRESS",
    )
    consent = Consent.create(
        proposal=proposal.id,
        ip="203.0.113.10",
        latitude=-23.55,
        longitude=-46.63,
        document_text="consent",
        channel="web",
    )
    return CreditAnalysis.create(proposal=proposal.id, cpf=proposal.cpf, origin="PARTNER_A", consent_id=consent.id)


def with_bank_account(proposal: Proposal) -> Proposal:
    """The same proposal in BANK_DATA_SUBMITTED with a traditional account saved."""
    Proposal.update(
        status="BANK_DATA_SUBMITTED",
        bank_code="341",
        bank_branch="1234",
        bank_account="567890",
        bank_account_digit="1",
        account_type="checking",
    ).where(Proposal.id == proposal.id).execute()
    return Proposal.get_by_id(proposal.id)


def disbursed_proposal(issuer_application_id: str | None = None) -> Proposal:
    """A DISBURSED proposal with its ISSUED contract, written directly."""
    proposal = with_bank_account(pre_accepted_proposal())
    Proposal.update(status="DISBURSED").where(Proposal.id == proposal.id).execute()
    contract_for(proposal, issuer_application_id, status="ISSUED")
    return Proposal.get_by_id(proposal.id)


def contract_for(proposal: Proposal, issuer_application_id: str | None = None, **fields) -> Contract:
    """A contract on the proposal's (first) offer, written directly."""
    offer = proposal.offers.get()
    return Contract.create(
        proposal=proposal.id,
        offer_id=offer.id,
        origin=proposal.origin,
        cpf=proposal.cpf,
        principal_amount=offer.principal_amount,
        total_amount=offer.payload["total_amount"],
        installment_amount=offer.installment_amount,
        installments=offer.installments,
        interest_rate=offer.interest_rate,
        first_due_date=offer.payload["first_due_date"],
        final_due_date=offer.payload["final_due_date"],
        issuer_application_id=issuer_application_id,
        **fields,
    )


def recorded_proposal(
    origin: str = "PARTNER_A", cpf: str = "12345678901", phone: str | None = "+5511987654321"
) -> Proposal:
    """Insert a proposal and record its creation (CREATED, sequence 0) like the start route does,
    in one unit of work. A creation is history only: no status event (see contacted_proposal)."""
    from models.services.platform.proposal_status import record_creation
    from models.services.platform.unit_of_work import unit_of_work

    with unit_of_work():
        proposal = Proposal.create(
            origin=origin,
            product_id="00000000-0000-0000-0000-000000000001",
            cpf=cpf,
            full_name="MARIA SILVA",
            birth_date=date(1990, 1, 2),
            phone=phone,
            status="CREATED",
        )
        record_creation(proposal)
    return proposal


def contacted_proposal(
    origin: str = "PARTNER_A", cpf: str = "12345678901", phone: str | None = "+5511987654321"
) -> Proposal:
    """A recorded proposal moved to TOKEN_SENT (its contact given), in one unit of work: its first
    status event (CREATED → TOKEN_SENT, sequence 1) and the event's outbox row are written with it."""
    from models.domain.status_machine import Trigger
    from models.services.platform.proposal_status import move
    from models.services.platform.unit_of_work import unit_of_work

    proposal = recorded_proposal(origin, cpf, phone)
    with unit_of_work():
        move(proposal, Trigger.SEND_CONTACT)
    return proposal
