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
from models.domain.loan.iof import IofRates, price_iof_amount
from models.domain.loan.price import Installment, amortization_schedule
from models.domain.loan.quote_solver import term_math
from models.domain.money import ZERO, to_cents


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
    financed: Decimal,
    monthly_rate: Decimal,
    n: int,
    disbursement_date: date,
    first_due_date: date,
    iof_rates: IofRates,
    tac: Decimal,
    insurance_rate: Decimal = ZERO,
) -> FinancedAmounts:
    """Charges and net amount of a given financed principal."""
    financed = to_cents(financed)
    schedule = tuple(amortization_schedule(financed, monthly_rate, n, first_due_date))
    iof = price_iof_amount(financed, monthly_rate, n, first_due_date, disbursement_date, iof_rates)
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
    net_amount: Decimal,
    monthly_rate: Decimal,
    n: int,
    disbursement_date: date,
    first_due_date: date,
    iof_rates: IofRates,
    tac: Decimal,
    insurance_rate: Decimal = ZERO,
) -> FinancedAmounts:
    """Solve the financed principal whose net amount equals ``net_amount`` to the cent.

    Fixed-point iteration lands on or next to the answer; then we walk cent by
    cent. IOF (on exact amortizations) and the premium are rounded linear
    functions of the principal, so the net amount moves by at most a cent per
    cent of principal and trends upward: the walk cannot jump over the target
    and always ends on an exact match. The walk runs on
    :class:`~models.domain.loan.quote_solver.TermMath` (exact net amounts without
    building schedules); only the principal it settles on is financed in full.
    """
    if to_cents(net_amount) <= 0:
        raise ValidationFailed("Loan amount must be positive.", details={"field": "loan_amount"})
    math = term_math(
        Decimal(monthly_rate), n, disbursement_date, first_due_date, iof_rates, tac, Decimal(insurance_rate)
    )
    financed = math.solve_financed(net_amount)
    return finance(financed, monthly_rate, n, disbursement_date, first_due_date, iof_rates, tac, insurance_rate)
