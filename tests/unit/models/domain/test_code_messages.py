"""When a verification-code message counts as lost (models/domain/code_messages.py)."""

from datetime import datetime, timedelta, timezone

import pytest

from models.domain import code_messages

SENT_AT = datetime(2026, 5, 11, 15, 0, tzinfo=timezone.utc)
STEP = timedelta(microseconds=1)


@pytest.mark.parametrize(
    "status,after,lost",
    [
        ("QUEUED", timedelta(seconds=60) - STEP, False),
        ("QUEUED", timedelta(seconds=60), True),
        ("QUEUED", timedelta(hours=2), True),
        ("SENT", timedelta(hours=2), False),
        ("FAILED", timedelta(hours=2), False),
    ],
)
def test_only_a_message_without_outcome_past_the_wait_is_lost(status, after, lost):
    assert code_messages.is_lost(status, SENT_AT, SENT_AT + after, 60) is lost


@pytest.mark.parametrize("wait", [0, -1])
def test_a_wait_of_zero_or_less_turns_the_rule_off(wait):
    assert code_messages.is_lost("QUEUED", SENT_AT, SENT_AT + timedelta(days=30), wait) is False


def test_lost_before_is_the_instant_the_wait_began():
    assert code_messages.lost_before(SENT_AT, 60) == SENT_AT - timedelta(seconds=60)
