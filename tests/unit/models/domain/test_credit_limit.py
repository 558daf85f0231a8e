"""The granted credit limit and what is left of it."""

from decimal import Decimal

import pytest

from models.domain.credit_limit import available_amount, granted_limit

D = Decimal


@pytest.mark.parametrize(
    "standard,promotional_limit,promotional,expected",
    [
        (D("50000.00"), D("60000.00"), True, D("60000.00")),
        (D("50000.00"), D("60000.00"), False, D("50000.00")),
        (D("50000.00"), None, True, D("50000.00")),  # promotional analysis without a promotional limit
        (None, None, False, None),
        (None, D("60000.00"), False, None),
    ],
)
def test_granted_limit(standard, promotional_limit, promotional, expected):
    assert granted_limit(standard, promotional_limit, promotional) == expected


@pytest.mark.parametrize(
    "limit,disbursed,expected",
    [
        (D("10000.00"), None, D("10000.00")),
        (D("10000.00"), D("2500.50"), D("7499.50")),
        (D("10000.00"), D("10000.00"), D("0.00")),
        (D("10000.00"), D("10000.01"), D("0.00")),  # never below zero
        (None, None, D("0.00")),  # no limit recorded counts as zero
        (D("10000.004"), D("0"), D("10000.00")),  # to the cent
    ],
)
def test_available_amount(limit, disbursed, expected):
    amount = available_amount(limit, disbursed)
    assert amount == expected and amount.as_tuple().exponent == -2
