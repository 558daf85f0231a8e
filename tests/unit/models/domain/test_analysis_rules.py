"""When an analysis may run again: the promotional re-analysis, the manual retry, and its kind."""

from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from models.domain.analysis_rules import (
    analysis_kind,
    automatic_retry_allowed,
    promotional_eligible,
    retryable_failure,
)
from models.domain.clock import now
from models.domain.statuses import OFFERS_READY_STATUSES, Status

APPROVED_AT = datetime(2026, 5, 11, 15, 0, tzinfo=timezone.utc)
TWENTY_HOURS_LATER = APPROVED_AT + timedelta(hours=20)


@pytest.mark.parametrize(
    "instant,eligible", [(TWENTY_HOURS_LATER - timedelta(seconds=1), False), (TWENTY_HOURS_LATER, True)]
)
@pytest.mark.parametrize("status", sorted(OFFERS_READY_STATUSES))
def test_promotional_from_exactly_20_hours_after_approval(status, instant, eligible):
    with freeze_time(instant):
        assert promotional_eligible(status, "APPROVED", APPROVED_AT, now()) is eligible


@pytest.mark.parametrize("status", [Status.OFFER_SELECTED, Status.PRE_ACCEPTED, Status.TOKEN_VALIDATED])
def test_promotional_only_while_offers_are_ready_and_unchosen(status):
    assert not promotional_eligible(status, "APPROVED", APPROVED_AT, TWENTY_HOURS_LATER)


@pytest.mark.parametrize(
    "outcome,approved_at", [("REJECTED", None), ("APPROVED", None), (None, None), ("FAILED", APPROVED_AT)]
)
def test_promotional_needs_an_approved_previous_analysis(outcome, approved_at):
    assert not promotional_eligible("OFFERS_RECEIVED", outcome, approved_at, TWENTY_HOURS_LATER)


def test_kind_of_a_new_analysis():
    assert analysis_kind(promotional=True, has_previous=True) == "promotional"
    assert analysis_kind(promotional=False, has_previous=True) == "reanalysis"
    assert analysis_kind(promotional=False, has_previous=False) == "initial"


@pytest.mark.parametrize(
    "status,outcome,retryable,expected",
    [
        ("CREDIT_ANALYSIS_FAILED", "FAILED", True, True),
        ("CREDIT_ANALYSIS_FAILED", "FAILED", False, False),  # e.g. an internal error
        ("CREDIT_ANALYSIS_FAILED", "REJECTED", True, False),
        ("REJECTED", "FAILED", True, False),
        ("OFFERS_RECEIVED", "APPROVED", None, False),
    ],
)
def test_only_a_retryable_technical_failure_is_retried(status, outcome, retryable, expected):
    assert retryable_failure(status, outcome, retryable) is expected


# --- the automatic payroll retry is bounded by a count and by the window from the first failure ---

_FIRST = datetime(2026, 3, 10, 13, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("retries_done,allowed", [(4, True), (5, False)])
def test_automatic_retries_stop_at_the_limit(retries_done, allowed):
    retry_at = _FIRST + timedelta(minutes=10)
    assert automatic_retry_allowed(retries_done, _FIRST, retry_at, limit=5, window=timedelta(hours=96)) is allowed


@pytest.mark.parametrize("offset,allowed", [(timedelta(0), True), (timedelta(microseconds=1), False)])
def test_an_automatic_retry_must_fall_within_the_window_of_the_first_failure(offset, allowed):
    retry_at = _FIRST + timedelta(hours=96) + offset
    assert automatic_retry_allowed(0, _FIRST, retry_at, limit=5, window=timedelta(hours=96)) is allowed
