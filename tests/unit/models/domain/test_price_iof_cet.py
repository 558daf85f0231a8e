"""Golden numbers and independent re-computations for Price, IOF, gross-up and CET."""

import random
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

import pytest

from models.domain.calendar import add_months
from models.domain.errors import ValidationFailed
from models.domain.loan.cet import cet, cost_breakdown
from models.domain.loan.financing import gross_up
from models.domain.loan.iof import IofRates, iof_amount, price_iof_amount, rates_in_force
from models.domain.loan.price import amortization_schedule, annual_rate, price_installment

D = Decimal


def cents(x) -> Decimal:
    return D(x).quantize(D("0.01"), ROUND_HALF_UP)


def irr_by_bisection(fc0, flows, years_of):
    """Independent annual IRR: Σ FCj/(1+r)^t = FC0, solved by bisection."""
    low, high = -0.9, 10.0
    for _ in range(300):
        mid = (low + high) / 2
        value = sum(float(a) / (1 + mid) ** years_of(d) for d, a in flows) - float(fc0)
        low, high = (mid, high) if value > 0 else (low, mid)
    return mid


def test_price_golden_5000_at_2_percent_over_10():
    assert price_installment(D("5000"), D("0.02"), 10) == D("556.63")


def test_price_zero_rate_and_invalid_term():
    assert price_installment(D("1000"), D("0"), 3) == D("333.33")
    with pytest.raises(ValidationFailed):
        price_installment(D("1000"), D("0.02"), 0)


@pytest.mark.parametrize("seed", range(30))
def test_price_matches_float_formula(seed):
    rng = random.Random(seed)
    p, i, n = rng.randint(300, 80000), rng.randint(50, 600) / 10000, rng.randint(1, 96)
    expected = cents(repr(p * i / (1 - (1 + i) ** -n)))
    assert price_installment(D(p), D(repr(i)), n) == expected


def test_schedule_golden_rows_and_last_row_absorbs_rounding():
    rows = amortization_schedule(D("5000"), D("0.02"), 10, date(2026, 1, 31))
    assert (rows[0].interest, rows[0].amortization, rows[0].balance) == (D("100.00"), D("456.63"), D("4543.37"))
    assert [r.due_date for r in rows[:3]] == [date(2026, 1, 31), date(2026, 2, 28), date(2026, 3, 31)]
    assert rows[-1].balance == D("0.00") and rows[-1].installment == D("556.67")
    assert sum(r.amortization for r in rows) == D("5000.00")
    assert all(r.installment == r.interest + r.amortization for r in rows)


@pytest.mark.parametrize("seed", range(20))
def test_schedule_invariants(seed):
    rng = random.Random(seed)
    p, n = cents(rng.uniform(300, 60000)), rng.randint(1, 96)
    rate = D(rng.randint(80, 450)) / 10000
    rows = amortization_schedule(p, rate, n, date(2026, 12, 31))
    assert len(rows) == n and rows[-1].balance == 0 and sum(r.amortization for r in rows) == p
    assert all(r.installment == rows[0].installment for r in rows[:-1])
    # Rounding the installment and each month's interest errs by <= one cent a
    # month; that error compounds at the loan rate, so the last row absorbs at most:
    drift = D("0.01") * ((1 + rate) ** n - 1) / rate + D("0.01")
    assert abs(rows[-1].installment - rows[0].installment) <= drift


def test_annual_rate():
    assert cents(annual_rate(D("0.02")) * 100) == D("26.82")
    assert annual_rate(D("0")) == 0


def test_iof_by_hand_single_installment():
    rows = amortization_schedule(D("1000"), D("0"), 1, date(2026, 4, 10))
    # 0.38% of 1000 + 0.0082% x 1000 x 30 days = 3.80 + 2.46
    assert iof_amount(rows, date(2026, 3, 11), IofRates()) == D("6.26")


def test_iof_daily_days_capped_at_365():
    rows = amortization_schedule(D("1000"), D("0"), 1, date(2028, 3, 11))
    assert iof_amount(rows, date(2026, 3, 11), IofRates()) == cents(D("3.80") + D("1000") * D("0.000082") * 365)


@pytest.mark.parametrize("seed", range(10))
def test_iof_matches_independent_sum(seed):
    rng = random.Random(seed)
    rows = amortization_schedule(cents(rng.uniform(500, 40000)), D("0.0199"), rng.randint(6, 96), date(2026, 5, 5))
    start = date(2026, 3, 20)
    expected = D("0.0038") * sum(r.amortization for r in rows) + sum(
        r.amortization * D("0.000082") * min((r.due_date - start).days, 365) for r in rows
    )
    assert iof_amount(rows, start, IofRates()) == cents(expected)


def test_rates_in_force_picks_latest_effective():
    old, new = IofRates(), IofRates(flat=D("0.0095"), effective_from=date(2025, 6, 1))
    assert rates_in_force([old, new], date(2025, 5, 31)) is old
    assert rates_in_force([new, old], date(2025, 6, 1)) is new
    with pytest.raises(ValueError):
        rates_in_force([new], date(2020, 1, 1))


@pytest.mark.parametrize("seed", range(200))
def test_gross_up_net_received_equals_requested_to_the_cent(seed):
    rng = random.Random(seed)
    net = cents(rng.uniform(300, 90000))
    rate, n = D(rng.randint(100, 450)) / 10000, rng.choice([6, 12, 24, 36, 48, 60, 72, 84, 96])
    tac, insurance = cents(rng.choice([0, 50, 150, 399.9])), rng.choice([D(0), D("0.02"), D("0.035")])
    result = gross_up(net, rate, n, date(2026, 3, 11), date(2026, 4, 5), IofRates(), tac, insurance)
    assert result.net_amount == net
    assert result.financed_amount == net + result.iof_amount + result.tac_amount + result.insurance_amount
    assert result.insurance_amount == cents(result.financed_amount * insurance)
    assert result.iof_amount == price_iof_amount(
        result.financed_amount, rate, n, date(2026, 4, 5), date(2026, 3, 11), IofRates()
    )
    # The rounded rows give the same IOF up to the cents the last row absorbs.
    assert abs(result.iof_amount - iof_amount(list(result.schedule), date(2026, 3, 11), IofRates())) <= D("0.02")


def test_gross_up_rejects_non_positive():
    with pytest.raises(ValidationFailed) as caught:
        gross_up(D("0"), D("0.02"), 12, date(2026, 3, 11), date(2026, 4, 5), IofRates(), D("0"))
    assert caught.value.details["field"] == "loan_amount"


def _monthly_flows(start, n, amount):
    return [(add_months(start, k), D(amount)) for k in range(1, n + 1)]


def test_cet_golden_bcb_example():
    flows = _monthly_flows(date(2026, 3, 10), 5, "205.73")
    result = cet(D("940"), flows, date(2026, 3, 10), basis="monthly")
    assert (result.monthly, result.annual) == (D("3.08"), D("43.93"))


@pytest.mark.parametrize("start", [date(2026, 3, 10), date(2026, 1, 31), date(2026, 12, 15)])
def test_cet_calendar_basis_matches_independent_irr(start):
    flows = _monthly_flows(start, 5, "205.73")
    annual = irr_by_bisection(940, flows, lambda d: (d - start).days / 365)
    result = cet(D("940"), flows, start)
    assert result.annual == cents(repr(annual * 100))
    assert result.monthly == cents(repr(((1 + annual) ** (1 / 12) - 1) * 100))


@pytest.mark.parametrize("seed", range(10))
def test_cet_of_a_financed_loan_matches_independent_irr(seed):
    rng = random.Random(seed)
    net, n = cents(rng.uniform(1000, 30000)), rng.choice([12, 36, 96])
    quote = gross_up(net, D("0.0199"), n, date(2026, 3, 11), date(2026, 4, 5), IofRates(), D("50"))
    flows = [(r.due_date, r.installment) for r in quote.schedule]
    annual = irr_by_bisection(net, flows, lambda d: (d - date(2026, 3, 11)).days / 365)
    assert cet(net, flows, date(2026, 3, 11)).annual == cents(repr(annual * 100))
    assert cet(net, flows, date(2026, 3, 11)).annual > cents(annual_rate(D("0.0199")) * 100) - 1


def test_cost_breakdown_amounts_and_percent_of_total():
    rows = cost_breakdown({"principal": D("1000"), "interest": D("28.65"), "tac": D("50"), "iof": D("10")})
    assert [r["component"] for r in rows] == ["principal", "interest", "tac", "iof"]
    total = D("1088.65")
    assert [r["percent"] for r in rows] == [cents(r["amount"] / total * 100) for r in rows]
    assert rows[2]["amount"] == D("50.00")
    result = cet(
        D("940"),
        _monthly_flows(date(2026, 3, 10), 5, "205.73"),
        date(2026, 3, 10),
        basis="monthly",
        components={"tac": D("50"), "iof": D("10")},
    )
    assert result.breakdown[0] == {"component": "tac", "amount": D("50.00"), "percent": D("83.33")}


def test_price_iof_equals_schedule_iof_without_rounding_effects():
    rows = amortization_schedule(D("1200"), D("0"), 12, date(2026, 4, 10))
    assert price_iof_amount(D("1200"), D("0"), 12, date(2026, 4, 10), date(2026, 3, 11), IofRates()) == iof_amount(
        rows, date(2026, 3, 11), IofRates()
    )
