"""CET (Custo Efetivo Total), Resolução CMN 4.881/2020 arts. 4 and 7.

Art. 4: FC0 = Σ FCj / (1 + CET)^((dj − d0)/365), calendar days over 365,
annual rate. The monthly figure is the equivalent (1 + annual)^(1/12) − 1.

``basis="monthly"`` counts whole calendar months as twelfths of a year; that
is the convention of the Banco Central FAQ example (FC0 940, 5 × 205.73 →
3.08 % a month, 43.93 % a year) and is kept to reproduce it. Offers use the
regulatory ``"calendar"`` basis.

The rate is solved in binary floating point: it is a ratio reported to
0.01 %, many orders of magnitude coarser than double precision; money stays
Decimal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from models.domain.money import percent, to_cents

_ITERATIONS = 200


@dataclass(frozen=True)
class CetResult:
    """CET as percentages with two decimals, plus the art. 7 breakdown."""

    annual: Decimal
    monthly: Decimal
    breakdown: list[dict] = field(default_factory=list)


def _year_fraction(release: date, when: date, basis: str) -> float:
    if basis == "calendar":
        return (when - release).days / 365
    if basis == "monthly":
        return ((when.year - release.year) * 12 + when.month - release.month) / 12
    raise ValueError(f"unknown CET basis {basis!r}")


def _solve_annual(fc0: float, flows: list[tuple[float, float]]) -> float:
    def excess(rate: float) -> float:
        base = 1 + rate
        present: float = sum([amount / base**years for years, amount in flows])
        return present - fc0

    low, high = -0.99, 1.0
    while excess(high) > 0:  # widen until the present value falls below FC0
        high *= 2
        if high > 1e9:
            raise ArithmeticError("CET does not converge")
    for _ in range(_ITERATIONS):
        middle = (low + high) / 2
        bracket = (middle, high) if excess(middle) > 0 else (low, middle)
        # Each step is a function of (low, high) alone: once a step changes nothing (the bracket is two
        # adjacent floats, after ~55 steps), the remaining ones would not either, so stop there.
        if bracket == (low, high):
            break
        low, high = bracket
    return (low + high) / 2


def cet(
    fc0: Decimal,
    flows: list[tuple[date, Decimal]],
    release_date: date,
    *,
    basis: str = "calendar",
    components: Mapping[str, Decimal] | None = None,
) -> CetResult:
    """Solve the CET of a loan releasing ``fc0`` on ``release_date`` and repaid by ``flows``."""
    timed = [(_year_fraction(release_date, when, basis), float(amount)) for when, amount in flows]
    annual = _solve_annual(float(fc0), timed)
    monthly = (1 + annual) ** (1 / 12) - 1
    return CetResult(
        annual=percent(Decimal(repr(annual))),
        monthly=percent(Decimal(repr(monthly))),
        breakdown=cost_breakdown(components) if components else [],
    )


def cost_breakdown(components: Mapping[str, Decimal]) -> list[dict]:
    """Art. 7: each component in reais and as a percentage of their total (two decimals)."""
    amounts = {name: to_cents(amount) for name, amount in components.items()}
    total = sum(amounts.values(), Decimal(0))
    return [
        {"component": name, "amount": amount, "percent": percent(amount / total) if total else Decimal("0.00")}
        for name, amount in amounts.items()
    ]
