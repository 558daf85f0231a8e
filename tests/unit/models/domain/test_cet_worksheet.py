"""CET worksheet: components of the amount financed and their shares, and the flows of the CET."""

from datetime import date
from decimal import Decimal

from models.domain.loan.cet import cet
from models.domain.loan.cet_worksheet import cet_flows, financed_components

D = Decimal


def test_shares_add_up_to_exactly_100_and_stay_within_a_hundredth_of_the_exact_value():
    # Given components whose shares each round half up to a total of 100.01
    parts = {"released": D("1.00"), "iof": D("1.00"), "tac": D("1.00")}

    # When the worksheet is built
    shares = financed_components(parts)

    # Then the largest remainders get the hundredths missing after cutting down: 33.34 + 33.33 + 33.33
    assert [c.share_percent for c in shares] == [D("33.34"), D("33.33"), D("33.33")]
    assert sum(c.share_percent for c in shares) == D("100.00")


def test_amounts_add_up_to_the_amount_financed_and_zero_components_stay_zero():
    parts = {"released": D("27920.53"), "iof": D("903.01"), "tac": D("0.00"), "insurance": D("0.00")}
    shares = financed_components(parts)
    assert sum(c.amount for c in shares) == D("28823.54")
    assert [(c.name, c.share_percent) for c in shares] == [
        ("released", D("96.87")),
        ("iof", D("3.13")),
        ("tac", D("0.00")),
        ("insurance", D("0.00")),
    ]
    for c in shares:
        assert abs(c.share_percent - c.amount * 100 / D("28823.54")) < D("0.01")


def test_flows_start_with_the_release_and_count_calendar_days():
    flows = cet_flows(date(2026, 3, 11), D("940"), [(date(2026, 4, 11), D("205.73")), (date(2026, 5, 11), D("205.73"))])
    assert [(f.number, f.when, f.days, f.amount) for f in flows] == [
        (0, date(2026, 3, 11), 0, D("940.00")),
        (1, date(2026, 4, 11), 31, D("205.73")),
        (2, date(2026, 5, 11), 61, D("205.73")),
    ]


def test_the_flows_are_what_the_cet_is_solved_from():
    # The Banco Central FAQ example: FC0 940, 5 x 205.73 monthly (monthly basis) -> 3.08% a.m.
    flows = cet_flows(date(2026, 1, 10), D("940"), [(date(2026, m, 10), D("205.73")) for m in range(2, 7)])
    result = cet(flows[0].amount, [(f.when, f.amount) for f in flows[1:]], flows[0].when, basis="monthly")
    assert (result.monthly, result.annual) == (D("3.08"), D("43.93"))
