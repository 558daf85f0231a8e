"""IOF on credit to individuals: flat part on the principal plus a daily part.

Daily part: ``daily`` × each installment's amortization × calendar days from
disbursement to its due date, days capped at ``max_days``. Rates come from a
table so a decree changing them only adds a row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, localcontext
from functools import lru_cache

from models.domain.calendar import due_dates
from models.domain.loan.price import Installment
from models.domain.money import WORKING_PRECISION, to_cents


@dataclass(frozen=True)
class IofRates:
    """IOF rates for individuals in force from ``effective_from``.

    Defaults: 0.38 % flat and 0.0082 % a day (Decreto 6.306/2007 as amended
    from 3 Jan 2008); verify against the current decree before production.
    """

    flat: Decimal = Decimal("0.0038")
    daily: Decimal = Decimal("0.000082")
    max_days: int = 365
    effective_from: date = date(2008, 1, 3)


def rates_in_force(rate_table: Iterable[IofRates], on: date) -> IofRates:
    """The row with the latest ``effective_from`` not after ``on``."""
    eligible = [rates for rates in rate_table if rates.effective_from <= on]
    if not eligible:
        raise ValueError(f"No IOF rates in force on {on.isoformat()}.")
    return max(eligible, key=lambda rates: rates.effective_from)


def iof_amount(schedule: list[Installment], disbursement_date: date, rates: IofRates) -> Decimal:
    """IOF of a schedule, rounded half up to the cent (parts summed unrounded)."""
    with localcontext() as ctx:
        ctx.prec = WORKING_PRECISION
        principal = sum((row.amortization for row in schedule), Decimal(0))
        weighted_days = sum(
            (
                row.amortization * min(max((row.due_date - disbursement_date).days, 0), rates.max_days)
                for row in schedule
            ),
            Decimal(0),
        )
        return to_cents(principal * rates.flat + weighted_days * rates.daily)


def price_iof_amount(
    principal: Decimal,
    monthly_rate: Decimal,
    n: int,
    first_due_date: date,
    disbursement_date: date,
    rates: IofRates,
) -> Decimal:
    """IOF of a Price loan on its exact (unrounded) amortizations; used by the gross-up.

    The rounded schedule's last row absorbs cents, which can make the IOF of
    the rounded rows *drop* a cent when the principal grows a cent; then some
    net amounts cannot be hit exactly. On exact amortizations IOF is linear in
    the principal, so the gross-up always lands on the requested net. The
    difference to :func:`iof_amount` of the rounded rows is at most a cent or
    two; contracts must carry the offer's IOF, not a recomputation.
    """
    principal, rate = Decimal(principal), Decimal(monthly_rate)
    powers, dues = discount_powers(rate, n), due_dates(first_due_date, n)
    with localcontext() as ctx:
        ctx.prec = WORKING_PRECISION
        growth = powers[-1] if n > 0 else (1 + rate) ** n
        payment = principal / n if rate == 0 else principal * rate * growth / (growth - 1)
        weighted_days = Decimal(0)
        for number in range(1, n + 1):
            amortization = payment if rate == 0 else payment / powers[n - number]  # (1 + rate) ** (n - number + 1)
            days = (dues[number - 1] - disbursement_date).days
            weighted_days += amortization * min(max(days, 0), rates.max_days)
        return to_cents(principal * rates.flat + weighted_days * rates.daily)


def discount_powers(rate: Decimal, n: int) -> tuple[Decimal, ...]:
    """``(1 + rate) ** j`` for j = 1..n at the working precision (the same values as computed inline)."""
    return _discount_powers(str(Decimal(rate)), n)


@lru_cache(maxsize=512)
def _discount_powers(rate_text: str, n: int) -> tuple[Decimal, ...]:
    base = Decimal(rate_text)
    with localcontext() as ctx:
        ctx.prec = WORKING_PRECISION
        return tuple((1 + base) ** j for j in range(1, n + 1))


def weighted_days_per_unit(
    rate: Decimal, n: int, first_due_date: date, disbursement_date: date, max_days: int
) -> Decimal:
    """``K`` such that the IOF-day sum of a principal P on exact amortizations is ``P·K``.

    Computed in the caller's context precision; :mod:`quote_solver` uses it for
    the closed form and lets the exact function settle near-half-cent cases.
    """
    dues = due_dates(first_due_date, n)
    days = [min(max((due - disbursement_date).days, 0), max_days) for due in dues]
    if rate == 0:
        return Decimal(sum(days)) / n
    powers = discount_powers(rate, n)
    first_amortization = rate * powers[-1] / (powers[-1] - 1)  # per unit of principal
    return sum((first_amortization / powers[n - number] * days[number - 1] for number in range(1, n + 1)), Decimal(0))
