"""How every non-final status ends when nobody moves the proposal on: one rule per status.

A proposal must never sit in a status it cannot leave: a dead proposal keeps its CPF busy (POST
/proposals/start returns or blocks on it) and the partner waits for a webhook that never comes.
:func:`deadline` names, for the facts of one proposal, the exit that applies when nothing else
happens, and from which instant. The lifecycle sweep (``models/services/lifecycle``) applies the
exits that are due, each re-checked under the proposal's lock, through the status writer (so the
partner gets the status webhook). POST /proposals/start applies the EXPIRE exits of the CPF's
proposals before it decides, so a dead proposal is neither returned nor blocking.

The table (README "Lifecycle: every status has a way out"):

================================  ==========================================  =====================
status                            due at                                      exit
================================  ==========================================  =====================
CREATED, TOKEN_SENT,              entered + ``idle_before_analysis``          EXPIRE (IDLE)
TOKEN_VALIDATED
CREDIT_ANALYSIS_IN_PROGRESS       entered + ``analysis_stall``                FAIL_STALLED_ANALYSIS
PAYROLL_SYSTEM_FAILED_AWAITING_   the automatic retry's ``retry_at`` +        RUN_AUTO_RETRY
RETRY                             ``analysis_stall``
CREDIT_ANALYSIS_FAILED            failure, when the retry route can no        EXPIRE (NOT_RETRYABLE,
                                  longer take it (not retryable, no consent,  NO_CONSENT,
                                  retry limit reached); else the first        RETRY_LIMIT_REACHED,
                                  instant after failure + ``retry_window``    RETRY_WINDOW_LAPSED)
CREDIT_CHECK_COMPLETED,           the latest expiry of the offers that can    EXPIRE (OFFERS_LAPSED)
OFFERS_RECEIVED, OFFER_SELECTED,  still be chosen (entered, when none can)
PRE_ACCEPTED, BANK_DATA_SUBMITTED
CONTRACT_GENERATION_IN_PROGRESS   entered + ``generation_watchdog``           FAIL_CONTRACT_GENERATION
CONTRACT_GENERATED,               the contract's signature deadline           EXPIRE_SIGNATURE
AWAITING_SIGNATURE
SIGNED, PENDING_ANALYSIS,         none: a signed contract is never expired;   (money path)
ANALYSIS_APPROVED, ERROR          endorsement and payment carry it on
DISBURSED                         none: settled (only the customer's          (settled)
                                  withdrawal leads out)
================================  ==========================================  =====================

Decisions (why):

* Backstops. The analysis, the automatic payroll retry, the generation watchdog and the signature
  deadline already have their own durable messages; the sweep applies the same idempotent step at
  the same or a later instant, so a lost message cannot leave the status stuck.
* A stalled analysis fails as CRA-INT-001 (not retryable, like an analysis whose actor gave up):
  the service cannot tell which system failed, and the spec keeps the retry route for payroll and
  credit-engine failures. The failure is then dead and expires on the next pass.
* A failure the retry route can still take is not dead: the proposal stays CREDIT_ANALYSIS_FAILED
  (POST /start returns it to its origin, which calls the retry route) until the window lapses.
* Offers: the proposal lives while one of its offers can still be chosen (the selected one, or a
  newer simulation's); a simulation or re-analysis before that instant makes new offers and so
  moves the deadline. The instant itself is already too late, as for the offer (``offer_availability``).
* Limits are settings (config.toml ``[default.lifecycle]``, ``credit.retry_window_hours``,
  ``credit.retry_limit``, ``contract.watchdog_seconds``) passed in :class:`LifecycleLimits`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from models.domain.clock import to_utc
from models.domain.statuses import FINAL_STATUSES, REPORT_ONLY_STATUSES, Status

S = Status
# The smallest step of a stored instant: a window that includes its end is over one step later.
INSTANT = timedelta(microseconds=1)


class Exit(StrEnum):
    """What the sweep does to a proposal whose deadline has come."""

    EXPIRE = "EXPIRE"  # PROPOSAL_EXPIRED -> EXPIRED
    FAIL_STALLED_ANALYSIS = "FAIL_STALLED_ANALYSIS"  # -> CREDIT_ANALYSIS_FAILED (CRA-INT-001)
    RUN_AUTO_RETRY = "RUN_AUTO_RETRY"  # the automatic payroll retry that did not run
    FAIL_CONTRACT_GENERATION = "FAIL_CONTRACT_GENERATION"  # the watchdog: back to BANK_DATA_SUBMITTED
    EXPIRE_SIGNATURE = "EXPIRE_SIGNATURE"  # SIGNATURE_EXPIRED -> EXPIRED


class Reason(StrEnum):
    """Why an EXPIRE exit applies (recorded in the status change's details)."""

    IDLE = "IDLE"
    OFFERS_LAPSED = "OFFERS_LAPSED"
    NOT_RETRYABLE = "NOT_RETRYABLE"
    NO_CONSENT = "NO_CONSENT"
    RETRY_LIMIT_REACHED = "RETRY_LIMIT_REACHED"
    RETRY_WINDOW_LAPSED = "RETRY_WINDOW_LAPSED"
    ANALYSIS_STALLED = "ANALYSIS_STALLED"
    AUTO_RETRY_OVERDUE = "AUTO_RETRY_OVERDUE"
    GENERATION_OVERDUE = "GENERATION_OVERDUE"
    SIGNATURE_DEADLINE = "SIGNATURE_DEADLINE"


@dataclass(frozen=True)
class LifecycleLimits:
    """The configured limits the rules read (built from the settings by the service)."""

    idle_before_analysis: timedelta
    analysis_stall: timedelta
    retry_window: timedelta
    retry_limit: int
    generation_watchdog: timedelta


@dataclass(frozen=True)
class FailedAnalysis:
    """The proposal's latest analysis, when it failed: what the retry route would check."""

    failed_at: datetime
    retryable: bool
    consent_saved: bool
    retries_used: int


@dataclass(frozen=True)
class ProposalFacts:
    """What the rules need to know about one proposal (read by the service, never stored)."""

    status: Status
    status_since: datetime  # when it entered its current status
    offers_valid_until: datetime | None = None  # latest expiry of the offers that can still be chosen
    failure: FailedAnalysis | None = None
    auto_retry_at: datetime | None = None  # PAYROLL_SYSTEM_FAILED_AWAITING_RETRY: when the retry is due
    signature_expires_at: datetime | None = None  # the latest contract's signature deadline


@dataclass(frozen=True)
class Deadline:
    """The exit that applies from ``at`` on (``reason`` says why, for the status change's details)."""

    exit: Exit
    at: datetime
    reason: Reason

    def is_due(self, now: datetime) -> bool:
        return to_utc(now) >= to_utc(self.at)


EARLY_FUNNEL = frozenset({S.CREATED, S.TOKEN_SENT, S.TOKEN_VALIDATED})
OFFER_STAGE = frozenset(
    {S.CREDIT_CHECK_COMPLETED, S.OFFERS_RECEIVED, S.OFFER_SELECTED, S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED}
)
SIGNATURE_STAGE = frozenset({S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE})
# Statuses no deadline applies to, and why (the README table prints these reasons).
NO_DEADLINE = {
    S.SIGNED: "money path",
    S.PENDING_ANALYSIS: "money path",
    S.ANALYSIS_APPROVED: "money path",
    S.ERROR: "money path",
    S.DISBURSED: "settled",
}

# Every status some deadline applies to: neither final, nor report-only, nor one of the above.
DEADLINE_STATUSES = frozenset(set(Status) - FINAL_STATUSES - REPORT_ONLY_STATUSES - set(NO_DEADLINE))


def _failed_deadline(failure: FailedAnalysis | None, since: datetime, limits: LifecycleLimits) -> Deadline:
    if failure is None:  # nothing the retry route could take
        return Deadline(Exit.EXPIRE, since, Reason.NOT_RETRYABLE)
    at = to_utc(failure.failed_at)
    if not failure.retryable:
        return Deadline(Exit.EXPIRE, at, Reason.NOT_RETRYABLE)
    if not failure.consent_saved:
        return Deadline(Exit.EXPIRE, at, Reason.NO_CONSENT)
    if failure.retries_used >= limits.retry_limit:
        return Deadline(Exit.EXPIRE, at, Reason.RETRY_LIMIT_REACHED)
    # The route accepts a retry up to and including failure + window (calendar.retry_window_open).
    return Deadline(Exit.EXPIRE, at + limits.retry_window + INSTANT, Reason.RETRY_WINDOW_LAPSED)


def deadline(facts: ProposalFacts, limits: LifecycleLimits) -> Deadline | None:
    """The exit of ``facts.status`` and when it applies; None for a status that needs none
    (final statuses, the money path, DISBURSED) or a deadline that cannot be known yet."""
    status, since = Status(facts.status), to_utc(facts.status_since)
    if status in EARLY_FUNNEL:
        return Deadline(Exit.EXPIRE, since + limits.idle_before_analysis, Reason.IDLE)
    if status is S.CREDIT_ANALYSIS_IN_PROGRESS:
        return Deadline(Exit.FAIL_STALLED_ANALYSIS, since + limits.analysis_stall, Reason.ANALYSIS_STALLED)
    if status is S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY:
        due = to_utc(facts.auto_retry_at) if facts.auto_retry_at else since
        return Deadline(Exit.RUN_AUTO_RETRY, due + limits.analysis_stall, Reason.AUTO_RETRY_OVERDUE)
    if status is S.CREDIT_ANALYSIS_FAILED:
        return _failed_deadline(facts.failure, since, limits)
    if status in OFFER_STAGE:
        until = to_utc(facts.offers_valid_until) if facts.offers_valid_until else since
        return Deadline(Exit.EXPIRE, until, Reason.OFFERS_LAPSED)
    if status is S.CONTRACT_GENERATION_IN_PROGRESS:
        return Deadline(Exit.FAIL_CONTRACT_GENERATION, since + limits.generation_watchdog, Reason.GENERATION_OVERDUE)
    if status in SIGNATURE_STAGE and facts.signature_expires_at is not None:
        return Deadline(Exit.EXPIRE_SIGNATURE, to_utc(facts.signature_expires_at), Reason.SIGNATURE_DEADLINE)
    return None


def due_exit(facts: ProposalFacts, limits: LifecycleLimits, now: datetime) -> Deadline | None:
    """The deadline of ``facts`` when it has come at ``now``, else None."""
    found = deadline(facts, limits)
    return found if found is not None and found.is_due(now) else None
