"""Fast, exact answers for the quote searches: net amount and largest installment of a principal.

``finance`` builds a whole schedule and the IOF for one principal; the gross-up
and largest-quote searches only need two numbers of it, dozens of times, for
the same rate, term and dates. ``TermMath`` computes them from per-term
factors built once:

* largest installment: the same Decimal operations as ``amortization_schedule``
  (cached growth factor, no dates, no row objects), so the same value;
* net amount: IOF on exact amortizations is linear in the principal,
  ``P·(flat + daily·K)``, with ``K`` fixed by rate, term and dates. The closed
  form decides the rounding to the cent; only when it lies within 1e-20 of a
  half cent (both computations agree to ~1e-30) does the exact
  ``price_iof_amount`` decide. The premium uses finance's own expression.

So every value equals what ``finance`` would give, and ``solve_financed`` walks
exactly the path of the original gross-up and lands on the same principal.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_FLOOR, Decimal, getcontext, localcontext
from functools import lru_cache
from typing import cast

from models.domain.errors import ValidationFailed
from models.domain.loan.iof import IofRates, discount_powers, price_iof_amount, weighted_days_per_unit
from models.domain.money import CENT, WORKING_PRECISION, to_cents

_MAX_STEPS = 10_000
_FIXED_POINT_STEPS = 50
_HALF = Decimal("0.5")
_NEAR_HALF_CENT = Decimal("1e-18")  # in cents; the two computations differ by < 1e-25 cents
_CLOSED_FORM_PRECISION = 60


class TermMath:
    """Per-term factors of one (rate, n, dates, IOF rates, TAC, insurance rate)."""

    def __init__(
        self,
        rate: Decimal,
        n: int,
        disbursement_date: date,
        first_due_date: date,
        iof_rates: IofRates,
        tac: Decimal,
        insurance_rate: Decimal,
    ) -> None:
        if n <= 0:
            raise ValidationFailed("Installments must be positive.", details={"field": "installments"})
        self.rate, self.n = Decimal(rate), n
        self._dates = (disbursement_date, first_due_date)
        self.iof_rates = iof_rates
        self.tac = to_cents(tac)
        self.insurance_rate = Decimal(insurance_rate)
        sign, digits, exponent = self.rate.as_tuple()
        # as_tuple() types the exponent as int or "n"/"N"/"F" (NaN, infinity); a rate is finite.
        self._rate_parts = ((-1 if sign else 1) * int("".join(map(str, digits))), cast(int, exponent))
        self._growth = discount_powers(self.rate, n)[-1] if self.rate != 0 else None
        with localcontext() as ctx:
            ctx.prec = WORKING_PRECISION
            self._growth_less_one = self._growth - 1 if self._growth is not None else None
            ctx.prec = _CLOSED_FORM_PRECISION
            per_unit = weighted_days_per_unit(self.rate, n, first_due_date, disbursement_date, iof_rates.max_days)
            self._iof_factor = iof_rates.flat + per_unit * iof_rates.daily

    def installment(self, financed: Decimal) -> Decimal:
        """``price_installment(financed, rate, n)`` with the growth factor computed once."""
        with localcontext() as ctx:
            ctx.prec = WORKING_PRECISION
            if self._growth is None or self._growth_less_one is None:  # both None at a zero rate
                return to_cents(financed / self.n)
            return to_cents(financed * self.rate * self._growth / self._growth_less_one)

    def max_installment(self, financed: Decimal) -> Decimal:
        """Largest payment of ``amortization_schedule(financed, ...)``: the rounded PMT or the last row.

        Rows run on integer cents: while ``balance × rate`` is exact in the
        Decimal context (it always is for real amounts), ``to_cents`` of it is
        the half-up integer quotient below; otherwise the Decimal rows decide.
        """
        financed = to_cents(financed)
        payment = self.installment(financed)
        coefficient, exponent = self._rate_parts
        if coefficient < 0 or exponent >= 0:
            return self._max_installment_decimal(financed, payment)
        limit = 10 ** (getcontext().prec - 2) // max(coefficient, 1)
        unit = 10**-exponent
        twice, double_unit = 2 * coefficient, 2 * unit
        balance, pay = int(financed.scaleb(2)), int(payment.scaleb(2))
        for _ in range(self.n):
            if not 0 <= balance < limit:  # a negative balance rounds away from zero: leave it to Decimal
                return self._max_installment_decimal(financed, payment)
            interest = (balance * twice + unit) // double_unit  # round half up of balance × rate, in cents
            last, balance = balance + interest, balance - (pay - interest)
        last = Decimal(last).scaleb(-2)  # the last row pays its balance plus interest
        return last if self.n == 1 else max(payment, last)

    def first_installment(self, financed: Decimal) -> Decimal:
        """``finance(financed, ...).installment_amount``: the PMT, or the only row's payment."""
        return self.installment(to_cents(financed)) if self.n > 1 else self.max_installment(financed)

    def _max_installment_decimal(self, financed: Decimal, payment: Decimal) -> Decimal:
        rate, balance = self.rate, financed
        for _ in range(self.n - 1):  # same operations (and context) as the schedule's rows
            balance -= payment - to_cents(balance * rate)
        last = balance + to_cents(balance * rate)
        return last if self.n == 1 else max(payment, last)

    def iof(self, financed: Decimal) -> Decimal:
        """``price_iof_amount`` of ``financed``: closed form unless it is too close to a half cent."""
        with localcontext() as ctx:
            ctx.prec = _CLOSED_FORM_PRECISION
            cents = financed * self._iof_factor * 100
            fraction = cents - cents.to_integral_value(rounding=ROUND_FLOOR)
            if abs(fraction - _HALF) > _NEAR_HALF_CENT:
                return to_cents(cents / 100)
        disbursement_date, first_due_date = self._dates
        return price_iof_amount(financed, self.rate, self.n, first_due_date, disbursement_date, self.iof_rates)

    def net_amount(self, financed: Decimal) -> Decimal:
        """``finance(financed, ...).net_amount`` (value)."""
        financed = to_cents(financed)
        return financed - self.iof(financed) - self.tac - to_cents(financed * self.insurance_rate)

    def solve_financed(self, net_amount: Decimal) -> Decimal:
        """The principal ``gross_up(net_amount, ...)`` settles on, by the very same walk."""
        net_amount = to_cents(net_amount)
        if net_amount <= 0:
            raise ValidationFailed("Loan amount must be positive.", details={"field": "loan_amount"})
        financed = net_amount + self.tac
        for _ in range(_FIXED_POINT_STEPS):  # fixed point: lands on or next to the answer
            gap = net_amount - self.net_amount(financed)
            if gap == 0:
                return financed
            if abs(gap) <= CENT:
                break
            financed += gap
        for _ in range(_MAX_STEPS):  # then cent by cent
            gap = net_amount - self.net_amount(financed)
            if gap == 0:
                return financed
            financed += CENT if gap > 0 else -CENT
        raise ArithmeticError(f"gross-up did not converge for net {net_amount}")  # pragma: no cover


@lru_cache(maxsize=1024)
def term_math(
    rate: Decimal,
    n: int,
    disbursement_date: date,
    first_due_date: date,
    iof_rates: IofRates,
    tac: Decimal,
    insurance_rate: Decimal,
) -> TermMath:
    """Shared ``TermMath`` (immutable once built); offers and simulations reuse the same few terms."""
    return TermMath(rate, n, disbursement_date, first_due_date, iof_rates, tac, insurance_rate)
