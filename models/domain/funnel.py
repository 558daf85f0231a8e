"""The conversion funnel of the statistics route: its steps and the step each status implies.

A proposal counts for every step up to the furthest one its current status implies: a REJECTED
proposal reached the analysis, a CANCELED one a generated contract, a CANCELLED_BY_USER one the
disbursement. EXPIRED implies no step by itself (it may follow almost any status); the caller reads
the status it expired from. The steps follow the spec's happy path.
"""

from __future__ import annotations

from models.domain.statuses import Status as S

FUNNEL_STEPS = (
    "CREATED",
    "TOKEN_VALIDATED",
    "CREDIT_ANALYSIS",
    "OFFERS_RECEIVED",
    "PRE_ACCEPTED",
    "BANK_DATA_SUBMITTED",
    "CONTRACT_GENERATED",
    "SIGNED",
    "DISBURSED",
)
_REACHED = {
    0: (S.CREATED, S.TOKEN_SENT),
    1: (S.TOKEN_VALIDATED,),
    2: (S.CREDIT_ANALYSIS_IN_PROGRESS, S.CREDIT_ANALYSIS_FAILED, S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY, S.REJECTED),
    3: (S.CREDIT_CHECK_COMPLETED, S.OFFERS_RECEIVED, S.OFFER_SELECTED),
    4: (S.PRE_ACCEPTED,),
    5: (S.BANK_DATA_SUBMITTED, S.PIX_KEY_CPF_MISMATCH, S.PIX_KEY_NOT_CONFIRMED, S.CONTRACT_GENERATION_IN_PROGRESS),
    6: (S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE, S.SIGNATURE_FAILED, S.CANCELED),
    7: (S.SIGNED, S.PENDING_ANALYSIS, S.ANALYSIS_APPROVED, S.ANALYSIS_REPROVED, S.ERROR, S.DISBURSEMENT_FAILED),
    8: (S.DISBURSED, S.CANCELLED_BY_USER),
}
_STEP_OF: dict[str | None, int] = {status: step for step, statuses in _REACHED.items() for status in statuses}


def funnel_step(status: S | str | None) -> int | None:
    """Index in ``FUNNEL_STEPS`` of the furthest step ``status`` implies; None for EXPIRED (and
    for a value outside the spec's statuses)."""
    return _STEP_OF.get(status)
