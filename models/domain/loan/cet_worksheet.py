"""The CET worksheet printed with the contract (Resolução CMN 4.881/2020): what the amount financed
is made of, each part in reais and as a share of the amount financed, and the cash flows the CET
is computed from.

The amount financed is the sum of its components (the amount released to the borrower plus the
financed IOF, TAC and insurance premium), so the amounts add up to the cent by construction. Each
share is rounded to hundredths of a percent by the largest-remainder method: every share is first
cut down to two decimals and the hundredths still missing to reach exactly 100.00 go, one each, to
the components with the largest cut-off remainders (ties to the larger amount, then the earlier
component). Every printed share is thus within 0.01 percentage point of its exact value and the
column always adds up to 100.00.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, Decimal

from models.domain.money import to_cents

HUNDREDTH = Decimal("0.01")
WHOLE = Decimal("100.00")


@dataclass(frozen=True)
class Component:
    """One part of the amount financed."""

    name: str
    amount: Decimal
    share_percent: Decimal


@dataclass(frozen=True)
class Flow:
    """One cash flow of the CET equation: number 0 is the release, then each installment."""

    number: int
    when: date
    days: int  # calendar days from the release date
    amount: Decimal


def financed_components(components: Mapping[str, Decimal]) -> list[Component]:
    """``components`` (in order) with their shares of the amount financed (their sum)."""
    amounts = {name: to_cents(amount) for name, amount in components.items()}
    total = sum(amounts.values(), Decimal(0))
    if total <= 0:
        return [Component(name, amount, Decimal("0.00")) for name, amount in amounts.items()]
    exact = {name: amount * 100 / total for name, amount in amounts.items()}
    shares = {name: value.quantize(HUNDREDTH, rounding=ROUND_DOWN) for name, value in exact.items()}
    missing = int((WHOLE - sum(shares.values(), Decimal(0))) / HUNDREDTH)
    order = list(amounts)
    by_remainder = sorted(order, key=lambda name: (-(exact[name] - shares[name]), -amounts[name], order.index(name)))
    for name in by_remainder[:missing]:
        shares[name] += HUNDREDTH
    return [Component(name, amounts[name], shares[name]) for name in order]


def cet_flows(release_date: date, released: Decimal, payments: Iterable[tuple[date, Decimal]]) -> list[Flow]:
    """FC0 (the amount released on ``release_date``) followed by every payment, with its day count."""
    flows = [Flow(0, release_date, 0, to_cents(released))]
    for number, (when, amount) in enumerate(payments, start=1):
        flows.append(Flow(number, when, (when - release_date).days, to_cents(amount)))
    return flows
