"""The money path's step rule and its re-drive backoff, at the edges (frozen time)."""

from datetime import datetime, timedelta, timezone

import freezegun
import pytest

from models.domain.clock import now
from models.domain.money_path import (
    RedrivePolicy,
    Step,
    StepFacts,
    alarming,
    next_attempt_at,
    overdue,
    redrive_delay,
    step_for,
    stuck,
)
from models.domain.statuses import Status

S = Status
POLICY = RedrivePolicy(first_seconds=30, max_seconds=7200, alert_after_attempts=5)
T = datetime(2026, 3, 10, 15, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("facts", "step"),
    [
        (StepFacts(S.CONTRACT_GENERATION_IN_PROGRESS), Step.GENERATE),
        (StepFacts(S.AWAITING_SIGNATURE), None),  # the customer still has to sign: not our work
        (StepFacts(S.AWAITING_SIGNATURE, signature_result_received=True), Step.SIGNATURE_RESULT),
        (StepFacts(S.CONTRACT_GENERATED, signature_result_received=True), Step.SIGNATURE_RESULT),
        (StepFacts(S.SIGNED), Step.ROUTE),
        (StepFacts(S.SIGNED, routed_to_endorsement=True), Step.ENDORSE),
        (StepFacts(S.SIGNED, routed_to_endorsement=True, endorsed=True), Step.DISBURSE),
        (StepFacts(S.PENDING_ANALYSIS), Step.FRAUD),
        (StepFacts(S.ANALYSIS_APPROVED), Step.ENDORSE),
        (StepFacts(S.ANALYSIS_APPROVED, endorsed=True), Step.DISBURSE),
        (StepFacts(S.ERROR), Step.ENDORSE),
        (StepFacts(S.ERROR, endorsed=True), Step.DISBURSE),
        (StepFacts(S.DISBURSED, endorsed=True), None),
        (StepFacts(S.DISBURSEMENT_FAILED, endorsed=True), None),
        (StepFacts(S.ANALYSIS_REPROVED), None),
        (StepFacts(S.CANCELED), None),
        (StepFacts(S.EXPIRED, signature_result_received=True), None),
        (StepFacts(S.BANK_DATA_SUBMITTED), None),
    ],
)
def test_the_step_follows_the_facts(facts, step):
    assert step_for(facts) is step


def test_the_backoff_starts_at_first_and_doubles():
    assert [redrive_delay(n, POLICY).total_seconds() for n in range(5)] == [30, 60, 120, 240, 480]


def test_the_backoff_reaches_the_cap_and_stays_there():
    # 30 * 2**7 = 3840 < 7200 <= 30 * 2**8 = 7680
    assert redrive_delay(7, POLICY) == timedelta(seconds=3840)
    assert redrive_delay(8, POLICY) == timedelta(seconds=7200)
    assert redrive_delay(1000, POLICY) == timedelta(seconds=7200)


def test_a_negative_count_is_refused():
    with pytest.raises(ValueError):
        redrive_delay(-1, POLICY)


def test_the_next_attempt_is_due_at_its_instant_not_a_microsecond_before():
    due = next_attempt_at(T, 0, POLICY)
    assert due == T + timedelta(seconds=30)
    with freezegun.freeze_time(due - timedelta(microseconds=1)):
        assert not overdue(due, now())
    with freezegun.freeze_time(due):
        assert overdue(due, now())


def test_stuck_once_re_driven_or_overdue():
    due = T + timedelta(seconds=30)
    assert not stuck(0, due, due - timedelta(microseconds=1))
    assert stuck(0, due, due)
    assert stuck(1, due + timedelta(hours=1), due)


def test_the_alert_starts_at_the_configured_count():
    assert not alarming(4, POLICY)
    assert alarming(5, POLICY) and alarming(6, POLICY)
