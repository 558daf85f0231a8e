"""The money path converges: routing recorded once, a lost step re-driven on its backoff, the
funder asked by key before paying, a PAID answer always kept, status events re-driven."""

import logging
from datetime import timedelta
from decimal import Decimal

import freezegun
import pytest

from models import runtime
from models.db.contracts import Contract, Disbursement
from models.db.money_path import MoneyPathStep
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal, StatusChange
from models.db.sandbox_providers import SandboxPayment
from models.db.webhooks import WebhookDelivery
from models.domain.clock import now
from models.domain.status_machine import Trigger
from models.external.funding import Payment
from models.external.funding.sandbox import SandboxFunding
from models.services.disbursement import payment, post_signature
from models.services.money_path import redrive, tracking
from models.services.platform.locks import locked_proposal
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import unit_of_work
from models.services.webhooks.status_redrive import redrive_pending
from tests import builders
from tests.support.fake_ports import FakeFraud

pytestmark = pytest.mark.usefixtures("held_outbox")
T0 = "2026-03-10T15:00:00Z"


def settings():
    return runtime.current().settings


def on_money_path(status: str, **contract_fields) -> tuple[Proposal, Contract]:
    proposal = builders.pre_accepted_proposal(status=status)
    contract = builders.contract(proposal, status="SIGNED", **contract_fields)
    with unit_of_work():
        tracking.track(locked_proposal(proposal.id), contract.id)
    return proposal, contract


def messages(actor: str) -> int:
    return OutboxMessage.select().where(OutboxMessage.actor_name == actor).count()


def step(proposal: Proposal) -> MoneyPathStep:
    return MoneyPathStep.get_by_id(proposal.id)


def test_a_redelivered_routing_follows_the_record_and_never_asks_the_fraud_provider_again():
    proposal, contract = on_money_path("SIGNED")
    fraud = FakeFraud(attention=False)
    for _ in range(2):
        post_signature.route_signed(contract.id, fraud=fraud, fraud_settings=settings().fraud)
    assert len(fraud.asked) == 1
    assert Contract.get_by_id(contract.id).post_signature_route == "ENDORSEMENT"
    assert messages("endorse_contract") == 2  # endorsement is idempotent; the routing is not asked again
    assert step(proposal).step == "ENDORSE"


def test_a_lost_step_is_re_driven_on_its_backoff():
    with freezegun.freeze_time(T0) as frozen:
        proposal, _ = on_money_path("SIGNED")
        mp = settings().money_path
        frozen.tick(timedelta(seconds=29))
        assert redrive.redrive_due(money_path_settings=mp).redriven == {}
        frozen.tick(timedelta(seconds=1))  # 30 s after the step began: its first re-drive
        assert redrive.redrive_due(money_path_settings=mp).redriven == {"ROUTE": 1}
        row = step(proposal)
        assert (row.attempts, row.next_attempt_at) == (1, now() + timedelta(seconds=60))
        assert messages("process_signed_contract") == 1
        frozen.tick(timedelta(seconds=59))
        assert redrive.redrive_due(money_path_settings=mp).redriven == {}
        frozen.tick(timedelta(seconds=1))
        assert redrive.redrive_due(money_path_settings=mp).redriven == {"ROUTE": 1}
        assert (step(proposal).attempts, messages("process_signed_contract")) == (2, 2)


def test_a_proposal_that_closed_meanwhile_finishes_its_record_and_sends_nothing():
    proposal, _ = on_money_path("SIGNED")
    Proposal.update(status="CANCELED").where(Proposal.id == proposal.id).execute()
    assert redrive.redrive(proposal.id, money_path_settings=settings().money_path, forced=True) is None
    assert step(proposal).finished_at is not None
    assert messages("process_signed_contract") == 0


def test_the_alert_line_comes_from_the_configured_attempt(caplog):
    proposal, _ = on_money_path("PENDING_ANALYSIS")
    mp = settings().money_path
    MoneyPathStep.update(attempts=mp.alert_after_attempts - 1, last_error="OperationalError: down").execute()
    with caplog.at_level(logging.WARNING):
        assert redrive.redrive(proposal.id, money_path_settings=mp, forced=True).value == "FRAUD"
    line = next(r for r in caplog.records if "re-driven" in r.getMessage())
    assert line.levelno == logging.ERROR and line.getMessage().startswith("ALERT money path stuck")
    assert "OperationalError: down" in line.getMessage()


def test_an_endorsement_is_paid_even_when_an_earlier_disburse_key_exists():
    proposal, contract = on_money_path("ANALYSIS_APPROVED")
    with unit_of_work():  # a payment message of this contract ran before, while it could not be paid
        OutboxMessage.create(actor_name="disburse", args=[contract.id], dedup_key=f"disburse:{contract.id}")
    OutboxMessage.update(published_at=now()).execute()

    class Endorsement:
        def register(self, request):
            return "END-1"

    post_signature.endorse(
        contract.id,
        endorsement=Endorsement(),
        payroll_window_settings=settings().payroll_window,
        disbursement_settings=settings().disbursement,
    )
    due = OutboxMessage.select().where(OutboxMessage.actor_name == "disburse", OutboxMessage.published_at.is_null())
    assert due.count() == 1
    assert step(proposal).step == "DISBURSE"


class CountingFunding(SandboxFunding):
    def __init__(self):
        self.paid = 0

    def pay(self, **kwargs):
        self.paid += 1
        return super().pay(**kwargs)


def test_a_crash_between_the_funders_payment_and_our_record_converges_to_one_payment():
    proposal, contract = on_money_path("SIGNED", post_signature_route="ENDORSEMENT", endorsement_id="END-1")
    funder = SandboxFunding()
    application = funder.create_application(
        reference=contract.id,
        cpf=contract.cpf,
        full_name="MARIA",
        amount=contract.principal_amount,
        installments=contract.installments,
        installment_amount=contract.installment_amount,
    )
    Contract.update(funding_application_id=application.application_id).execute()
    # The first run asked for the payment and the funder paid; the worker died before recording it.
    builders.disbursement(contract, status="REQUESTED", paid_at=None)
    funder.pay(
        application_id=application.application_id,
        amount=contract.principal_amount,
        destination={"type": "PIX"},
        idempotency_key=payment.idempotency_key(contract.id),
    )
    counting = CountingFunding()
    payment.disburse(contract.id, funding=counting)
    assert Proposal.get_by_id(proposal.id).status == "DISBURSED"
    assert (counting.paid, SandboxPayment.select().count()) == (0, 1)
    assert Disbursement.get(Disbursement.contract == contract.id).status == "PAID"
    assert step(proposal).finished_at is not None


def test_a_paid_answer_is_kept_when_the_proposal_can_no_longer_move(caplog):
    proposal, contract = on_money_path("CANCELED")
    builders.disbursement(contract, status="REQUESTED", paid_at=None)
    with caplog.at_level(logging.ERROR):
        payment.record(contract.id, Payment("PAID", Decimal("5000.00"), now()))
    assert Disbursement.get(Disbursement.contract == contract.id).status == "PAID"
    assert any(r.getMessage().startswith("ALERT payment of contract") for r in caplog.records)
    assert Proposal.get_by_id(proposal.id).status == "CANCELED"


def test_a_payment_recorded_paid_is_not_recorded_again(caplog):
    _, contract = on_money_path("CANCELED")
    builders.disbursement(contract, status="REQUESTED", paid_at=None)
    payment.record(contract.id, Payment("PAID", Decimal("5000.00"), now()))
    first = Disbursement.get(Disbursement.contract == contract.id)
    caplog.clear()  # the first record's ALERT
    with caplog.at_level(logging.ERROR):
        payment.record(contract.id, Payment("PAID", Decimal("4000.00"), now() + timedelta(minutes=1)))
    again = Disbursement.get(Disbursement.contract == contract.id)
    assert (again.status, again.amount, again.paid_at) == ("PAID", Decimal("5000.00"), first.paid_at)
    assert not any(r.getMessage().startswith("ALERT payment of contract") for r in caplog.records)


def test_a_status_event_whose_message_was_lost_is_recorded_and_re_driven():
    mp, hooks = settings().money_path, settings().webhooks
    with freezegun.freeze_time(T0) as frozen:
        proposal = builders.pre_accepted_proposal(status="BANK_DATA_SUBMITTED")
        with unit_of_work():
            move(locked_proposal(proposal.id), Trigger.START_CONTRACT)
        change = StatusChange.get(StatusChange.proposal == proposal.id, StatusChange.sequence == 1)
        OutboxMessage.delete().execute()  # the message is lost; only the change row is left
        frozen.tick(timedelta(seconds=29))
        assert redrive_pending(money_path_settings=mp, webhooks_settings=hooks) == 0
        frozen.tick(timedelta(seconds=1))
        assert redrive_pending(money_path_settings=mp, webhooks_settings=hooks) == 1
        delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id)
        assert delivery.status == "PENDING"
        assert OutboxMessage.get(OutboxMessage.actor_name == "deliver_status_change").args == [change.id]
        # Lost again: re-driven once its next attempt is 30 s past, then on the backoff.
        frozen.tick(timedelta(seconds=30))
        assert redrive_pending(money_path_settings=mp, webhooks_settings=hooks) == 1
        delivery = WebhookDelivery.get_by_id(delivery.id)
        assert (delivery.redrives, delivery.redrive_at) == (1, now() + timedelta(seconds=60))
        frozen.tick(timedelta(seconds=59))
        assert redrive_pending(money_path_settings=mp, webhooks_settings=hooks) == 0
        frozen.tick(timedelta(seconds=1))
        assert redrive_pending(money_path_settings=mp, webhooks_settings=hooks) == 1
        assert messages("deliver_status_change") == 3


def test_a_generation_re_drive_that_loses_the_race_leaves_the_winners_contract_alone():
    from datetime import date

    from models.services.contract.generation import generate

    proposal = builders.with_bank_account(builders.pre_accepted_proposal(status="CONTRACT_GENERATION_IN_PROGRESS"))
    contract = builders.contract(
        proposal, status="CONTRACT_GENERATION_IN_PROGRESS", disbursement_date=date(2026, 3, 11)
    )
    rt = runtime.current()

    class WinnerFinishesMeanwhile(SandboxFunding):
        def create_application(self, **kwargs):
            application = super().create_application(**kwargs)
            # the original message finishes while this re-drive is still talking to the providers
            Contract.update(status="CONTRACT_GENERATED", pdf_path="winner.pdf").execute()
            Proposal.update(status="AWAITING_SIGNATURE").execute()
            return application

    generate(
        contract.id,
        funding=WinnerFinishesMeanwhile(),
        esignature=rt.ports.esignature,
        contract_settings=rt.settings.contract,
        ccb_settings=rt.settings.ccb,
        environment=rt.settings.environment,
    )
    assert messages("release_contract") == 0
    assert Contract.get_by_id(contract.id).pdf_path == "winner.pdf"
