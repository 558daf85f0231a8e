"""Price (French) amortization: fixed installments, interest on the open balance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal, localcontext

from models.domain.calendar import due_dates
from models.domain.errors import ValidationFailed
from models.domain.money import WORKING_PRECISION, to_cents


@dataclass(frozen=True)
class Installment:
    """One row of the schedule; ``balance`` is what remains after this payment."""

    number: int
    due_date: date
    installment: Decimal
    interest: Decimal
    amortization: Decimal
    balance: Decimal


def price_installment(principal: Decimal, monthly_rate: Decimal, n: int) -> Decimal:
    """PMT = PV·i / (1 − (1+i)^−n), rounded half up to the cent (PV/n when i = 0)."""
    if n <= 0:
        raise ValidationFailed("Installments must be positive.", details={"field": "installments"})
    principal, rate = Decimal(principal), Decimal(monthly_rate)
    with localcontext() as ctx:
        ctx.prec = WORKING_PRECISION
        if rate == 0:
            return to_cents(principal / n)
        growth = (1 + rate) ** n
        return to_cents(principal * rate * growth / (growth - 1))


def present_value(installment: Decimal, monthly_rate: Decimal, n: int) -> Decimal:
    """Unrounded principal that a fixed ``installment`` repays over ``n`` months."""
    installment, rate = Decimal(installment), Decimal(monthly_rate)
    with localcontext() as ctx:
        ctx.prec = WORKING_PRECISION
        if rate == 0:
            return installment * n
        return installment * (1 - (1 + rate) ** -n) / rate


def amortization_schedule(principal: Decimal, monthly_rate: Decimal, n: int, first_due_date: date) -> list[Installment]:
    """Monthly Price schedule; the last row absorbs rounding so the balance ends at 0.00.

    Due dates keep the first due date's day of month, clamped to shorter months.
    """
    principal, rate = to_cents(principal), Decimal(monthly_rate)
    payment = price_installment(principal, rate, n)
    balance = principal
    dues = due_dates(first_due_date, n)
    rows: list[Installment] = []
    for number in range(1, n + 1):
        interest = to_cents(balance * rate)
        if number == n:
            amortization = balance
            payment = amortization + interest
        else:
            amortization = payment - interest
        balance -= amortization
        rows.append(Installment(number, dues[number - 1], payment, interest, amortization, balance))
    return rows


def annual_rate(monthly: Decimal) -> Decimal:
    """Equivalent compound annual rate: (1 + i)^12 − 1 (unrounded)."""
    with localcontext() as ctx:
        ctx.prec = WORKING_PRECISION
        return (1 + Decimal(monthly)) ** 12 - 1
