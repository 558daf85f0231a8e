"""Proposal state machine: ``TRANSITIONS`` is the single source of truth.

Every status change in the service goes through :func:`next_status`. Each
``Rule`` lists the statuses a trigger may leave from, the status it leads to,
an optional guard, and how to choose the error code when the move is refused.

Open points of the spec, decided by the lead (why in brackets):

* OFFERS_RECEIVED vs CREDIT_CHECK_COMPLETED: an approved analysis applies
  CREDIT_CHECK_DONE then OFFERS_STORED in one transaction [the spec names both;
  partners see the webhook for the first and the response for the second].
* Into OFFER_SELECTED: SELECT_OFFER, and pre-accept applies SELECT_OFFER then
  PRE_ACCEPT [the spec never names a move into OFFER_SELECTED; re-selecting is
  allowed until bank data is sent so a customer may change offers].
* START_ANALYSIS from OFFERS_RECEIVED/CREDIT_CHECK_COMPLETED only as the
  promotional re-analysis (guard ``promotional_eligible``), otherwise
  CREDIT_ANALYSIS_ALREADY_COMPLETED, as from REJECTED [spec 409 table: "result
  already available"; a rejection is a result]; from OFFER_SELECTED,
  PRE_ACCEPTED, BANK_DATA_SUBMITTED freely [spec: "recalculates offers"].
* PAYROLL_SYSTEM_FAILED_AWAITING_RETRY is refused like an analysis in
  progress (code None, "wait 30 seconds") [it is an async processing status].
* CONTRACT_FAILED sends the proposal back to BANK_DATA_SUBMITTED [the
  3-minute watchdog; the customer can call POST contract again].
* Into EXPIRED: SIGNATURE_EXPIRED after a contract, PROPOSAL_EXPIRED before one
  (offers lapsed, a failed analysis that can no longer be retried, or idle before the analysis),
  applied by the lifecycle sweep and by POST /proposals/start (``status_deadlines``) [spec leaves
  it open].
* Into ERROR: ENDORSEMENT_DEFERRED from SIGNED/ANALYSIS_APPROVED (payroll
  maintenance window); ERROR can still become DISBURSED or DISBURSEMENT_FAILED.
* Refusals answer 409 except CANCEL, SUBMIT_BANK_DATA and RETRY_ANALYSIS,
  which answer 400 [spec "Other documented errors" for those routes]. A
  refusal's details name the current status and the trigger; CANCEL's name
  the current and the required statuses instead, in its own message [the
  cancel route's documented body].
* START_CONTRACT from ERROR answers SIGNED_CONTRACT_EXISTS [a signed contract
  awaits endorsement]. CONTRACT_ACTIVE of the contract route concerns another
  proposal of the CPF and is decided outside this machine.
* PIX_KEY_CPF_MISMATCH / PIX_KEY_NOT_CONFIRMED: never a target [report-only].
* Codes the spec does not name use INVALID_STATUS_TRANSITION or an
  ``INVALID_STATUS_FOR_<ROUTE>`` code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from models.domain.errors import InvalidTransition
from models.domain.statuses import (
    ANALYSIS_RESULT_STATUSES,
    ANALYSIS_RUNNING_STATUSES,
    CONTRACT_PENDING_SIGNATURE,
    FINAL_STATUSES,
    OFFERS_READY_STATUSES,
    PRE_CONTRACT_STATUSES,
    SIGNED_FAMILY,
    SIGNED_UNSETTLED_STATUSES,
    Status,
)

S = Status
GENERIC_CODE = "INVALID_STATUS_TRANSITION"


class Trigger(str, Enum):
    """Events that may change a proposal's status."""

    START = "START"
    SEND_CONTACT = "SEND_CONTACT"
    VALIDATE_TOKEN = "VALIDATE_TOKEN"
    START_ANALYSIS = "START_ANALYSIS"
    CREDIT_CHECK_DONE = "CREDIT_CHECK_DONE"
    OFFERS_STORED = "OFFERS_STORED"
    ANALYSIS_REJECTED = "ANALYSIS_REJECTED"
    ANALYSIS_FAILED = "ANALYSIS_FAILED"
    PAYROLL_RETRY_SCHEDULED = "PAYROLL_RETRY_SCHEDULED"
    AUTO_RETRY = "AUTO_RETRY"
    RETRY_ANALYSIS = "RETRY_ANALYSIS"
    SELECT_OFFER = "SELECT_OFFER"
    PRE_ACCEPT = "PRE_ACCEPT"
    SUBMIT_BANK_DATA = "SUBMIT_BANK_DATA"
    START_CONTRACT = "START_CONTRACT"
    CONTRACT_READY = "CONTRACT_READY"
    CONTRACT_FAILED = "CONTRACT_FAILED"
    SIGNATURE_STARTED = "SIGNATURE_STARTED"
    SIGNATURE_OK = "SIGNATURE_OK"
    SIGNATURE_INVALID = "SIGNATURE_INVALID"
    SIGNATURE_EXPIRED = "SIGNATURE_EXPIRED"
    PROPOSAL_EXPIRED = "PROPOSAL_EXPIRED"
    CANCEL = "CANCEL"
    FRAUD_REVIEW = "FRAUD_REVIEW"
    FRAUD_APPROVED = "FRAUD_APPROVED"
    FRAUD_REPROVED = "FRAUD_REPROVED"
    ENDORSEMENT_DEFERRED = "ENDORSEMENT_DEFERRED"
    DISBURSE = "DISBURSE"
    DISBURSEMENT_FAILS = "DISBURSEMENT_FAILS"
    CUSTOMER_WITHDRAWAL = "CUSTOMER_WITHDRAWAL"

    def __str__(self) -> str:
        return self.value


ErrorChooser = Callable[["Status | None"], "str | None"]


def _always(code: str | None) -> ErrorChooser:
    return lambda current: code


def _analysis_error(current: Status | None) -> str | None:
    if current in ANALYSIS_RUNNING_STATUSES:
        return None
    if current in ANALYSIS_RESULT_STATUSES:
        return "CREDIT_ANALYSIS_ALREADY_COMPLETED"
    return "INVALID_STATUS_FOR_CREDIT_ANALYSIS"


def _offer_error(current: Status | None) -> str:
    return "SIGNED_CONTRACT_EXISTS" if current in SIGNED_FAMILY else "INVALID_STATUS_FOR_PREACCEPT"


def _contract_error(current: Status | None) -> str:
    if current is S.CONTRACT_GENERATION_IN_PROGRESS:
        return "CONTRACT_GENERATION_IN_PROGRESS"
    if current in CONTRACT_PENDING_SIGNATURE:
        return "CONTRACT_ALREADY_GENERATED"
    if current in SIGNED_UNSETTLED_STATUSES:
        return "SIGNED_CONTRACT_EXISTS"
    if current in (S.DISBURSED, S.DISBURSEMENT_FAILED, S.CANCELLED_BY_USER) or current in FINAL_STATUSES:
        return "PROPOSAL_FINALIZED"
    return "INVALID_STATUS_FOR_CONTRACT"


@dataclass(frozen=True)
class Rule:
    """One trigger: where it may start, where it leads and how refusals look."""

    sources: frozenset
    target: Status
    guard: str = ""
    guard_name: str | None = None
    guarded_sources: frozenset = frozenset()
    error_code: ErrorChooser = field(default=_always(GENERIC_CODE))
    refusal_http_status: int = 409
    # When set, a refusal says this (``{current}``, ``{required}`` filled in) and its details name
    # the required statuses rather than the trigger.
    refusal_message: str | None = None

    def allows(self, current: Status | None, guards: dict) -> bool:
        """True when ``current`` may take this trigger under ``guards``."""
        if current in self.sources:
            return True
        return current in self.guarded_sources and bool(guards.get(self.guard_name or ""))

    @property
    def required_status(self) -> str:
        """The unguarded sources in the spec's order, as a refusal states them ("A or B")."""
        return " or ".join(status.value for status in Status if status in self.sources)


def _rule(sources: Iterable[Status | None], target: Status, **kwargs: Any) -> Rule:
    return Rule(frozenset(sources), target, **kwargs)


T = Trigger

TRANSITIONS: dict[Trigger, Rule] = {
    T.START: _rule({None}, S.CREATED, guard="no blocking start rule (see start_decision)"),
    T.SEND_CONTACT: _rule({S.CREATED, S.TOKEN_SENT}, S.TOKEN_SENT, guard="valid email and phone; re-send allowed"),
    T.VALIDATE_TOKEN: _rule({S.TOKEN_SENT}, S.TOKEN_VALIDATED, guard="correct, unexpired token"),
    T.START_ANALYSIS: _rule(
        {S.TOKEN_VALIDATED, S.OFFER_SELECTED, S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED},
        S.CREDIT_ANALYSIS_IN_PROGRESS,
        guard="from offers only as promotional re-analysis (offer >= 20 h old, eligible)",
        guard_name="promotional_eligible",
        guarded_sources=OFFERS_READY_STATUSES,
        error_code=_analysis_error,
    ),
    T.CREDIT_CHECK_DONE: _rule({S.CREDIT_ANALYSIS_IN_PROGRESS}, S.CREDIT_CHECK_COMPLETED, guard="analysis approved"),
    T.OFFERS_STORED: _rule({S.CREDIT_CHECK_COMPLETED}, S.OFFERS_RECEIVED, guard="offers persisted"),
    T.ANALYSIS_REJECTED: _rule({S.CREDIT_ANALYSIS_IN_PROGRESS}, S.REJECTED, guard="credit rejected"),
    T.ANALYSIS_FAILED: _rule({S.CREDIT_ANALYSIS_IN_PROGRESS}, S.CREDIT_ANALYSIS_FAILED, guard="technical failure"),
    T.PAYROLL_RETRY_SCHEDULED: _rule(
        {S.CREDIT_ANALYSIS_IN_PROGRESS}, S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY, guard="source allows automatic retry"
    ),
    T.AUTO_RETRY: _rule(
        {S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY}, S.CREDIT_ANALYSIS_IN_PROGRESS, guard="retry timer fired"
    ),
    T.RETRY_ANALYSIS: _rule(
        {S.CREDIT_ANALYSIS_FAILED},
        S.CREDIT_ANALYSIS_IN_PROGRESS,
        guard="retryable failure, within 96 h, consent saved",
        error_code=_always("ANALYSIS_NOT_RETRYABLE"),
        refusal_http_status=400,
    ),
    T.SELECT_OFFER: _rule(
        PRE_CONTRACT_STATUSES, S.OFFER_SELECTED, guard="offer belongs to the proposal", error_code=_offer_error
    ),
    T.PRE_ACCEPT: _rule({S.OFFER_SELECTED}, S.PRE_ACCEPTED, guard="offer still valid", error_code=_offer_error),
    T.SUBMIT_BANK_DATA: _rule(
        {S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED},
        S.BANK_DATA_SUBMITTED,
        guard="data valid, Pix key confirmed",
        error_code=_always("INVALID_STATUS_FOR_BANKING_DATA"),
        refusal_http_status=400,
    ),
    T.START_CONTRACT: _rule(
        {S.BANK_DATA_SUBMITTED}, S.CONTRACT_GENERATION_IN_PROGRESS, guard="no blocking rule", error_code=_contract_error
    ),
    T.CONTRACT_READY: _rule({S.CONTRACT_GENERATION_IN_PROGRESS}, S.CONTRACT_GENERATED, guard="PDF stored"),
    T.CONTRACT_FAILED: _rule({S.CONTRACT_GENERATION_IN_PROGRESS}, S.BANK_DATA_SUBMITTED, guard="3-minute watchdog"),
    T.SIGNATURE_STARTED: _rule({S.CONTRACT_GENERATED}, S.AWAITING_SIGNATURE, guard="signing process created"),
    T.SIGNATURE_OK: _rule({S.AWAITING_SIGNATURE}, S.SIGNED, guard="all four signature checks pass"),
    T.SIGNATURE_INVALID: _rule({S.AWAITING_SIGNATURE}, S.SIGNATURE_FAILED, guard="any signature check fails"),
    T.SIGNATURE_EXPIRED: _rule(CONTRACT_PENDING_SIGNATURE, S.EXPIRED, guard="signature deadline passed"),
    T.PROPOSAL_EXPIRED: _rule(
        {S.CREATED, S.TOKEN_SENT, S.TOKEN_VALIDATED, *PRE_CONTRACT_STATUSES, S.CREDIT_ANALYSIS_FAILED},
        S.EXPIRED,
        guard="offer validity or 96 h retry window lapsed",
    ),
    T.CANCEL: _rule(
        CONTRACT_PENDING_SIGNATURE,
        S.CANCELED,
        guard="before disbursement",
        error_code=_always("INVALID_STATUS_FOR_CANCEL"),
        refusal_http_status=400,
        refusal_message="Proposal in status {current} cannot be canceled; allowed only in {required}",
    ),
    T.FRAUD_REVIEW: _rule({S.SIGNED}, S.PENDING_ANALYSIS, guard="high value or attention required"),
    T.FRAUD_APPROVED: _rule({S.PENDING_ANALYSIS}, S.ANALYSIS_APPROVED, guard="fraud analysis approved"),
    T.FRAUD_REPROVED: _rule({S.PENDING_ANALYSIS}, S.ANALYSIS_REPROVED, guard="fraud analysis rejected"),
    T.ENDORSEMENT_DEFERRED: _rule({S.SIGNED, S.ANALYSIS_APPROVED}, S.ERROR, guard="payroll maintenance window"),
    T.DISBURSE: _rule({S.SIGNED, S.ANALYSIS_APPROVED, S.ERROR}, S.DISBURSED, guard="payment confirmed"),
    T.DISBURSEMENT_FAILS: _rule(
        {S.SIGNED, S.ANALYSIS_APPROVED, S.ERROR}, S.DISBURSEMENT_FAILED, guard="payment failed"
    ),
    T.CUSTOMER_WITHDRAWAL: _rule({S.DISBURSED}, S.CANCELLED_BY_USER, guard="customer cancellation after disbursement"),
}

# Signed and not yet paid: the contract is endorsed and paid from these (ERROR once the payroll
# maintenance window is over), so endorsement and payment both proceed only from them.
DISBURSABLE_STATUSES: frozenset = TRANSITIONS[T.DISBURSE].sources

_MESSAGES = {
    None: "Credit analysis already in progress; wait about 30 seconds and poll the result.",
    "CREDIT_ANALYSIS_ALREADY_COMPLETED": "Credit analysis result is already available for this proposal.",
    "SIGNED_CONTRACT_EXISTS": "A signed contract already exists for this proposal.",
    "CONTRACT_GENERATION_IN_PROGRESS": "Contract generation is already in progress.",
    "CONTRACT_ALREADY_GENERATED": "The contract has already been generated.",
    "PROPOSAL_FINALIZED": "The proposal is finalized.",
}


def next_status(current: Status | None, trigger: Trigger, **guards: object) -> Status:
    """Return the status reached by ``trigger`` from ``current`` or raise InvalidTransition.

    ``guards`` are keyword flags named by the rule (``promotional_eligible``).
    """
    rule = TRANSITIONS[Trigger(trigger)]
    current = Status(current) if current is not None else None
    if rule.allows(current, guards):
        return rule.target
    code = rule.error_code(current)
    name = current.value if current is not None else "none"
    if rule.refusal_message is not None:
        raise InvalidTransition(
            rule.refusal_message.format(current=name, required=rule.required_status),
            current_status=current,
            trigger=Trigger(trigger),
            error_code=code,
            http_status=rule.refusal_http_status,
            details={"requiredStatus": rule.required_status},
            trigger_in_details=False,
        )
    message = _MESSAGES.get(code) if code in _MESSAGES else None
    raise InvalidTransition(
        message or f"Trigger {trigger.value} is not allowed from status {name}.",
        current_status=current,
        trigger=Trigger(trigger),
        error_code=code,
        http_status=rule.refusal_http_status,
    )


def can(current: Status | None, trigger: Trigger, **guards: object) -> bool:
    """True when :func:`next_status` would accept ``trigger`` from ``current``."""
    current = Status(current) if current is not None else None
    return TRANSITIONS[Trigger(trigger)].allows(current, guards)


def allowed_triggers(current: Status | None, **guards: object) -> set[Trigger]:
    """Triggers accepted from ``current``; guarded ones only when their guard is passed true."""
    return {trigger for trigger in Trigger if can(current, trigger, **guards)}
