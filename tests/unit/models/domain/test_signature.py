import itertools

import pytest

from models.domain.signature import (
    AUTHENTICATION_RESULT_POSITIVE,
    LIVENESS_RESULT_LIVE,
    PROCESS_RESULT_OK,
    TRUST_RESULT_YES,
    SignatureStatus,
    signature_valid,
)

GOOD = (PROCESS_RESULT_OK, AUTHENTICATION_RESULT_POSITIVE, LIVENESS_RESULT_LIVE, "TRUST_RESULT_NO")
BAD = ("PROCESS_RESULT_ERROR", "AUTHENTICATION_RESULT_NEGATIVE", "LIVENESS_RESULT_SPOOF", TRUST_RESULT_YES)


def test_all_four_checks_pass():
    assert signature_valid(*GOOD)
    assert signature_valid(*GOOD[:3], None)  # no anti-fraud verdict is not a fraud flag


@pytest.mark.parametrize("failing", [m for r in range(1, 5) for m in itertools.combinations(range(4), r)])
def test_any_failing_check_invalidates(failing):
    values = [BAD[i] if i in failing else GOOD[i] for i in range(4)]
    assert not signature_valid(*values)


@pytest.mark.parametrize("index", range(3))
def test_missing_positive_result_invalidates(index):
    values = list(GOOD)
    values[index] = None
    assert not signature_valid(*values)


def test_signature_status_values():
    assert [s.value for s in SignatureStatus] == ["PENDING", "IN_PROGRESS", "SIGNED", "EXPIRED", "REJECTED"]


def test_a_result_counts_when_it_reached_us_before_the_deadline():
    from datetime import datetime, timedelta, timezone

    from models.domain.clock import isoformat_z, parse_instant
    from models.domain.signature import arrived_in_time

    deadline = datetime(2026, 3, 11, 0, 0, tzinfo=timezone.utc)
    assert arrived_in_time(deadline - timedelta(milliseconds=1), deadline)
    assert not arrived_in_time(deadline, deadline)
    assert arrived_in_time(deadline + timedelta(days=9), None)  # no deadline set
    assert parse_instant(isoformat_z(deadline - timedelta(milliseconds=1))) == deadline - timedelta(milliseconds=1)
