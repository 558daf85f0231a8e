"""The lifecycle sweep moves every proposal whose deadline has come through its exit, once, with
its status webhook; one instant earlier it leaves the proposal alone. Durable: one outbox row per
slot, whoever schedules it."""

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from models import runtime
from models.db.analysis import CreditAnalysis, Offer
from models.db.contracts import Contract
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal, StatusChange
from models.domain.clock import to_utc
from models.services.lifecycle import sweep as lifecycle
from tests import builders
from tests.support.announced import assert_announced


@pytest.fixture(autouse=True)
def _settled(held_outbox, drain):
    """The test plays the queued work itself (held outbox); what it queued runs after it, before
    the next test empties the tables."""
    yield
    drain()


T0 = builders.T0
STEP = timedelta(microseconds=1)


def run_sweep():
    settings = runtime.current().settings
    return lifecycle.sweep(
        lifecycle_settings=settings.lifecycle, credit_settings=settings.credit, contract_settings=settings.contract
    )


def sweep_at(instant):
    with freeze_time(instant):
        return run_sweep()


def status_of(proposal):
    return Proposal.get_by_id(proposal.id).status


def last_change(proposal):
    return (
        StatusChange.select().where(StatusChange.proposal == proposal.id).order_by(StatusChange.sequence.desc()).get()
    )


def assert_expired(proposal, reason):
    change = last_change(proposal)
    assert (change.new_status, change.trigger, change.source, change.details["reason"]) == (
        "EXPIRED",
        "PROPOSAL_EXPIRED",
        "scheduler",
        reason,
    )
    assert_announced(change)  # the partner is told: the event is on the outbox with the change


def failed_analysis(proposal, *, retryable=True, code="CRA-DTP-003", finished_at=T0, with_consent=True, **fields):
    consent = builders.consent(proposal) if with_consent else None
    return builders.analysis(
        proposal,
        outcome="FAILED",
        error_code=code,
        retryable=retryable,
        finished_at=finished_at,
        approved_at=None,
        consent_id=consent.id if consent else None,
        **fields,
    )


@pytest.mark.parametrize("path", [(), ("TOKEN_SENT",), ("TOKEN_SENT", "TOKEN_VALIDATED")], ids=str)
def test_an_idle_early_proposal_expires_after_the_idle_limit(path):
    proposal = builders.proposal(path=path)
    status = proposal.status
    entered = to_utc(last_change(proposal).changed_at)
    due = entered + timedelta(days=runtime.current().settings.lifecycle.idle_before_analysis_days)
    sweep_at(due - STEP)
    assert status_of(proposal) == status
    report = sweep_at(due)
    assert (status_of(proposal), report.moved) == ("EXPIRED", {"EXPIRE": 1})
    assert_expired(proposal, "IDLE")


def test_a_retryable_failure_expires_the_first_instant_after_the_retry_window():
    proposal = builders.proposal(
        path=("TOKEN_SENT", "TOKEN_VALIDATED", "CREDIT_ANALYSIS_IN_PROGRESS", "CREDIT_ANALYSIS_FAILED")
    )
    failed_analysis(proposal)
    window_end = T0 + timedelta(hours=runtime.current().settings.credit.retry_window_hours)
    sweep_at(window_end)  # the retry route still takes it at this instant
    assert status_of(proposal) == "CREDIT_ANALYSIS_FAILED"
    sweep_at(window_end + STEP)
    assert_expired(proposal, "RETRY_WINDOW_LAPSED")


@pytest.mark.parametrize(
    "fields,reason",
    [
        ({"retryable": False, "code": "CRA-INT-001"}, "NOT_RETRYABLE"),
        ({"with_consent": False}, "NO_CONSENT"),
    ],
)
def test_a_failure_the_retry_route_cannot_take_expires_on_the_next_sweep(fields, reason):
    proposal = builders.proposal(path=("CREDIT_ANALYSIS_FAILED",))
    failed_analysis(proposal, **fields)
    sweep_at(T0 - STEP)
    assert status_of(proposal) == "CREDIT_ANALYSIS_FAILED"
    sweep_at(T0)
    assert_expired(proposal, reason)


def test_a_failure_past_the_retry_limit_expires():
    proposal = builders.proposal(path=("CREDIT_ANALYSIS_FAILED",))
    limit = runtime.current().settings.credit.retry_limit
    for attempt in range(limit):
        failed_analysis(proposal, kind="retry", attempt=attempt + 2, started_at=T0 + timedelta(seconds=attempt))
    sweep_at(T0 + timedelta(minutes=1))
    assert_expired(proposal, "RETRY_LIMIT_REACHED")


def test_offers_lapse_at_the_expiry_of_the_last_selectable_offer(business_day):
    proposal = builders.pre_accepted_proposal()
    expires = to_utc(Offer.get_by_id(proposal.selected_offer_id).expires_at)
    sweep_at(expires - STEP)
    assert status_of(proposal) == "PRE_ACCEPTED"
    sweep_at(expires)
    assert_expired(proposal, "OFFERS_LAPSED")


def test_a_newer_simulated_offer_keeps_the_proposal_alive(business_day):
    proposal = builders.pre_accepted_proposal()
    selected = Offer.get_by_id(proposal.selected_offer_id)
    later = to_utc(selected.expires_at) + timedelta(days=2)
    builders.offer(proposal, source="simulation", expires_at=later)
    sweep_at(to_utc(selected.expires_at))
    assert status_of(proposal) == "PRE_ACCEPTED"
    # A superseded offer does not count, however long it would have lasted.
    builders.offer(proposal, expires_at=later + timedelta(days=9), superseded_at=T0)
    sweep_at(later)
    assert_expired(proposal, "OFFERS_LAPSED")


def test_a_stalled_analysis_fails_as_an_internal_error_then_expires():
    proposal = builders.proposal(path=("CREDIT_ANALYSIS_IN_PROGRESS",))
    analysis = builders.analysis(proposal, outcome="IN_PROGRESS", finished_at=None, approved_at=None)
    stalled = to_utc(last_change(proposal).changed_at) + timedelta(
        minutes=runtime.current().settings.lifecycle.analysis_stall_minutes
    )
    sweep_at(stalled - STEP)
    assert status_of(proposal) == "CREDIT_ANALYSIS_IN_PROGRESS"
    sweep_at(stalled)
    row = CreditAnalysis.get_by_id(analysis.id)
    assert (status_of(proposal), row.outcome, row.error_code, row.retryable) == (
        "CREDIT_ANALYSIS_FAILED",
        "FAILED",
        "CRA-INT-001",
        False,
    )
    sweep_at(stalled + timedelta(minutes=1))
    assert_expired(proposal, "NOT_RETRYABLE")


def test_an_automatic_retry_overdue_runs_again():
    proposal = builders.proposal(path=("CREDIT_ANALYSIS_IN_PROGRESS", "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY"))
    retry_at = T0 + timedelta(hours=2)
    analysis = builders.analysis(
        proposal, outcome="AWAITING_RETRY", retry_at=retry_at, finished_at=T0, approved_at=None
    )
    overdue = retry_at + timedelta(minutes=runtime.current().settings.lifecycle.analysis_stall_minutes)
    sweep_at(overdue - STEP)
    assert status_of(proposal) == "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY"
    sweep_at(overdue)
    row = CreditAnalysis.get_by_id(analysis.id)
    assert (status_of(proposal), row.outcome, row.auto_retries) == ("CREDIT_ANALYSIS_IN_PROGRESS", "IN_PROGRESS", 1)
    assert OutboxMessage.select().where(OutboxMessage.actor_name == "run_credit_analysis").exists()


def test_a_generation_past_the_watchdog_goes_back_to_bank_data(business_day):
    proposal = builders.with_bank_account(builders.pre_accepted_proposal())
    proposal = builders.proposal(
        path=("CONTRACT_GENERATION_IN_PROGRESS",), cpf=proposal.cpf, selected_offer_id=proposal.selected_offer_id
    )
    contract = builders.contract(proposal, status="CONTRACT_GENERATION_IN_PROGRESS")
    overdue = to_utc(last_change(proposal).changed_at) + timedelta(
        seconds=runtime.current().settings.contract.watchdog_seconds
    )
    sweep_at(overdue - STEP)
    assert status_of(proposal) == "CONTRACT_GENERATION_IN_PROGRESS"
    sweep_at(overdue)
    assert (status_of(proposal), Contract.get_by_id(contract.id).status) == ("BANK_DATA_SUBMITTED", "FAILED")


def test_an_unsigned_contract_past_its_deadline_expires():
    proposal = builders.proposal(path=("CONTRACT_GENERATED", "AWAITING_SIGNATURE"))
    deadline = T0 + timedelta(days=1)
    contract = builders.contract(
        proposal, status="CONTRACT_GENERATED", signature_status="PENDING", signature_expires_at=deadline
    )
    sweep_at(deadline - STEP)
    assert status_of(proposal) == "AWAITING_SIGNATURE"
    sweep_at(deadline)
    assert (status_of(proposal), Contract.get_by_id(contract.id).status) == ("EXPIRED", "EXPIRED")


@pytest.mark.parametrize("status", ["SIGNED", "PENDING_ANALYSIS", "ANALYSIS_APPROVED", "ERROR", "DISBURSED"])
def test_a_signed_contract_is_never_expired(status):
    proposal = builders.proposal(path=(status,))
    sweep_at(T0 + timedelta(days=400))
    assert status_of(proposal) == status


def test_a_second_sweep_changes_nothing():
    proposal = builders.proposal(path=("CREDIT_ANALYSIS_FAILED",))
    failed_analysis(proposal, retryable=False, code="CRA-INT-001")
    sweep_at(T0 + timedelta(minutes=1))
    sequence = Proposal.get_by_id(proposal.id).status_sequence
    assert sweep_at(T0 + timedelta(minutes=2)).moved == {}
    assert Proposal.get_by_id(proposal.id).status_sequence == sequence


def test_a_proposal_that_moved_since_it_was_found_is_left_alone():
    # Found dead, then retried before the sweep takes its lock: the rule asked again says no.
    proposal = builders.proposal(path=("CREDIT_ANALYSIS_FAILED",))
    failed_analysis(proposal, retryable=False, code="CRA-INT-001")
    Proposal.update(status="CREDIT_ANALYSIS_IN_PROGRESS").where(Proposal.id == proposal.id).execute()
    limits = lifecycle.lifecycle_limits(
        lifecycle_settings=runtime.current().settings.lifecycle,
        credit_settings=runtime.current().settings.credit,
        contract_settings=runtime.current().settings.contract,
    )
    with freeze_time(T0 + timedelta(minutes=1)):
        assert lifecycle.settle(proposal.id, limits) is None
    assert status_of(proposal) == "CREDIT_ANALYSIS_IN_PROGRESS"


@pytest.fixture
def every_minute():
    """The lifecycle section with a one-minute sweep (the test environment sweeps only on demand)."""
    return replace(runtime.current().settings.lifecycle, sweep_interval_seconds=60)


@freeze_time("2026-11-21T12:00:30Z")
def test_the_next_sweep_lands_on_the_next_slot_once_whoever_schedules_it(every_minute):
    for _ in range(3):  # API processes and worker pools all schedule at start-up
        at = lifecycle.schedule_next_sweep(lifecycle_settings=every_minute)
    assert at == datetime(2026, 11, 21, 12, 1, tzinfo=timezone.utc)
    row = OutboxMessage.get()
    assert (row.actor_name, row.deliver_at, row.dedup_key) == (
        "sweep_lifecycle",
        at,
        f"lifecycle-sweep:{int(at.timestamp()) // 60}",
    )


def test_the_schedule_off_schedules_nothing():
    assert lifecycle.schedule_next_sweep(lifecycle_settings=runtime.current().settings.lifecycle) is None
    assert OutboxMessage.select().count() == 0


def test_a_due_sweep_settles_and_schedules_the_next(every_minute, drain, use_runtime):
    use_runtime(settings={"lifecycle": every_minute})
    proposal = builders.proposal(path=("CREDIT_ANALYSIS_FAILED",))
    failed_analysis(proposal, retryable=False, code="CRA-INT-001")
    with freeze_time("2026-05-11T15:00:30Z") as frozen:
        lifecycle.schedule_next_sweep(lifecycle_settings=every_minute)
        frozen.move_to("2026-05-11T15:01:00Z")
        drain()
        pending = OutboxMessage.select().where(
            OutboxMessage.actor_name == "sweep_lifecycle", OutboxMessage.published_at.is_null()
        )
        assert [row.deliver_at for row in pending] == [datetime(2026, 5, 11, 15, 2, tzinfo=timezone.utc)]
    assert status_of(proposal) == "EXPIRED"
