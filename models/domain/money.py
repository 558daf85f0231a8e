"""Money helpers: amounts are Decimal, rounded half-up to the cent."""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# Intermediate precision: 96 compounding periods need far more than 28 digits' margin.
WORKING_PRECISION = 40


def to_cents(amount: Decimal | int | str) -> Decimal:
    """Round to the cent, half up (the rule for every amount shown to a customer)."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP)


def floor_cents(amount: Decimal | int | str) -> Decimal:
    """Truncate to the cent; used for caps that must never be exceeded."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_DOWN)


def percent(ratio: Decimal, places: str = "0.01") -> Decimal:
    """A ratio (0.0199) as a percentage rounded half up (1.99)."""
    return (Decimal(ratio) * 100).quantize(Decimal(places), rounding=ROUND_HALF_UP)
