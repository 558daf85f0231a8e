"""Age, fraud review and payroll maintenance window policies."""

from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from models.domain.policies import age_allowed, age_on, fraud_review_reason, payroll_window_end

WINDOW_END = datetime(2026, 3, 23, 9, 0, tzinfo=timezone.utc)  # the 23rd, 06:00 in Sao Paulo


@pytest.mark.parametrize("today,age", [(date(2026, 4, 11), 40), (date(2026, 4, 12), 41), (date(2026, 4, 13), 41)])
def test_age_counts_whole_years(today, age):
    assert age_on(date(1985, 4, 12), today) == age


def test_age_of_a_leap_day_birth():
    assert age_on(date(2008, 2, 29), date(2026, 2, 28)) == 17
    assert age_on(date(2008, 2, 29), date(2026, 3, 1)) == 18


@pytest.mark.parametrize(
    "today,allowed",
    [
        (date(2026, 4, 11), False),  # 17, the day before the 18th birthday
        (date(2026, 4, 12), True),  # 18 on the birthday
        (date(2084, 4, 11), True),  # 75, the day before the 76th birthday
        (date(2084, 4, 12), False),  # 76
    ],
)
def test_age_policy_edges(today, allowed):
    assert age_allowed(date(2008, 4, 12), today, min_age=18, max_age=75) is allowed


def _never_flagged():
    return False


def test_amount_above_the_limit_is_reviewed_without_asking_the_provider():
    asked = []
    reason = fraud_review_reason(Decimal("30000.01"), Decimal("30000.00"), lambda: asked.append(1) or False)
    assert (reason, asked) == ("amount above limit", [])


@pytest.mark.parametrize("amount", [Decimal("30000.00"), Decimal("100.00")])
def test_amount_at_or_below_the_limit_asks_the_provider(amount):
    assert fraud_review_reason(amount, Decimal("30000.00"), _never_flagged) is None
    assert fraud_review_reason(amount, Decimal("30000.00"), lambda: True) == "flagged"


@pytest.mark.parametrize(
    "instant,inside",
    [
        (datetime(2026, 3, 21, 0, 59, 59, tzinfo=timezone.utc), False),  # the 20th, 21:59:59 local
        (datetime(2026, 3, 21, 1, 0, 0, tzinfo=timezone.utc), True),  # the 20th, 22:00 local
        (datetime(2026, 3, 23, 8, 59, 59, tzinfo=timezone.utc), True),  # the 23rd, 05:59:59 local
        (datetime(2026, 3, 23, 9, 0, 0, tzinfo=timezone.utc), False),  # the 23rd, 06:00 local
    ],
)
def test_payroll_window_end_on_both_sides_of_each_edge(instant, inside):
    assert payroll_window_end(instant, enforced=True) == (WINDOW_END if inside else None)
    assert payroll_window_end(instant, enforced=False) is None
