"""The sandbox test clock's pure rules: the bounds of an advance, a proposal's now, and how its
scheduled messages move (models/domain/sandbox_clock.py)."""

from datetime import datetime, timedelta, timezone

import pytest

from models.domain.sandbox_clock import (
    MAX_ADVANCE_SECONDS,
    MAX_OFFSET_SECONDS,
    advance_refusal,
    real_instant,
    rescheduled,
    shifted,
)

REAL_NOW = datetime(2026, 3, 10, 13, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("seconds", [1, 60, MAX_ADVANCE_SECONDS])
def test_an_advance_from_one_second_to_the_maximum_is_accepted(seconds):
    assert advance_refusal(0, seconds) is None


@pytest.mark.parametrize("seconds", [0, -1, MAX_ADVANCE_SECONDS + 1])
def test_an_advance_outside_its_range_is_refused(seconds):
    assert advance_refusal(0, seconds) == f"seconds must be an integer from 1 to {MAX_ADVANCE_SECONDS}"


def test_the_clock_may_reach_its_furthest_offset_but_not_pass_it():
    assert advance_refusal(MAX_OFFSET_SECONDS - 10, 10) is None
    assert "cannot run more than" in advance_refusal(MAX_OFFSET_SECONDS - 10, 11)


def test_a_proposals_now_is_the_real_instant_plus_its_offset():
    assert shifted(REAL_NOW, 0) == REAL_NOW
    assert shifted(REAL_NOW, 3600) == REAL_NOW + timedelta(hours=1)


def test_a_naive_real_instant_is_taken_as_utc():
    assert shifted(REAL_NOW.replace(tzinfo=None), 60) == REAL_NOW + timedelta(minutes=1)


def test_a_deadline_of_the_proposals_time_is_scheduled_at_its_real_instant():
    deadline = REAL_NOW + timedelta(days=2)
    assert real_instant(deadline, 0) == deadline
    assert real_instant(deadline, 86400) == REAL_NOW + timedelta(days=1)
    assert shifted(real_instant(deadline, 86400), 86400) == deadline


def test_a_scheduled_message_moves_earlier_by_the_advance():
    deliver_at = REAL_NOW + timedelta(hours=10)
    assert rescheduled(deliver_at, REAL_NOW, 3600) == REAL_NOW + timedelta(hours=9)


def test_a_message_whose_time_has_come_is_due_at_once_exactly_at_the_edge():
    deliver_at = REAL_NOW + timedelta(hours=10)
    assert rescheduled(deliver_at, REAL_NOW, 10 * 3600 - 1) == REAL_NOW + timedelta(seconds=1)
    assert rescheduled(deliver_at, REAL_NOW, 10 * 3600) == REAL_NOW
    assert rescheduled(deliver_at, REAL_NOW, 20 * 3600) == REAL_NOW  # never in the past
