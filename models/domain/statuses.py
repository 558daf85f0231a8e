"""Proposal statuses of the spec, their display details and the status families.

Families (decided here, used by the state machine and the start decision):

* ``FINAL_STATUSES``: no trigger leads out of them (checked against the
  transition table by a test). DISBURSEMENT_FAILED is final for the machine:
  the spec says it "needs operational handling", which happens outside the
  automated flow.
* ``SIGNED_FAMILY``: the proposal has (or had) a validly signed contract.
* ``SIGNED_UNSETTLED_STATUSES``: signed, not reproved, and the money has not
  moved yet (fraud analysis, endorsement or payment ahead). This is the spec's
  "active contract with valid digital signature" (``holds_active_contract``):
  another proposal of the CPF in one of them answers 409 CONTRACT_ACTIVE to
  POST contract and to POST /proposals/start, and the proposal itself answers
  SIGNED_CONTRACT_EXISTS to POST contract.
* ``CONTRACT_IN_FORCE_STATUSES``: a signed contract that still binds the
  customer (the unsettled ones plus DISBURSED); this is the spec's
  "SIGNED/DISBURSED contract" for re-contracting.
* ``OFFERS_READY_STATUSES``: the analysis produced offers and none is chosen
  yet; a new analysis from here is only the promotional re-analysis.
* ``ANALYSIS_RESULT_STATUSES``: the analysis ended with its result (offers or a
  rejection) and no new analysis may start from here: POST credit-analysis
  answers the spec's CREDIT_ANALYSIS_ALREADY_COMPLETED ("result already
  available"). A technical failure is not a result: the retry route takes it.
* ``PRE_CONTRACT_STATUSES``: offers exist and no contract was generated: an
  offer may be (re)selected and offers simulated.
* ``CONTRACT_PENDING_SIGNATURE``: a generated contract waits for the
  customer's signature (it may still be canceled or expire).
* ``ANALYSIS_RUNNING_STATUSES``: a credit analysis is under way (including
  the wait for an automatic payroll retry).
* ``ACTIVE_STATUSES``: everything neither final, nor signed, nor a report-only
  value; such a proposal is returned again by POST /proposals/start.
* PIX_KEY_CPF_MISMATCH and PIX_KEY_NOT_CONFIRMED are only reported in the
  banking-data response body and never stored: no transition leads to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Status(str, Enum):
    """Every proposal status named by the spec (wire value == name)."""

    CREATED = "CREATED"
    TOKEN_SENT = "TOKEN_SENT"
    TOKEN_VALIDATED = "TOKEN_VALIDATED"
    CREDIT_ANALYSIS_IN_PROGRESS = "CREDIT_ANALYSIS_IN_PROGRESS"
    CREDIT_ANALYSIS_FAILED = "CREDIT_ANALYSIS_FAILED"
    PAYROLL_SYSTEM_FAILED_AWAITING_RETRY = "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY"
    CREDIT_CHECK_COMPLETED = "CREDIT_CHECK_COMPLETED"
    OFFERS_RECEIVED = "OFFERS_RECEIVED"
    REJECTED = "REJECTED"
    OFFER_SELECTED = "OFFER_SELECTED"
    PRE_ACCEPTED = "PRE_ACCEPTED"
    BANK_DATA_SUBMITTED = "BANK_DATA_SUBMITTED"
    PIX_KEY_CPF_MISMATCH = "PIX_KEY_CPF_MISMATCH"
    PIX_KEY_NOT_CONFIRMED = "PIX_KEY_NOT_CONFIRMED"
    CONTRACT_GENERATION_IN_PROGRESS = "CONTRACT_GENERATION_IN_PROGRESS"
    CONTRACT_GENERATED = "CONTRACT_GENERATED"
    AWAITING_SIGNATURE = "AWAITING_SIGNATURE"
    SIGNED = "SIGNED"
    SIGNATURE_FAILED = "SIGNATURE_FAILED"
    PENDING_ANALYSIS = "PENDING_ANALYSIS"
    ANALYSIS_APPROVED = "ANALYSIS_APPROVED"
    ANALYSIS_REPROVED = "ANALYSIS_REPROVED"
    DISBURSEMENT_FAILED = "DISBURSEMENT_FAILED"
    DISBURSED = "DISBURSED"
    CANCELED = "CANCELED"
    CANCELLED_BY_USER = "CANCELLED_BY_USER"
    EXPIRED = "EXPIRED"
    ERROR = "ERROR"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class StatusDetail:
    """Display data of a status (the Proposal's ``status_detail`` object)."""

    code: str
    name: str
    description: str
    order: int


S = Status

# Order follows the spec's status list, which walks the funnel from start to
# disbursement; side branches sit right after the step they leave from.
_DETAILS: list[tuple[Status, str, str]] = [
    (S.CREATED, "Created", "Proposal started; contact data not yet sent."),
    (S.TOKEN_SENT, "Token sent", "SMS token sent to the customer's phone."),
    (S.TOKEN_VALIDATED, "Token validated", "Customer confirmed the SMS token."),
    (S.CREDIT_ANALYSIS_IN_PROGRESS, "Credit analysis in progress", "Margin and credit checks are running."),
    (S.CREDIT_ANALYSIS_FAILED, "Credit analysis failed", "Technical failure; retry allowed within 96 hours."),
    (
        S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY,
        "Awaiting payroll retry",
        "Payroll system unavailable; automatic retry scheduled.",
    ),
    (S.CREDIT_CHECK_COMPLETED, "Credit check completed", "Credit analysis finished with offers."),
    (S.OFFERS_RECEIVED, "Offers received", "Offers are available for selection."),
    (S.REJECTED, "Rejected", "Credit analysis rejected the proposal."),
    (S.OFFER_SELECTED, "Offer selected", "Customer chose an offer."),
    (S.PRE_ACCEPTED, "Pre-accepted", "Customer pre-accepted the selected offer."),
    (S.BANK_DATA_SUBMITTED, "Bank data submitted", "Disbursement account or Pix key accepted."),
    (S.PIX_KEY_CPF_MISMATCH, "Pix key CPF mismatch", "Pix key belongs to another CPF (reported only)."),
    (S.PIX_KEY_NOT_CONFIRMED, "Pix key not confirmed", "Pix key could not be confirmed (reported only)."),
    (S.CONTRACT_GENERATION_IN_PROGRESS, "Contract generation in progress", "Contract is being generated."),
    (S.CONTRACT_GENERATED, "Contract generated", "Contract generated; signature not started."),
    (S.AWAITING_SIGNATURE, "Awaiting signature", "Waiting for the customer's digital signature."),
    (S.SIGNED, "Signed", "Contract signed; disbursement follows."),
    (S.SIGNATURE_FAILED, "Signature failed", "Signature validation failed; a new proposal is required."),
    (S.PENDING_ANALYSIS, "Pending fraud analysis", "Internal fraud analysis before disbursement."),
    (S.ANALYSIS_APPROVED, "Fraud analysis approved", "Fraud analysis approved; disbursement follows."),
    (S.ANALYSIS_REPROVED, "Fraud analysis reproved", "Fraud analysis rejected; closed without disbursement."),
    (S.DISBURSEMENT_FAILED, "Disbursement failed", "Disbursement failed; needs operational handling."),
    (S.DISBURSED, "Disbursed", "Credit paid to the customer; flow complete."),
    (S.CANCELED, "Canceled", "Canceled before disbursement."),
    (S.CANCELLED_BY_USER, "Cancelled by customer", "Customer cancelled after disbursement."),
    (S.EXPIRED, "Expired", "A deadline (offer, retry or signature) lapsed."),
    (S.ERROR, "Endorsement error", "Payroll endorsement error; reprocessed after the maintenance window."),
]

STATUS_DETAILS: dict[Status, StatusDetail] = {
    status: StatusDetail(status.value, name, description, order)
    for order, (status, name, description) in enumerate(_DETAILS, start=1)
}


def status_detail(status: Status | str) -> dict:
    """Return the ``status_detail`` object (code, name, description, order) of a status."""
    detail = STATUS_DETAILS[Status(status)]
    return {"code": detail.code, "name": detail.name, "description": detail.description, "order": detail.order}


CONTRACT_QUERY_TERMINAL = frozenset({S.EXPIRED, S.CANCELED, S.REJECTED, S.ERROR, S.CANCELLED_BY_USER})

REPORT_ONLY_STATUSES = frozenset({S.PIX_KEY_CPF_MISMATCH, S.PIX_KEY_NOT_CONFIRMED})

FINAL_STATUSES = frozenset(
    {
        S.REJECTED,
        S.SIGNATURE_FAILED,
        S.ANALYSIS_REPROVED,
        S.DISBURSEMENT_FAILED,
        S.CANCELED,
        S.CANCELLED_BY_USER,
        S.EXPIRED,
    }
)

SIGNED_FAMILY = frozenset(
    {
        S.SIGNED,
        S.PENDING_ANALYSIS,
        S.ANALYSIS_APPROVED,
        S.ANALYSIS_REPROVED,
        S.ERROR,
        S.DISBURSEMENT_FAILED,
        S.DISBURSED,
        S.CANCELLED_BY_USER,
    }
)

SIGNED_UNSETTLED_STATUSES = frozenset({S.SIGNED, S.PENDING_ANALYSIS, S.ANALYSIS_APPROVED, S.ERROR})


def holds_active_contract(status: Status | str) -> bool:
    """True when a proposal in ``status`` holds the spec's "active contract with valid digital
    signature" (409 CONTRACT_ACTIVE, one meaning on every route): its contract passed the four
    signature checks, was not reproved, and has not been paid yet."""
    return Status(status) in SIGNED_UNSETTLED_STATUSES


CONTRACT_IN_FORCE_STATUSES = SIGNED_UNSETTLED_STATUSES | {S.DISBURSED}

OFFERS_READY_STATUSES = frozenset({S.OFFERS_RECEIVED, S.CREDIT_CHECK_COMPLETED})

ANALYSIS_RESULT_STATUSES = OFFERS_READY_STATUSES | {S.REJECTED}

PRE_CONTRACT_STATUSES = OFFERS_READY_STATUSES | {S.OFFER_SELECTED, S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED}

CONTRACT_PENDING_SIGNATURE = frozenset({S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE})

ANALYSIS_RUNNING_STATUSES = frozenset({S.CREDIT_ANALYSIS_IN_PROGRESS, S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY})

ACTIVE_STATUSES = frozenset(set(Status) - FINAL_STATUSES - SIGNED_FAMILY - REPORT_ONLY_STATUSES)

ASYNC_PROCESSING_STATUSES = ANALYSIS_RUNNING_STATUSES | {S.CONTRACT_GENERATION_IN_PROGRESS}

# The statuses a partner's hybrid request waits for its proposal to leave: POST contract waits out
# the generation (it ends, fails or is cancelled by a move out of it). Only such a move wakes the
# proposal's waiters; the other hybrid waits (analysis, simulation, banking data) are woken by
# their own outcome's write, and a wake no request waits for costs every API process a round trip.
AWAITED_BY_HYBRID_REQUESTS = frozenset({S.CONTRACT_GENERATION_IN_PROGRESS})

# Spec, POST banking-data: "Statuses that block this route".
BANKING_DATA_BLOCKED = frozenset(
    {
        S.CREDIT_ANALYSIS_IN_PROGRESS,
        S.CONTRACT_GENERATION_IN_PROGRESS,
        S.CONTRACT_GENERATED,
        S.AWAITING_SIGNATURE,
        S.SIGNED,
        S.DISBURSEMENT_FAILED,
        S.DISBURSED,
        S.PENDING_ANALYSIS,
        S.ANALYSIS_APPROVED,
        S.ANALYSIS_REPROVED,
        S.SIGNATURE_FAILED,
    }
)
