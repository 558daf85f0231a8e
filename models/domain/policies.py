"""Credit and operations policies whose limits come from settings: customer age, fraud review,
and the payroll maintenance window; and the one fixed by the product, bank validation.

The limits are passed in (the services read them from settings), so each decision is a pure
function of its inputs and the same everywhere it is taken.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal

from models.domain import calendar

# The spec's ``bank_skip`` ("whether bank validation can be skipped"), fixed by the product: never.
# Every disbursement destination is validated (authorised bank list, Pix directory, the account or
# key belonging to the proposal's CPF), because the spec refuses third-party accounts and keys and
# money moves once; no partner is exempt, so the analysis bodies always answer false.
BANK_VALIDATION_SKIPPABLE = False

AMOUNT_ABOVE_LIMIT = "amount above limit"
FLAGGED = "flagged"


def age_on(birth_date: date, today: date) -> int:
    """Whole years of age on ``today`` (the birthday itself counts)."""
    return today.year - birth_date.year - ((today.month, today.day) < (birth_date.month, birth_date.day))


def age_allowed(birth_date: date, today: date, min_age: int, max_age: int) -> bool:
    """Credit policy: the customer's whole-year age on ``today`` is within [min_age, max_age]."""
    return min_age <= age_on(birth_date, today) <= max_age


def fraud_review_reason(amount: Decimal, review_above: Decimal, flagged: Callable[[], bool]) -> str | None:
    """Why a signed contract goes to fraud analysis, or None when it goes straight to endorsement.

    A net amount strictly above ``review_above`` always goes; below it, the provider's attention
    flag decides. ``flagged`` is only called when the amount alone does not decide, so the
    provider is not asked about a case that is reviewed anyway.
    """
    if Decimal(amount) > Decimal(review_above):
        return AMOUNT_ABOVE_LIMIT
    return FLAGGED if flagged() else None


def payroll_window_end(at: datetime, *, enforced: bool) -> datetime | None:
    """When the payroll system is back if ``at`` falls in its monthly maintenance window, else None.

    Inside the window (20th 22:00 to 23rd 06:00, São Paulo) neither margin queries nor endorsements
    can reach the payroll system; the caller defers its work to the returned instant. Environments
    that do not enforce the window (the sandbox, so partners can walk the flow any day) get None.
    """
    if not enforced or not calendar.in_payroll_maintenance_window(at):
        return None
    return calendar.payroll_maintenance_window_end(at)
