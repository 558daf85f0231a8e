from models.domain.status_machine import TRANSITIONS, Trigger
from models.domain.statuses import (
    ACTIVE_STATUSES,
    ANALYSIS_RESULT_STATUSES,
    ANALYSIS_RUNNING_STATUSES,
    ASYNC_PROCESSING_STATUSES,
    BANKING_DATA_BLOCKED,
    CONTRACT_IN_FORCE_STATUSES,
    CONTRACT_PENDING_SIGNATURE,
    CONTRACT_QUERY_TERMINAL,
    FINAL_STATUSES,
    OFFERS_READY_STATUSES,
    PRE_CONTRACT_STATUSES,
    SIGNED_FAMILY,
    SIGNED_UNSETTLED_STATUSES,
    STATUS_DETAILS,
    Status,
    status_detail,
)

S = Status

SPEC_STATUSES = [
    "CREATED",
    "TOKEN_SENT",
    "TOKEN_VALIDATED",
    "CREDIT_ANALYSIS_IN_PROGRESS",
    "CREDIT_ANALYSIS_FAILED",
    "PAYROLL_SYSTEM_FAILED_AWAITING_RETRY",
    "CREDIT_CHECK_COMPLETED",
    "OFFERS_RECEIVED",
    "REJECTED",
    "OFFER_SELECTED",
    "PRE_ACCEPTED",
    "BANK_DATA_SUBMITTED",
    "PIX_KEY_CPF_MISMATCH",
    "PIX_KEY_NOT_CONFIRMED",
    "CONTRACT_GENERATION_IN_PROGRESS",
    "CONTRACT_GENERATED",
    "AWAITING_SIGNATURE",
    "SIGNED",
    "SIGNATURE_FAILED",
    "PENDING_ANALYSIS",
    "ANALYSIS_APPROVED",
    "ANALYSIS_REPROVED",
    "DISBURSEMENT_FAILED",
    "DISBURSED",
    "CANCELED",
    "CANCELLED_BY_USER",
    "EXPIRED",
    "ERROR",
]


def test_exactly_the_28_spec_statuses():
    assert [s.value for s in Status] == SPEC_STATUSES
    assert all(s.name == s.value for s in Status)
    assert Status("SIGNED") == "SIGNED"


def test_every_status_has_a_detail_with_unique_order():
    assert set(STATUS_DETAILS) == set(Status)
    orders = [d.order for d in STATUS_DETAILS.values()]
    assert sorted(orders) == list(range(1, 29))
    assert (
        STATUS_DETAILS[Status.CREATED].order
        < STATUS_DETAILS[Status.SIGNED].order
        < STATUS_DETAILS[Status.DISBURSED].order
    )


def test_status_detail_shape():
    detail = status_detail(Status.AWAITING_SIGNATURE)
    assert set(detail) == {"code", "name", "description", "order"}
    assert detail["code"] == "AWAITING_SIGNATURE" and isinstance(detail["order"], int)
    assert status_detail("CREATED")["order"] == 1


def test_families():
    assert {
        Status.EXPIRED,
        Status.CANCELED,
        Status.REJECTED,
        Status.ERROR,
        Status.CANCELLED_BY_USER,
    } == CONTRACT_QUERY_TERMINAL
    assert ASYNC_PROCESSING_STATUSES <= ACTIVE_STATUSES
    assert not ACTIVE_STATUSES & (FINAL_STATUSES | SIGNED_FAMILY)
    assert Status.AWAITING_SIGNATURE in ACTIVE_STATUSES and Status.PIX_KEY_CPF_MISMATCH not in ACTIVE_STATUSES
    assert len(BANKING_DATA_BLOCKED) == 11 and Status.PRE_ACCEPTED not in BANKING_DATA_BLOCKED


def test_signed_groups():
    assert {S.SIGNED, S.PENDING_ANALYSIS, S.ANALYSIS_APPROVED, S.ERROR} == SIGNED_UNSETTLED_STATUSES
    assert SIGNED_UNSETTLED_STATUSES | {S.DISBURSED} == CONTRACT_IN_FORCE_STATUSES
    assert CONTRACT_IN_FORCE_STATUSES < SIGNED_FAMILY


def test_offer_and_contract_stage_groups_match_the_transition_table():
    assert (
        PRE_CONTRACT_STATUSES
        == TRANSITIONS[Trigger.SELECT_OFFER].sources
        == {S.OFFERS_RECEIVED, S.CREDIT_CHECK_COMPLETED, S.OFFER_SELECTED, S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED}
    )
    assert TRANSITIONS[Trigger.START_ANALYSIS].guarded_sources == OFFERS_READY_STATUSES
    # Results a new analysis may not replace: offers (but the promotional re-analysis) or a rejection.
    assert {S.OFFERS_RECEIVED, S.CREDIT_CHECK_COMPLETED, S.REJECTED} == ANALYSIS_RESULT_STATUSES
    assert not ANALYSIS_RESULT_STATUSES & TRANSITIONS[Trigger.START_ANALYSIS].sources
    assert TRANSITIONS[Trigger.CANCEL].sources == CONTRACT_PENDING_SIGNATURE
    assert {S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE} == CONTRACT_PENDING_SIGNATURE
    assert {S.CREDIT_ANALYSIS_IN_PROGRESS, S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY} == ANALYSIS_RUNNING_STATUSES
    assert ANALYSIS_RUNNING_STATUSES | {S.CONTRACT_GENERATION_IN_PROGRESS} == ASYNC_PROCESSING_STATUSES
