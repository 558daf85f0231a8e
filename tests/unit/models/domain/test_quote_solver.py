"""TermMath gives exactly finance()'s figures, on its fast paths and on its fallbacks; CET stops early exactly."""

import random
from datetime import date
from decimal import Decimal

import pytest

from models.domain.errors import ValidationFailed
from models.domain.loan import cet as cet_module
from models.domain.loan import quote_solver
from models.domain.loan.financing import finance, gross_up
from models.domain.loan.iof import IofRates
from models.domain.loan.quote_solver import TermMath

D = Decimal
RATES = [D("0.0199"), D("0.019900"), D("0.01875"), D("0.06"), D("0.00"), D("0"), D("1E-2"), D("0.016666666666666666")]


def _random_terms(seed, count=300):
    rng = random.Random(seed)
    for _ in range(count):
        rate = rng.choice([*RATES, D(rng.randint(100, 600)) / 10000])
        n = rng.choice([1, 2, 6, 12, 48, 96, 120])
        args = (
            rate,
            n,
            date(2026, rng.randint(1, 12), rng.randint(1, 28)),
            date(2027, rng.randint(1, 12), rng.randint(1, 28)),
            rng.choice([IofRates(), IofRates(daily=D("0.0000559"), max_days=180)]),
            rng.choice([D("0"), D("50.00")]),
            rng.choice([D("0"), D("0.035")]),
        )
        yield args, D(rng.randint(-300, 30_000_000)) / 100


@pytest.mark.parametrize("seed", range(3))
def test_net_amount_and_installments_equal_finance(seed):
    for args, financed in _random_terms(seed):
        quote, math = finance(financed, *args), TermMath(*args)
        assert (math.net_amount(financed), math.max_installment(financed), math.first_installment(financed)) == (
            quote.net_amount,
            quote.max_installment,
            quote.installment_amount,
        ), (args, financed)


def test_near_half_cent_iof_is_settled_by_the_exact_function(monkeypatch):
    calls = []
    exact = quote_solver.price_iof_amount
    monkeypatch.setattr(quote_solver, "price_iof_amount", lambda *a: calls.append(a) or exact(*a))
    monkeypatch.setattr(quote_solver, "_NEAR_HALF_CENT", D("0.5"))  # every value counts as "near" now
    for args, financed in _random_terms(7, count=60):
        assert TermMath(*args).net_amount(financed) == finance(financed, *args).net_amount
    assert len(calls) == 60


def test_inexact_decimal_rows_fall_back_to_decimal_arithmetic():
    rate = D("0.0199000000000000000000000001")  # 27 digits: balance x rate is rounded by the context
    args = (rate, 96, date(2026, 3, 11), date(2026, 4, 5), IofRates(), D("0"), D("0"))
    for financed in (D("1234.56"), D("98765.43"), D("150000.00")):
        assert TermMath(*args).max_installment(financed) == finance(financed, *args).max_installment


def test_solve_financed_lands_where_gross_up_does_and_rejects_non_positive_amounts():
    args = (D("0.0199"), 84, date(2026, 3, 11), date(2026, 4, 5), IofRates(), D("50.00"), D("0.035"))
    math = TermMath(*args)
    assert math.solve_financed(D("5000.00")) == gross_up(D("5000.00"), *args).financed_amount
    assert math.net_amount(math.solve_financed(D("5000.00"))) == D("5000.00")
    with pytest.raises(ValidationFailed) as caught:
        math.solve_financed(D("0.004"))
    assert (caught.value.message, caught.value.details) == ("Loan amount must be positive.", {"field": "loan_amount"})


def test_zero_installments_is_the_schedule_validation_error():
    with pytest.raises(ValidationFailed) as caught:
        TermMath(D("0.02"), 0, date(2026, 3, 11), date(2026, 4, 5), IofRates(), D("0"), D("0"))
    assert caught.value.details == {"field": "installments"}


def _bisection_200_steps(fc0, flows):
    """The CET solver before the early stop, kept as the reference."""

    def excess(rate):
        return sum(amount / (1 + rate) ** years for years, amount in flows) - fc0

    low, high = -0.99, 1.0
    while excess(high) > 0:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def test_cet_bisection_stops_early_on_the_same_float():
    rng = random.Random(11)
    for _ in range(300):
        n, amount = rng.randint(1, 96), round(rng.uniform(30, 5000), 2)
        flows = [((rng.randint(1, 60) + 30.4 * k) / 365, amount) for k in range(n)]
        fc0 = amount * n / rng.uniform(1.0, 3.5)
        assert repr(cet_module._solve_annual(fc0, flows)) == repr(_bisection_200_steps(fc0, flows))
