"""The small lifecycles beside the proposal's: their values and the families code tests.

Each is a ``StrEnum`` whose value is the string stored in its database column and shown on the
wire, so rows, JSON bodies and comparisons with plain strings keep working unchanged. The value is
the member's name everywhere except ``AnalysisKind``, whose stored values were always lower case.
The proposal's own statuses live in ``statuses`` and the signing process's in ``signature``.
"""

from __future__ import annotations

from enum import StrEnum


class ContractStatus(StrEnum):
    """``contract.status``: mirrors the proposal's status while the contract moves, plus ISSUED
    (paid; the funder's word) and FAILED (generation abandoned by the watchdog)."""

    CONTRACT_GENERATION_IN_PROGRESS = "CONTRACT_GENERATION_IN_PROGRESS"
    CONTRACT_GENERATED = "CONTRACT_GENERATED"
    SIGNED = "SIGNED"
    SIGNATURE_FAILED = "SIGNATURE_FAILED"
    EXPIRED = "EXPIRED"
    CANCELED = "CANCELED"
    ANALYSIS_REPROVED = "ANALYSIS_REPROVED"
    DISBURSEMENT_FAILED = "DISBURSEMENT_FAILED"
    ISSUED = "ISSUED"
    CANCELLED_BY_USER = "CANCELLED_BY_USER"
    FAILED = "FAILED"


class AnalysisOutcome(StrEnum):
    """``credit_analysis.outcome``: IN_PROGRESS until one of the finished outcomes, or
    AWAITING_RETRY while an automatic payroll retry is scheduled (it returns to IN_PROGRESS)."""

    IN_PROGRESS = "IN_PROGRESS"
    APPROVED = "APPROVED"
    REJECTED = "REJECTED"
    FAILED = "FAILED"
    AWAITING_RETRY = "AWAITING_RETRY"


# An analysis with one of these outcomes has its answer: the routes reply with the result.
FINISHED_OUTCOMES = frozenset({AnalysisOutcome.APPROVED, AnalysisOutcome.REJECTED, AnalysisOutcome.FAILED})


class AnalysisKind(StrEnum):
    """``credit_analysis.kind``: why the analysis ran (stored lower case)."""

    INITIAL = "initial"
    REANALYSIS = "reanalysis"
    PROMOTIONAL = "promotional"
    RETRY = "retry"


class SimulationStatus(StrEnum):
    """``simulation.status``: PENDING until the actor computes it (DONE) or refuses it (FAILED)."""

    PENDING = "PENDING"
    DONE = "DONE"
    FAILED = "FAILED"


class DeliveryStatus(StrEnum):
    """``webhook_delivery.status``: PENDING until DELIVERED, FAILED (schedule exhausted) or
    SKIPPED (the partner has no URL); an operator replay puts a finished one back to PENDING."""

    PENDING = "PENDING"
    DELIVERED = "DELIVERED"
    FAILED = "FAILED"
    SKIPPED = "SKIPPED"


FINAL_DELIVERY_STATUSES = frozenset({DeliveryStatus.DELIVERED, DeliveryStatus.FAILED, DeliveryStatus.SKIPPED})


class BankDataSubmissionState(StrEnum):
    """``bank_data_submission.state``: the first of the actor (DONE, verdict stored), the waiting
    route (ABANDONED, timed out) and a newer submission of the proposal (SUPERSEDED) to leave
    PENDING wins."""

    PENDING = "PENDING"
    DONE = "DONE"
    ABANDONED = "ABANDONED"
    SUPERSEDED = "SUPERSEDED"


class DisbursementStatus(StrEnum):
    """``disbursement.status``: PENDING when created, REQUESTED once the funder was asked, then
    the funder's answer PAID or FAILED."""

    PENDING = "PENDING"
    REQUESTED = "REQUESTED"
    PAID = "PAID"
    FAILED = "FAILED"


class MessageDeliveryStatus(StrEnum):
    """``message_send.delivery_status``: QUEUED, then SENT or FAILED at the messaging provider."""

    QUEUED = "QUEUED"
    SENT = "SENT"
    FAILED = "FAILED"
