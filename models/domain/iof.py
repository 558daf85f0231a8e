"""IOF on credit to individuals: flat part on the principal plus a daily part.

Daily part: ``daily`` × each installment's amortization × calendar days from
disbursement to its due date, days capped at ``max_days``. Rates come from a
table so a decree changing them only adds a row.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, localcontext
from typing import Iterable

from models.domain.money import WORKING_PRECISION, to_cents
from models.domain.price import Installment


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
            (row.amortization * min(max((row.due_date - disbursement_date).days, 0), rates.max_days) for row in schedule),
            Decimal(0),
        )
        return to_cents(principal * rates.flat + weighted_days * rates.daily)
