"""After signature: fraud analysis, payroll endorsement window, disbursement (at most once)."""

from datetime import timedelta

import freezegun
import pytest

from models.db.contracts import Contract, Disbursement
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.db.sandbox_providers import SandboxPayment
from models.services.disbursement import payment as disbursement
from models.services.platform import unit_of_work
from tests.e2e.contract_path import awaiting_signature, history, signing_path

SIGNED_TO_END = {
    "plain": ["SIGNED", "DISBURSED"],
    "approved": ["SIGNED", "PENDING_ANALYSIS", "ANALYSIS_APPROVED", "DISBURSED"],
    "reproved": ["SIGNED", "PENDING_ANALYSIS", "ANALYSIS_REPROVED"],
}


def sign(client, auth, drain, **proposal_args):
    proposal, contract = awaiting_signature(client, auth, drain, **proposal_args)
    client.post(signing_path(contract), json={})
    drain()
    return proposal, Contract.get_by_id(contract["contract_id"])


def after_signature(proposal_id):
    statuses = history(proposal_id)
    return statuses[statuses.index("SIGNED") :]


def test_plain_contract_is_disbursed_with_amount_and_time(client, auth, drain, business_day):
    proposal, contract = sign(client, auth, drain)
    assert after_signature(proposal.id) == SIGNED_TO_END["plain"]
    assert (contract.status, contract.disbursement_amount, contract.disbursement_paid_at is not None) == (
        "ISSUED",
        contract.principal_amount,
        True,
    )
    assert contract.endorsement_id.startswith("END-") and contract.issuer_application_id.startswith("CCB")


def test_fraud_review_approved_for_the_sandbox_cpf(client, auth, drain, business_day):
    proposal, _ = sign(client, auth, drain, cpf="10000000876")
    assert after_signature(proposal.id) == SIGNED_TO_END["approved"]


def test_fraud_review_reproved_for_the_sandbox_cpf(client, auth, drain, business_day):
    proposal, contract = sign(client, auth, drain, cpf="10000000957")
    assert after_signature(proposal.id) == SIGNED_TO_END["reproved"]
    assert (contract.status, contract.funding_canceled_at is not None) == ("ANALYSIS_REPROVED", True)
    assert not SandboxPayment.select().exists()


def test_amount_above_the_limit_goes_through_fraud_analysis(client, auth, drain, business_day):
    proposal, contract = sign(client, auth, drain, margin="2500.00")
    assert contract.principal_amount > 30000
    assert after_signature(proposal.id) == SIGNED_TO_END["approved"]


def test_disbursement_fails_for_the_sandbox_cpf(client, auth, drain, business_day):
    proposal, contract = sign(client, auth, drain, cpf="10000001090")
    assert after_signature(proposal.id) == ["SIGNED", "DISBURSEMENT_FAILED"]
    assert Disbursement.get(Disbursement.contract == contract.id).status == "FAILED"


def test_signature_inside_the_maintenance_window_waits_in_error_then_disburses(client, auth, drain):
    # Friday 20 March 2026, 23:00 in São Paulo: the payroll window runs until Monday 23rd 06:00.
    with freezegun.freeze_time("2026-03-21T02:00:00Z", tick=True):
        proposal, _ = sign(client, auth, drain)
        assert Proposal.get_by_id(proposal.id).status == "ERROR"
        resume = OutboxMessage.get(OutboxMessage.actor_name == "endorse_contract", OutboxMessage.published_at.is_null())
        assert resume.deliver_at.isoformat() == "2026-03-23T09:00:00+00:00"
    with freezegun.freeze_time("2026-03-23T09:00:01Z", tick=True):
        drain()
    assert after_signature(proposal.id) == ["SIGNED", "ERROR", "DISBURSED"]


def test_crash_after_the_funder_paid_is_found_by_its_key_on_redelivery(client, auth, drain, business_day, monkeypatch):
    real_record, crashes = disbursement.record, []

    def crash_before_commit(contract_id, payment):
        if not crashes:
            crashes.append(payment)
            with unit_of_work.unit_of_work():
                real_record(contract_id, payment)  # writes DISBURSED...
                raise RuntimeError("worker killed before commit")  # ...rolled back
        real_record(contract_id, payment)

    monkeypatch.setattr(disbursement, "record", crash_before_commit)
    proposal, contract = sign(client, auth, drain)
    assert crashes and Proposal.get_by_id(proposal.id).status == "DISBURSED"
    assert SandboxPayment.select().count() == 1
    row = Disbursement.get(Disbursement.contract == contract.id)
    # One request: the redelivery asked the funder by the key and recorded its answer, no new request.
    assert (row.status, row.attempts) == ("PAID", 1)


@pytest.mark.usefixtures("business_day")
def test_without_pay_immediately_payment_waits_for_the_disbursement_date(client, auth, drain, use_runtime):
    from dataclasses import replace

    from models import runtime

    # Production behaviour: pay at 09:00 local on the disbursement date, not right after endorsement.
    disbursement_settings = replace(runtime.current().settings.disbursement, pay_immediately=False)
    use_runtime(settings={"disbursement": disbursement_settings})
    proposal, _contract = sign(client, auth, drain)
    assert Proposal.get_by_id(proposal.id).status == "SIGNED"
    scheduled = OutboxMessage.get(OutboxMessage.actor_name == "disburse")
    assert scheduled.deliver_at.isoformat() == "2026-03-11T12:00:00+00:00"  # Wednesday 09:00 local


def test_an_endorsement_whose_message_is_lost_is_re_driven_by_the_sweep_to_disbursed(
    client, auth, drain, business_day, monkeypatch
):
    from models import runtime
    from models.db.money_path import MoneyPathStep
    from models.services.disbursement import post_signature
    from models.services.money_path.redrive import redrive_due

    real_endorse = post_signature.endorse
    monkeypatch.setattr(post_signature, "endorse", lambda *args, **kwargs: None)  # retries spent, dead-lettered
    proposal, _contract = sign(client, auth, drain)
    record = MoneyPathStep.get_by_id(proposal.id)
    assert (Proposal.get_by_id(proposal.id).status, record.step, record.attempts) == ("SIGNED", "ENDORSE", 0)
    monkeypatch.setattr(post_signature, "endorse", real_endorse)  # the database is back
    business_day.move_to(record.due_at + timedelta(seconds=30))  # the step's first re-drive is due
    report = redrive_due(money_path_settings=runtime.current().settings.money_path)
    assert report.redriven == {"ENDORSE": 1}
    drain()
    assert Proposal.get_by_id(proposal.id).status == "DISBURSED"
    assert SandboxPayment.select().count() == 1
    assert MoneyPathStep.get_by_id(proposal.id).finished_at is not None
