"""The customer's credit limit: which limit an analysis granted and how much of it is left.

The credit engine answers a limit (``pod_limit_max``) and, for the promotional re-analysis, a
promotional one. Offers are capped by the granted limit, and the available-loan-amount route
subtracts from it what was disbursed since; both read it from here so they never disagree.
"""

from __future__ import annotations

from decimal import Decimal

from models.domain.money import ZERO, to_cents


def granted_limit(
    pod_limit_max: Decimal | None, promotional_pod_limit_max: Decimal | None, promotional: bool
) -> Decimal | None:
    """The analysis's limit: the promotional one under a promotional analysis that recorded it,
    else the standard one; None when the engine gave no limit."""
    if promotional and promotional_pod_limit_max is not None:
        return Decimal(promotional_pod_limit_max)
    return Decimal(pod_limit_max) if pod_limit_max is not None else None


def available_amount(limit: Decimal | None, disbursed: Decimal | None) -> Decimal:
    """What is left to borrow: the limit (none counts as zero) minus what was disbursed, to the
    cent and never below zero."""
    remaining = Decimal(limit if limit is not None else ZERO) - Decimal(disbursed or ZERO)
    return to_cents(max(remaining, ZERO))
