"""Business days and every deadline of the flow, in São Paulo local time.

Business days exclude weekends, Brazilian national holidays, and from the
``holidays`` library's OPTIONAL category only Carnival (Monday and Tuesday) and
Corpus Christi: banks close on those. Other optional days (Ash Wednesday,
Public Servant's Day, 24 and 31 December) are business days because banks and
payment settlement work on them, even if with shorter hours.

Decisions on open points:

* Signature deadline: "21:00 on the next day" is read as the next *business*
  day, so a contract generated on Friday 20:59 expires Monday 21:00 (not
  Saturday) and the rule stays consistent with the after-21:00 row.
* Retry window: open while ``now <= failed_at + 96 h`` (the exact 96 h instant
  is still inside).
* Promotional re-analysis: allowed from exactly 20 h after the offer.
* SMS token: valid while ``now < expiry``; expired at the instant (offers
  follow the same edge, see ``offer_availability``).
* First due date: registered on or before ``cutoff_day`` of month M → payroll
  of M+1, otherwise M+2 (the note's cycle); due on ``due_day`` (default 5,
  clamped to month end) of that payroll month.
"""

from __future__ import annotations

import calendar as _stdlib_calendar
from datetime import date, datetime, time, timedelta
from functools import lru_cache

import holidays

from models.domain.clock import SAO_PAULO, to_local, to_utc

_BANK_CLOSED_OPTIONAL = ("Carnival", "Corpus Christi")
SIGNATURE_CUTOFF = time(21, 0)
SMS_TOKEN_TTL = timedelta(minutes=5)
RETRY_WINDOW = timedelta(hours=96)
PROMOTIONAL_MIN_AGE = timedelta(hours=20)
MAINTENANCE_START = (20, time(22, 0))
MAINTENANCE_END = (23, time(6, 0))


@lru_cache(maxsize=64)
def _bank_holidays(year: int) -> frozenset[date]:
    public = holidays.country_holidays("BR", years=year, categories=(holidays.PUBLIC,), language="en_US")
    optional = holidays.country_holidays("BR", years=year, categories=(holidays.OPTIONAL,), language="en_US")
    closed = {day for day, name in optional.items() if any(tag in name for tag in _BANK_CLOSED_OPTIONAL)}
    return frozenset(set(public) | closed)


def is_holiday(day: date) -> bool:
    """True on a national holiday or a bank-closed optional day (Carnival, Corpus Christi)."""
    return day in _bank_holidays(day.year)


def is_business_day(day: date) -> bool:
    """True on Monday to Friday when it is not a holiday."""
    return day.weekday() < 5 and not is_holiday(day)


def next_business_day(day: date) -> date:
    """First business day strictly after ``day``."""
    return add_business_days(day, 1)


def add_business_days(day: date, n: int) -> date:
    """Move ``n`` business days from ``day`` (n=0 returns ``day``; negative goes back)."""
    step = 1 if n >= 0 else -1
    remaining = abs(n)
    while remaining:
        day += timedelta(days=step)
        if is_business_day(day):
            remaining -= 1
    return day


def add_months(day: date, months: int, day_of_month: int | None = None) -> date:
    """Same day-of-month ``months`` later (or ``day_of_month``), clamped to month end."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    last = _stdlib_calendar.monthrange(year, month)[1]
    return date(year, month, min(day_of_month or day.day, last))


@lru_cache(maxsize=1024)
def due_dates(first_due_date: date, n: int) -> tuple[date, ...]:
    """Monthly due dates of an ``n``-installment loan: ``add_months(first_due_date, k)`` for k < n."""
    return tuple(add_months(first_due_date, number) for number in range(n))


def _local_instant(day: date, at: time) -> datetime:
    return to_utc(datetime.combine(day, at, tzinfo=SAO_PAULO))


def signature_deadline(generated_at: datetime) -> datetime:
    """Spec table: before 21:00 local, 21:00 on the next (calendar) day; at or after 21:00,
    21:00 two business days later. The spec says "next day" and "business days" in the two rows on
    purpose, so the first row is not moved over weekends or holidays."""
    local = to_local(generated_at)
    if local.time() < SIGNATURE_CUTOFF:
        return _local_instant(local.date() + timedelta(days=1), SIGNATURE_CUTOFF)
    return _local_instant(add_business_days(local.date(), 2), SIGNATURE_CUTOFF)


def sms_token_expiry(sent_at: datetime) -> datetime:
    """Instant the SMS token stops being accepted (sent + 5 minutes)."""
    return to_utc(sent_at) + SMS_TOKEN_TTL


def sms_token_valid(sent_at: datetime, now: datetime) -> bool:
    """True strictly before the 5-minute expiry."""
    return to_utc(now) < sms_token_expiry(sent_at)


def retry_window_open(failed_at: datetime, now: datetime, window: timedelta = RETRY_WINDOW) -> bool:
    """True while a failed analysis may be retried: up to and including failure + ``window``
    (the spec's 96 h unless configured otherwise, ``credit.retry_window_hours``)."""
    return to_utc(now) <= to_utc(failed_at) + window


def promotional_reanalysis_allowed(offer_created_at: datetime, now: datetime) -> bool:
    """True once the offer is at least 20 hours old."""
    return to_utc(now) - to_utc(offer_created_at) >= PROMOTIONAL_MIN_AGE


def disbursement_date(signed_at: datetime) -> date:
    """Expected disbursement: the business day after the local signing date."""
    return next_business_day(to_local(signed_at).date())


def in_payroll_maintenance_window(at: datetime) -> bool:
    """True from the 20th 22:00 local (inclusive) to the 23rd 06:00 local (exclusive)."""
    local = to_local(at)
    stamp = (local.day, local.time().replace(tzinfo=None))
    return MAINTENANCE_START <= stamp < MAINTENANCE_END


def payroll_maintenance_window_end(at: datetime) -> datetime:
    """End (23rd 06:00 local, as UTC) of the window containing ``at``, else of the next window."""
    local = to_local(at)
    this_month_end = _local_instant(date(local.year, local.month, 23), MAINTENANCE_END[1])
    if to_utc(at) < this_month_end:
        return this_month_end
    return _local_instant(add_months(local.date(), 1, 23), MAINTENANCE_END[1])


def first_due_date(registered_at: datetime, cutoff_day: int = 20, due_day: int = 5) -> date:
    """First installment date under the payroll cycle (see module docstring)."""
    registered = to_local(registered_at).date()
    months_ahead = 1 if registered.day <= cutoff_day else 2
    return add_months(registered, months_ahead, due_day)
