"""Every non-final status has an exit, due at the instant its rule names and not one instant before."""

from datetime import datetime, timedelta, timezone

import pytest

from models.domain.status_deadlines import (
    INSTANT,
    NO_DEADLINE,
    Exit,
    FailedAnalysis,
    LifecycleLimits,
    ProposalFacts,
    Reason,
    deadline,
    due_exit,
)
from models.domain.status_machine import TRANSITIONS, Trigger
from models.domain.statuses import FINAL_STATUSES, REPORT_ONLY_STATUSES, Status

S = Status
T0 = datetime(2026, 3, 10, 13, 0, tzinfo=timezone.utc)
LIMITS = LifecycleLimits(
    idle_before_analysis=timedelta(days=30),
    analysis_stall=timedelta(minutes=60),
    retry_window=timedelta(hours=96),
    retry_limit=3,
    generation_watchdog=timedelta(seconds=180),
)
RETRYABLE = FailedAnalysis(failed_at=T0, retryable=True, consent_saved=True, retries_used=0)


def facts(status, **kwargs):
    return ProposalFacts(status=status, status_since=T0, **kwargs)


def full_facts(status):
    """Facts with every optional field known (what a real proposal in ``status`` has)."""
    return facts(
        status,
        offers_valid_until=T0 + timedelta(days=7),
        failure=RETRYABLE,
        auto_retry_at=T0 + timedelta(minutes=2),
        signature_expires_at=T0 + timedelta(days=1),
    )


def assert_edge(proposal, at, exit_, reason):
    """Not due one instant before ``at``; due at ``at``, with ``exit_`` and ``reason``."""
    assert due_exit(proposal, LIMITS, at - INSTANT) is None
    due = due_exit(proposal, LIMITS, at)
    assert (due.exit, due.at, due.reason) == (exit_, at, reason)


@pytest.mark.parametrize("status", list(Status), ids=str)
def test_every_status_that_can_stall_has_an_exit(status):
    found = deadline(full_facts(status), LIMITS)
    if status in FINAL_STATUSES or status in REPORT_ONLY_STATUSES or status in NO_DEADLINE:
        assert found is None
    else:
        assert found is not None, f"{status} could stall forever"


@pytest.mark.parametrize("status", list(Status), ids=str)
def test_an_expire_exit_is_a_move_the_state_machine_allows(status):
    found = deadline(full_facts(status), LIMITS)
    if found is not None and found.exit is Exit.EXPIRE:
        assert status in TRANSITIONS[Trigger.PROPOSAL_EXPIRED].sources


def test_the_money_path_and_a_disbursed_proposal_have_no_deadline():
    # A signed contract is never expired: endorsement and payment carry it on (or fail it).
    assert set(NO_DEADLINE) == {S.SIGNED, S.PENDING_ANALYSIS, S.ANALYSIS_APPROVED, S.ERROR, S.DISBURSED}


@pytest.mark.parametrize("status", [S.CREATED, S.TOKEN_SENT, S.TOKEN_VALIDATED])
def test_the_early_funnel_expires_after_the_idle_limit(status):
    assert_edge(facts(status), T0 + timedelta(days=30), Exit.EXPIRE, Reason.IDLE)


def test_an_analysis_in_progress_past_the_stall_limit_fails():
    assert_edge(
        facts(S.CREDIT_ANALYSIS_IN_PROGRESS),
        T0 + timedelta(minutes=60),
        Exit.FAIL_STALLED_ANALYSIS,
        Reason.ANALYSIS_STALLED,
    )


def test_an_automatic_retry_not_run_by_its_time_plus_the_stall_limit_is_run_again():
    retry_at = T0 + timedelta(hours=50)  # e.g. the end of the payroll maintenance window
    proposal = facts(S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY, auto_retry_at=retry_at)
    assert_edge(proposal, retry_at + timedelta(minutes=60), Exit.RUN_AUTO_RETRY, Reason.AUTO_RETRY_OVERDUE)


def test_a_retryable_failure_expires_the_first_instant_after_the_retry_window():
    # The retry route still accepts a retry at failure + 96 h exactly (calendar.retry_window_open).
    assert_edge(
        facts(S.CREDIT_ANALYSIS_FAILED, failure=RETRYABLE),
        T0 + timedelta(hours=96) + INSTANT,
        Exit.EXPIRE,
        Reason.RETRY_WINDOW_LAPSED,
    )


@pytest.mark.parametrize(
    "failure,reason",
    [
        (FailedAnalysis(T0, retryable=False, consent_saved=True, retries_used=0), Reason.NOT_RETRYABLE),  # CRA-INT-001
        (FailedAnalysis(T0, retryable=True, consent_saved=False, retries_used=0), Reason.NO_CONSENT),
        (FailedAnalysis(T0, retryable=True, consent_saved=True, retries_used=3), Reason.RETRY_LIMIT_REACHED),
        (None, Reason.NOT_RETRYABLE),
    ],
)
def test_a_failure_the_retry_route_cannot_take_expires_at_once(failure, reason):
    assert_edge(facts(S.CREDIT_ANALYSIS_FAILED, failure=failure), T0, Exit.EXPIRE, reason)


def test_one_retry_left_keeps_the_failure_alive_until_the_window_lapses():
    failure = FailedAnalysis(T0, retryable=True, consent_saved=True, retries_used=2)
    found = deadline(facts(S.CREDIT_ANALYSIS_FAILED, failure=failure), LIMITS)
    assert (found.at, found.reason) == (T0 + timedelta(hours=96) + INSTANT, Reason.RETRY_WINDOW_LAPSED)


@pytest.mark.parametrize(
    "status", [S.CREDIT_CHECK_COMPLETED, S.OFFERS_RECEIVED, S.OFFER_SELECTED, S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED]
)
def test_the_offer_stage_expires_when_its_last_selectable_offer_does(status):
    until = T0 + timedelta(days=7)
    assert_edge(facts(status, offers_valid_until=until), until, Exit.EXPIRE, Reason.OFFERS_LAPSED)


def test_the_offer_stage_without_a_selectable_offer_expires_at_once():
    assert_edge(facts(S.OFFERS_RECEIVED), T0, Exit.EXPIRE, Reason.OFFERS_LAPSED)


def test_a_generation_past_the_watchdog_is_failed_back_to_bank_data():
    assert_edge(
        facts(S.CONTRACT_GENERATION_IN_PROGRESS),
        T0 + timedelta(seconds=180),
        Exit.FAIL_CONTRACT_GENERATION,
        Reason.GENERATION_OVERDUE,
    )


@pytest.mark.parametrize("status", [S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE])
def test_an_unsigned_contract_expires_at_its_signature_deadline(status):
    expires = T0 + timedelta(days=1, hours=8)
    assert_edge(facts(status, signature_expires_at=expires), expires, Exit.EXPIRE_SIGNATURE, Reason.SIGNATURE_DEADLINE)


def test_naive_instants_are_read_as_utc():
    naive = ProposalFacts(status=S.CREATED, status_since=T0.replace(tzinfo=None))
    assert deadline(naive, LIMITS).at == T0 + timedelta(days=30)
