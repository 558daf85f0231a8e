"""Gross-up: the financed principal that leaves the customer exactly the net amount.

IOF, TAC and (for the insured offer) the insurance premium are financed, so
``financed = net + IOF(financed) + TAC + premium(financed)``. IOF depends on
the schedule of the financed amount itself, hence the search below.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from models.domain.errors import ValidationFailed
from models.domain.iof import IofRates, iof_amount
from models.domain.money import CENT, ZERO, to_cents
from models.domain.price import Installment, amortization_schedule

_MAX_STEPS = 10_000


@dataclass(frozen=True)
class FinancedAmounts:
    """Everything derived from one financed principal."""

    financed_amount: Decimal
    net_amount: Decimal
    iof_amount: Decimal
    tac_amount: Decimal
    insurance_amount: Decimal
    installment_amount: Decimal
    total_amount: Decimal
    schedule: tuple[Installment, ...]

    @property
    def max_installment(self) -> Decimal:
        """Largest payment of the schedule (the last row may carry rounding cents)."""
        return max(row.installment for row in self.schedule)

    @property
    def interest_amount(self) -> Decimal:
        """Total interest paid over the schedule."""
        return self.total_amount - self.financed_amount


def finance(
    financed: Decimal, monthly_rate: Decimal, n: int, disbursement_date: date, first_due_date: date,
    iof_rates: IofRates, tac: Decimal, insurance_rate: Decimal = ZERO,
) -> FinancedAmounts:
    """Charges and net amount of a given financed principal."""
    financed = to_cents(financed)
    schedule = tuple(amortization_schedule(financed, monthly_rate, n, first_due_date))
    iof = iof_amount(list(schedule), disbursement_date, iof_rates)
    premium = to_cents(financed * Decimal(insurance_rate))
    tac = to_cents(tac)
    return FinancedAmounts(
        financed_amount=financed,
        net_amount=financed - iof - tac - premium,
        iof_amount=iof,
        tac_amount=tac,
        insurance_amount=premium,
        installment_amount=schedule[0].installment,
        total_amount=sum((row.installment for row in schedule), ZERO),
        schedule=schedule,
    )


def gross_up(
    net_amount: Decimal, monthly_rate: Decimal, n: int, disbursement_date: date, first_due_date: date,
    iof_rates: IofRates, tac: Decimal, insurance_rate: Decimal = ZERO,
) -> FinancedAmounts:
    """Solve the financed principal whose net amount equals ``net_amount`` to the cent.

    Fixed-point iteration lands on or next to the answer; then we walk cent by
    cent. Charges grow by at most one cent per cent of principal (rates well
    below 100 %), so the gap shrinks by at most a cent per step and cannot
    jump over zero: the walk always ends on an exact match.
    """
    net_amount = to_cents(net_amount)
    if net_amount <= 0:
        raise ValidationFailed("Loan amount must be positive.", details={"field": "loan_amount"})

    def quote(financed: Decimal) -> FinancedAmounts:
        return finance(financed, monthly_rate, n, disbursement_date, first_due_date, iof_rates, tac, insurance_rate)

    financed = net_amount + to_cents(tac)
    for _ in range(50):
        gap = net_amount - quote(financed).net_amount
        if gap == 0:
            return quote(financed)
        if abs(gap) <= CENT:
            break
        financed += gap
    for _ in range(_MAX_STEPS):
        current = quote(financed)
        gap = net_amount - current.net_amount
        if gap == 0:
            return current
        financed += CENT if gap > 0 else -CENT
    raise ArithmeticError(f"gross-up did not converge for net {net_amount}")  # pragma: no cover
