"""The sandbox test clock's service side: the periodic sweep judges an advanced proposal at its
own time, and an advance moves only that proposal's scheduled messages (README "Sandbox test
clock")."""

from datetime import timedelta

import pytest
from freezegun import freeze_time

from models import runtime
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.domain.clock import to_utc
from models.services.lifecycle import sweep as lifecycle
from models.services.lifecycle.sandbox_clock import advance
from models.services.platform.actor_names import ActorName
from models.services.platform.unit_of_work import enqueue, unit_of_work
from tests import builders

T0 = builders.T0
STEP = timedelta(microseconds=1)
DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _settled(held_outbox, drain):
    yield
    drain()


def _sweep_at(instant, *, sandbox_routes: bool):
    settings = runtime.current().settings
    with freeze_time(instant):
        return lifecycle.sweep(
            lifecycle_settings=settings.lifecycle,
            credit_settings=settings.credit,
            contract_settings=settings.contract,
            sandbox_routes=sandbox_routes,
        )


def _idle_proposal_a_day_from_its_deadline() -> Proposal:
    """TOKEN_SENT since T0 + 1 min, its clock 29 days ahead: idle 30 days one day after T0."""
    return builders.proposal(path=("TOKEN_SENT",), clock_offset_seconds=int((29 * DAY).total_seconds()))


def test_the_periodic_sweep_judges_an_advanced_proposal_at_its_own_time():
    proposal = _idle_proposal_a_day_from_its_deadline()
    due = T0 + timedelta(minutes=1) + DAY  # real instant at which its clock shows entered + 30 days
    _sweep_at(due - STEP, sandbox_routes=True)
    assert Proposal.get_by_id(proposal.id).status == "TOKEN_SENT"
    report = _sweep_at(due, sandbox_routes=True)
    assert (Proposal.get_by_id(proposal.id).status, report.moved) == ("EXPIRED", {"EXPIRE": 1})


def test_without_the_sandbox_clock_the_sweep_looks_no_further_than_the_real_time():
    proposal = _idle_proposal_a_day_from_its_deadline()
    report = _sweep_at(T0 + timedelta(minutes=1) + DAY, sandbox_routes=False)
    assert (Proposal.get_by_id(proposal.id).status, report.moved) == ("TOKEN_SENT", {})


def _awaiting_signature_with_its_expiry(real_deadline) -> tuple[Proposal, OutboxMessage]:
    proposal = builders.proposal(path=("TOKEN_SENT", "TOKEN_VALIDATED"), status="AWAITING_SIGNATURE")
    contract = builders.contract(
        proposal, status="CONTRACT_GENERATED", signature_status="PENDING", signature_expires_at=real_deadline
    )
    with unit_of_work():
        row = enqueue(
            ActorName.EXPIRE_SIGNATURE, contract.id, deliver_at=real_deadline, dedup_key=f"expiry:{contract.id}"
        )
    return proposal, row


def _advance(proposal: Proposal, seconds: int):
    settings = runtime.current().settings
    return advance(
        proposal.origin,
        proposal.id,
        seconds,
        sandbox_routes=True,
        lifecycle_settings=settings.lifecycle,
        credit_settings=settings.credit,
        contract_settings=settings.contract,
    )


def test_an_advance_moves_only_its_own_proposals_scheduled_messages():
    with freeze_time(T0):
        ours, our_row = _awaiting_signature_with_its_expiry(T0 + 2 * DAY)
        _, their_row = _awaiting_signature_with_its_expiry(T0 + 2 * DAY)
        advanced = _advance(ours, int(DAY.total_seconds()))
    assert advanced.released == []  # a day early still
    assert to_utc(OutboxMessage.get_by_id(our_row.id).deliver_at) == T0 + DAY
    assert to_utc(OutboxMessage.get_by_id(their_row.id).deliver_at) == T0 + 2 * DAY


def test_a_scheduled_message_whose_time_has_come_is_released_at_once():
    with freeze_time(T0):
        proposal, row = _awaiting_signature_with_its_expiry(T0 + DAY)
        advanced = _advance(proposal, int(DAY.total_seconds()))
        assert to_utc(OutboxMessage.get_by_id(row.id).deliver_at) == T0
    assert advanced.released == ["EXPIRE_SIGNATURE"]
    assert advanced.clock["offset_seconds"] == DAY.total_seconds()
