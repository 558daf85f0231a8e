"""When a credit analysis may run (again), and what kind of analysis it is.

* Promotional re-analysis: from a proposal whose offers are ready and not yet chosen (the state
  machine's guarded sources of START_ANALYSIS), once the last analysis was approved at least 20 h
  ago (``calendar.promotional_reanalysis_allowed``); the engine may then grant better conditions.
* Manual retry: only a technical failure marked retryable, in the status the state machine lets
  RETRY_ANALYSIS leave from. The 96 h window and the retry limit are checked by the use case.
* Automatic payroll retry: bounded by a count and by the retry window from the analysis's first
  payroll failure; past either bound the analysis ends CREDIT_ANALYSIS_FAILED (retryable), and the
  partner's retry route takes over, as the spec describes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from models.domain import calendar
from models.domain.clock import to_utc
from models.domain.lifecycles import AnalysisKind, AnalysisOutcome
from models.domain.status_machine import TRANSITIONS, Trigger, can
from models.domain.statuses import Status


def promotional_eligible(
    status: Status | str, previous_outcome: str | None, previous_approved_at: datetime | None, now: datetime
) -> bool:
    """True when a new analysis from ``status`` is the promotional re-analysis."""
    if status not in TRANSITIONS[Trigger.START_ANALYSIS].guarded_sources:
        return False
    if previous_outcome != AnalysisOutcome.APPROVED or previous_approved_at is None:
        return False
    return calendar.promotional_reanalysis_allowed(previous_approved_at, now)


def analysis_kind(*, promotional: bool, has_previous: bool) -> AnalysisKind:
    """Kind of a newly started analysis: promotional, a re-analysis, or the first one."""
    if promotional:
        return AnalysisKind.PROMOTIONAL
    return AnalysisKind.REANALYSIS if has_previous else AnalysisKind.INITIAL


def retryable_failure(status: Status | str, outcome: str | None, retryable: bool | None) -> bool:
    """True when the proposal's last analysis is a retryable technical failure it may retry."""
    return can(Status(status), Trigger.RETRY_ANALYSIS) and outcome == AnalysisOutcome.FAILED and bool(retryable)


def automatic_retry_allowed(
    retries_done: int, first_failed_at: datetime, retry_at: datetime, *, limit: int, window: timedelta
) -> bool:
    """True when a payroll failure may be retried automatically at ``retry_at``: fewer than
    ``limit`` automatic retries so far, and ``retry_at`` no later than the first failure +
    ``window`` (inclusive, like the manual retry window)."""
    return retries_done < limit and to_utc(retry_at) <= to_utc(first_failed_at) + window
