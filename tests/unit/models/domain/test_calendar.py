"""Business days and deadlines; edges checked on both sides in frozen time."""

from datetime import date, datetime, timedelta, timezone

import pytest
from freezegun import freeze_time

from models.domain import calendar as cal
from models.domain.clock import SAO_PAULO, now


def local(*args) -> datetime:
    return datetime(*args, tzinfo=SAO_PAULO)


def frozen_local(*args):
    """freeze_time at a São Paulo wall-clock instant (freezegun takes UTC)."""
    return freeze_time(local(*args).astimezone(timezone.utc))


@pytest.mark.parametrize(
    "day",
    [
        date(2026, 2, 16),
        date(2026, 2, 17),
        date(2026, 4, 3),
        date(2026, 6, 4),
        date(2026, 11, 20),
        date(2026, 12, 25),
        date(2027, 1, 1),
        date(2027, 2, 8),
        date(2027, 2, 9),
        date(2027, 3, 26),
        date(2027, 5, 27),
        date(2027, 4, 21),
    ],
)
def test_bank_holidays_pinned_for_2026_and_2027(day):
    assert cal.is_holiday(day) and not cal.is_business_day(day)


@pytest.mark.parametrize(
    "day",
    [
        date(2026, 2, 18),
        date(2027, 2, 10),  # Ash Wednesday: banks open at noon
        date(2026, 10, 28),
        date(2026, 12, 24),
        date(2026, 12, 31),  # optional days banks work
        date(2026, 3, 10),
    ],
)
def test_optional_days_banks_work_are_business_days(day):
    assert cal.is_business_day(day)


def test_weekend_is_not_business_day():
    assert not cal.is_business_day(date(2026, 3, 14)) and not cal.is_business_day(date(2026, 3, 15))


def test_next_and_add_business_days():
    assert cal.next_business_day(date(2026, 3, 13)) == date(2026, 3, 16)
    assert cal.next_business_day(date(2026, 2, 13)) == date(2026, 2, 18)
    assert cal.add_business_days(date(2026, 12, 30), 2) == date(2027, 1, 4)
    assert cal.add_business_days(date(2026, 3, 10), 0) == date(2026, 3, 10)
    assert cal.add_business_days(date(2026, 2, 18), -1) == date(2026, 2, 13)


def test_add_months_clamps_to_month_end():
    assert cal.add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert cal.add_months(date(2027, 12, 31), 2) == date(2028, 2, 29)
    assert cal.add_months(date(2026, 11, 15), 3, 5) == date(2027, 2, 5)


@pytest.mark.parametrize(
    "generated, deadline",
    [
        ((2026, 3, 10, 20, 59, 59), (2026, 3, 11)),  # Tuesday, before 21:00
        ((2026, 3, 10, 21, 0, 0), (2026, 3, 12)),  # Tuesday, at 21:00 -> two business days
        ((2026, 3, 13, 20, 59, 59), (2026, 3, 14)),  # Friday before 21:00 -> Saturday (calendar day)
        ((2026, 3, 13, 21, 0, 0), (2026, 3, 17)),  # Friday night -> Tuesday (two business days)
        ((2026, 3, 14, 10, 0, 0), (2026, 3, 15)),  # Saturday morning -> Sunday
        ((2026, 3, 14, 21, 0, 0), (2026, 3, 17)),  # Saturday night -> Tuesday
        ((2026, 2, 13, 20, 59, 59), (2026, 2, 14)),  # Friday before Carnival -> Saturday
        ((2026, 2, 13, 21, 0, 0), (2026, 2, 19)),  # ... at 21:00 -> Ash Wednesday is the 1st, Thursday the 2nd
        ((2026, 12, 30, 20, 59, 59), (2026, 12, 31)),
        ((2026, 12, 31, 20, 59, 59), (2027, 1, 1)),  # New Year's Eve -> New Year's Day, 21:00
        ((2026, 12, 31, 21, 0, 0), (2027, 1, 5)),  # -> 4 Jan (Mon), 5 Jan (Tue)
        ((2026, 6, 3, 21, 0, 0), (2026, 6, 8)),  # Corpus Christi Thursday, Friday, then Monday
    ],
)
def test_signature_deadline(generated, deadline):
    with frozen_local(*generated):
        result = cal.signature_deadline(now())
    assert result == local(*deadline, 21, 0).astimezone(timezone.utc)
    assert result.tzinfo == timezone.utc


@pytest.mark.parametrize("seconds_after, valid", [(299, True), (299.999, True), (300, False), (301, False)])
def test_sms_token_five_minute_edge(seconds_after, valid):
    with freeze_time("2026-12-31 23:58:00"):
        sent = now()
    assert cal.sms_token_expiry(sent) == datetime(2027, 1, 1, 0, 3, tzinfo=timezone.utc)
    with freeze_time(sent + timedelta(seconds=seconds_after)):
        assert cal.sms_token_valid(sent, now()) is valid


@pytest.mark.parametrize(
    "delta, open_",
    [
        (timedelta(hours=95, minutes=59, seconds=59), True),
        (timedelta(hours=96), True),
        (timedelta(hours=96, seconds=1), False),
    ],
)
def test_retry_window_96_hours_inclusive(delta, open_):
    failed = datetime(2026, 2, 26, 12, 0, tzinfo=timezone.utc)  # crosses February's end
    with freeze_time(failed + delta):
        assert cal.retry_window_open(failed, now()) is open_


@pytest.mark.parametrize(
    "delta, allowed",
    [
        (timedelta(hours=19, minutes=59, seconds=59), False),
        (timedelta(hours=20), True),
        (timedelta(hours=21), True),
    ],
)
def test_promotional_reanalysis_20_hours(delta, allowed):
    offer = datetime(2026, 12, 31, 10, 0, tzinfo=timezone.utc)
    with freeze_time(offer + delta):
        assert cal.promotional_reanalysis_allowed(offer, now()) is allowed


@pytest.mark.parametrize(
    "signed, expected",
    [
        ((2026, 3, 10, 23, 59, 59), date(2026, 3, 11)),  # local date decides, not UTC (already the 11th in UTC)
        ((2026, 3, 13, 9, 0, 0), date(2026, 3, 16)),
        ((2026, 2, 13, 18, 0, 0), date(2026, 2, 18)),
        ((2026, 12, 31, 12, 0, 0), date(2027, 1, 4)),
    ],
)
def test_disbursement_date_is_next_business_day_local(signed, expected):
    with frozen_local(*signed):
        assert cal.disbursement_date(now()) == expected


@pytest.mark.parametrize(
    "moment, inside",
    [
        ((2026, 2, 20, 21, 59, 59), False),
        ((2026, 2, 20, 22, 0, 0), True),
        ((2026, 2, 21, 12, 0, 0), True),
        ((2026, 2, 22, 23, 59, 59), True),
        ((2026, 2, 23, 5, 59, 59), True),
        ((2026, 2, 23, 6, 0, 0), False),
        ((2026, 12, 20, 21, 59, 59), False),
        ((2026, 12, 20, 22, 0, 0), True),
        ((2026, 12, 23, 5, 59, 59), True),
        ((2026, 12, 23, 6, 0, 0), False),
        ((2026, 12, 19, 23, 0, 0), False),
        ((2026, 12, 24, 0, 0, 0), False),
    ],
)
def test_payroll_maintenance_window_edges(moment, inside):
    with frozen_local(*moment):
        assert cal.in_payroll_maintenance_window(now()) is inside


def test_maintenance_window_end():
    end_feb = local(2026, 2, 23, 6, 0).astimezone(timezone.utc)
    assert cal.payroll_maintenance_window_end(local(2026, 2, 20, 22, 0)) == end_feb
    assert cal.payroll_maintenance_window_end(local(2026, 2, 23, 5, 59, 59)) == end_feb
    assert cal.payroll_maintenance_window_end(local(2026, 2, 10, 8, 0)) == end_feb
    assert cal.payroll_maintenance_window_end(local(2026, 12, 23, 6, 0)) == local(2027, 1, 23, 6, 0).astimezone(
        timezone.utc
    )


@pytest.mark.parametrize(
    "registered, expected",
    [
        ((2026, 2, 20, 23, 59, 59), date(2026, 3, 5)),
        ((2026, 2, 21, 0, 0, 0), date(2026, 4, 5)),
        ((2026, 11, 21, 9, 0, 0), date(2027, 1, 5)),
        ((2026, 12, 20, 9, 0, 0), date(2027, 1, 5)),
        ((2026, 12, 31, 22, 0, 0), date(2027, 2, 5)),  # already 2027 in UTC; local date counts
    ],
)
def test_first_due_date_payroll_cycle(registered, expected):
    with frozen_local(*registered):
        assert cal.first_due_date(now()) == expected


def test_first_due_date_parameters():
    at = local(2026, 1, 10, 12, 0)
    assert cal.first_due_date(at, cutoff_day=5, due_day=31) == date(2026, 3, 31)
    assert cal.first_due_date(at, cutoff_day=15, due_day=31) == date(2026, 2, 28)
