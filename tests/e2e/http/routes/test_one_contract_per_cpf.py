"""One active contract per CPF across origins: decided under the CPF's lock at contract generation
(409 CONTRACT_ACTIVE) and checked again when a valid signature arrives (the later one CANCELED);
a contract whose signature window lapsed neither counts nor can be signed."""

import threading
from datetime import timedelta

import freezegun
import pytest

from models import runtime
from models.db.contracts import Contract
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal, StatusChange
from models.domain.clock import now, to_utc
from models.services.contract.signature import FINISHED, handle_result
from tests.builders import contract, pre_accepted_proposal, with_bank_account
from tests.e2e.contract_path import awaiting_signature, history, signing_path

CPF = "52998224725"


@pytest.fixture(autouse=True)
def _settled(drain):
    """Generations these tests start run to their end before the next test empties the tables."""
    yield
    drain()


def ready(origin: str) -> Proposal:
    return with_bank_account(pre_accepted_proposal(cpf=CPF, origin=origin))


def post_contract(client, auth, proposal: Proposal):
    return client.post(f"/v1/proposals/{proposal.id}/contract/async", json={}, headers=auth(proposal.origin))


@pytest.mark.parametrize(
    "status,code",
    [
        ("CONTRACT_GENERATION_IN_PROGRESS", "CONTRACT_GENERATION_IN_PROGRESS"),
        ("SIGNED", "CONTRACT_ACTIVE"),
        ("ERROR", "CONTRACT_ACTIVE"),
        ("ANALYSIS_APPROVED", "CONTRACT_ACTIVE"),
    ],
)
def test_a_contract_in_progress_or_signed_at_another_origin_blocks_generation(client, auth, business_day, status, code):
    holder = ready("PARTNER_B")
    Proposal.update(status=status).where(Proposal.id == holder.id).execute()
    response = post_contract(client, auth, ready("PARTNER_A"))
    assert response.status_code == 409
    # The code says why; the other origin's proposal (id, status) stays that origin's data.
    assert response.json["errorCode"] == code
    assert holder.id not in response.get_data(as_text=True) and "proposal_id" not in response.json.get("details", {})


def test_a_contract_awaiting_signature_blocks_generation_while_its_window_is_open(client, auth, drain, business_day):
    holder, contract = awaiting_signature(client, lambda: auth("PARTNER_B"), drain, cpf=CPF, origin="PARTNER_B")
    second = ready("PARTNER_A")
    deadline = to_utc(Contract.get_by_id(contract["contract_id"]).signature_expires_at)
    with freezegun.freeze_time(deadline - timedelta(seconds=1)):
        response = post_contract(client, auth, second)
        assert response.json["errorCode"] == "CONTRACT_ALREADY_GENERATED"
        assert holder.id not in response.get_data(as_text=True)
    # At the deadline the first can no longer be signed, so it no longer holds the CPF.
    with freezegun.freeze_time(deadline):
        assert post_contract(client, auth, second).status_code == 202


@pytest.mark.parametrize("signed,status", [(timedelta(minutes=-31), 202), (timedelta(minutes=-29), 409)])
def test_a_disbursed_contract_blocks_only_when_signed_after_this_proposals_analysis(
    client, auth, business_day, signed, status
):
    # Our analysis was approved 30 minutes ago (the builder): a loan paid before it is in the margin
    # it read (re-contracting, decided at /start); one signed after it is not.
    holder = ready("PARTNER_B")
    Proposal.update(status="DISBURSED").where(Proposal.id == holder.id).execute()
    contract(holder, status="ISSUED", signed_at=now() + signed)
    assert post_contract(client, auth, ready("PARTNER_A")).status_code == status


def test_simultaneous_generations_for_one_cpf_at_two_origins_make_one_contract(client, auth, business_day, held_outbox):
    # The outbox is held so the winner stays CONTRACT_GENERATION_IN_PROGRESS while the loser is
    # decided (a fast worker would otherwise finish first and the refusal be CONTRACT_ALREADY_GENERATED).
    proposals = [ready("PARTNER_A"), ready("PARTNER_B")]
    barrier, answers = threading.Barrier(2), {}

    def generate(proposal):
        barrier.wait(5)
        answers[proposal.origin] = post_contract(client, auth, proposal)

    threads = [threading.Thread(target=generate, args=(p,)) for p in proposals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    codes = sorted(answer.status_code for answer in answers.values())
    assert codes == [202, 409]
    assert [a.json["errorCode"] for a in answers.values() if a.status_code == 409] == [
        "CONTRACT_GENERATION_IN_PROGRESS"
    ]
    assert Contract.select().where(Contract.cpf == CPF).count() == 1


def _both_awaiting(client, auth, drain):
    """Two proposals of the CPF awaiting a signature at once, as contracts generated before this
    rule may be: the second is generated while the first is set aside, then the first restored."""
    first, first_contract = awaiting_signature(client, lambda: auth("PARTNER_B"), drain, cpf=CPF, origin="PARTNER_B")
    Proposal.update(status="BANK_DATA_SUBMITTED").where(Proposal.id == first.id).execute()
    second, second_contract = awaiting_signature(client, auth, drain, cpf=CPF, origin="PARTNER_A")
    Proposal.update(status="AWAITING_SIGNATURE").where(Proposal.id == first.id).execute()
    return (first, first_contract), (second, second_contract)


def test_a_valid_signature_after_another_contract_of_the_cpf_was_signed_cancels_the_later_one(
    client, auth, drain, business_day
):
    (first, first_contract), (second, second_contract) = _both_awaiting(client, auth, drain)
    client.post(signing_path(first_contract), json={})
    drain()
    assert Proposal.get_by_id(first.id).status in ("SIGNED", "DISBURSED")  # the first signature wins
    client.post(signing_path(second_contract), json={})
    drain()
    assert history(second.id)[-1] == "CANCELED"
    change = (
        StatusChange.select().where(StatusChange.proposal == second.id).order_by(StatusChange.sequence.desc()).get()
    )
    assert (change.trigger, change.source, change.details) == (
        "CANCEL",
        "actor",
        {"reason": "CONTRACT_ACTIVE", "active_proposal_id": first.id},
    )
    assert [change.id] in [
        r.args for r in OutboxMessage.select().where(OutboxMessage.actor_name == "deliver_status_change")
    ]
    row = Contract.get_by_id(second_contract["contract_id"])
    assert (row.status, row.signature_status, row.signed_at, row.funding_canceled_at is not None) == (
        "CANCELED",
        "REJECTED",
        None,
        True,
    )


def test_a_signature_result_after_the_deadline_expires_the_contract(client, auth, drain, business_day):
    proposal, contract = awaiting_signature(client, auth, drain)
    deadline = to_utc(Contract.get_by_id(contract["contract_id"]).signature_expires_at)
    settings = runtime.current().settings
    passing = {
        "process_result": "PROCESS_RESULT_OK",
        "authentication_result": "AUTHENTICATION_RESULT_POSITIVE",
        "liveness_result": "LIVENESS_RESULT_LIVE",
        "trust_result": "TRUST_RESULT_NO",
    }
    with freezegun.freeze_time(deadline):  # the provider's result arrives, the expiry not yet run
        handle_result(
            Contract.get_by_id(contract["contract_id"]).unico_process_id,
            FINISHED,
            passing,
            esignature_settings=settings.esignature,
            contract_settings=settings.contract,
        )
    assert (Proposal.get_by_id(proposal.id).status, Contract.get_by_id(contract["contract_id"]).status) == (
        "EXPIRED",
        "EXPIRED",
    )
