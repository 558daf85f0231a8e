"""The money path after the customer acts: which step a proposal waits for, and when to drive it
again if nothing happened.

Contract generation, the signature result, the post-signature routing, the fraud decision, the
payroll endorsement and the payment are each carried by one actor message. A message can be lost
for good (its retries spent while the database or the broker was away, dead-lettered), so every
proposal on the path has a durable step record (``models/services/money_path``) with the time of
its next attempt; the re-drive sweep sends the step's message again when that time comes, with
the backoff below, until the proposal reaches a state where nothing is left for us to do.

:func:`step_for` names the step from the proposal's facts (never from the record alone, so a
stale record corrects itself); :func:`redrive_delay` is the backoff: ``first`` seconds after the
step began or was last re-driven, doubling per re-drive, capped at ``max`` (seconds up to hours).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from models.domain.statuses import Status

S = Status


class Step(StrEnum):
    """The work a proposal on the money path waits for (each is one idempotent actor)."""

    GENERATE = "GENERATE"  # generate_contract: the CCB and the signing process
    SIGNATURE_RESULT = "SIGNATURE_RESULT"  # handle_signature_result: the provider's finished result
    ROUTE = "ROUTE"  # process_signed_contract: fraud analysis or straight to endorsement
    FRAUD = "FRAUD"  # run_fraud_analysis: the fraud decision
    ENDORSE = "ENDORSE"  # endorse_contract: the payroll endorsement (or its deferral)
    DISBURSE = "DISBURSE"  # disburse: the payment


# Signed and not yet paid or closed: the statuses the payment proceeds from.
_PAYABLE = frozenset({S.SIGNED, S.ANALYSIS_APPROVED, S.ERROR})


@dataclass(frozen=True)
class StepFacts:
    """What decides the step, read from the proposal's rows under its lock."""

    status: Status
    signature_result_received: bool = False  # the provider's finished result is in, not yet applied
    routed_to_endorsement: bool = False  # the post-signature routing chose endorsement (recorded)
    endorsed: bool = False  # the payroll system registered the contract


def step_for(facts: StepFacts) -> Step | None:
    """The step the proposal waits for, or None when nothing on the money path is ours to do (a
    final status, the customer still to sign, or a status before the contract)."""
    status = facts.status
    if status is S.CONTRACT_GENERATION_IN_PROGRESS:
        return Step.GENERATE
    if status in (S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE):
        return Step.SIGNATURE_RESULT if facts.signature_result_received else None
    if status is S.PENDING_ANALYSIS:
        return Step.FRAUD
    if status not in _PAYABLE:
        return None
    if facts.endorsed:
        return Step.DISBURSE
    if status is S.SIGNED and not facts.routed_to_endorsement:
        return Step.ROUTE
    return Step.ENDORSE


@dataclass(frozen=True)
class RedrivePolicy:
    """The backoff of the re-drives (settings ``[default.money_path]``)."""

    first_seconds: int
    max_seconds: int
    alert_after_attempts: int


def redrive_delay(attempts: int, policy: RedrivePolicy) -> timedelta:
    """How long after the step began (``attempts`` 0) or after its ``attempts``-th re-drive the
    next re-drive is due: ``first_seconds`` doubled per re-drive, never above ``max_seconds``."""
    if attempts < 0:
        raise ValueError("attempts cannot be negative")
    # 2**attempts grows without bound; past the cap the exact power does not matter.
    seconds = policy.first_seconds * (2 ** min(attempts, 40))
    return timedelta(seconds=min(seconds, policy.max_seconds))


def next_attempt_at(since: datetime, attempts: int, policy: RedrivePolicy) -> datetime:
    """The instant the next re-drive is due, counted from ``since`` (the step's start or the
    re-drive just made)."""
    return since + redrive_delay(attempts, policy)


def overdue(next_attempt: datetime, at: datetime) -> bool:
    """The step's next attempt has come (the instant itself included)."""
    return at >= next_attempt


def stuck(attempts: int, next_attempt: datetime, at: datetime) -> bool:
    """Past its expected time: re-driven at least once, or its next attempt has come."""
    return attempts > 0 or overdue(next_attempt, at)


def alarming(attempts: int, policy: RedrivePolicy) -> bool:
    """Re-driven often enough that an operator must look (an ALERT log line per re-drive from here)."""
    return attempts >= policy.alert_after_attempts
