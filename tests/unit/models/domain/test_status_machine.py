"""Every Status x every Trigger against an expectation transcribed from the issue."""

import pytest

from models.domain.errors import InvalidTransition
from models.domain.status_machine import (
    DISBURSABLE_STATUSES,
    TRANSITIONS,
    Trigger,
    allowed_triggers,
    can,
    next_status,
)
from models.domain.statuses import FINAL_STATUSES, REPORT_ONLY_STATUSES, Status

S, T = Status, Trigger
PRE_CONTRACT = [S.OFFERS_RECEIVED, S.CREDIT_CHECK_COMPLETED, S.OFFER_SELECTED, S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED]

# Trigger -> {source: target}; written out independently of the module's table.
EXPECTED = {
    T.START: {None: S.CREATED},
    T.SEND_CONTACT: {S.CREATED: S.TOKEN_SENT, S.TOKEN_SENT: S.TOKEN_SENT},
    T.VALIDATE_TOKEN: {S.TOKEN_SENT: S.TOKEN_VALIDATED},
    T.START_ANALYSIS: {
        s: S.CREDIT_ANALYSIS_IN_PROGRESS
        for s in [S.TOKEN_VALIDATED, S.OFFER_SELECTED, S.PRE_ACCEPTED, S.BANK_DATA_SUBMITTED]
    },
    T.CREDIT_CHECK_DONE: {S.CREDIT_ANALYSIS_IN_PROGRESS: S.CREDIT_CHECK_COMPLETED},
    T.OFFERS_STORED: {S.CREDIT_CHECK_COMPLETED: S.OFFERS_RECEIVED},
    T.ANALYSIS_REJECTED: {S.CREDIT_ANALYSIS_IN_PROGRESS: S.REJECTED},
    T.ANALYSIS_FAILED: {S.CREDIT_ANALYSIS_IN_PROGRESS: S.CREDIT_ANALYSIS_FAILED},
    T.PAYROLL_RETRY_SCHEDULED: {S.CREDIT_ANALYSIS_IN_PROGRESS: S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY},
    T.AUTO_RETRY: {S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY: S.CREDIT_ANALYSIS_IN_PROGRESS},
    T.RETRY_ANALYSIS: {S.CREDIT_ANALYSIS_FAILED: S.CREDIT_ANALYSIS_IN_PROGRESS},
    T.SELECT_OFFER: {s: S.OFFER_SELECTED for s in PRE_CONTRACT},
    T.PRE_ACCEPT: {S.OFFER_SELECTED: S.PRE_ACCEPTED},
    T.SUBMIT_BANK_DATA: {S.PRE_ACCEPTED: S.BANK_DATA_SUBMITTED, S.BANK_DATA_SUBMITTED: S.BANK_DATA_SUBMITTED},
    T.START_CONTRACT: {S.BANK_DATA_SUBMITTED: S.CONTRACT_GENERATION_IN_PROGRESS},
    T.CONTRACT_READY: {S.CONTRACT_GENERATION_IN_PROGRESS: S.CONTRACT_GENERATED},
    T.CONTRACT_FAILED: {S.CONTRACT_GENERATION_IN_PROGRESS: S.BANK_DATA_SUBMITTED},
    T.SIGNATURE_STARTED: {S.CONTRACT_GENERATED: S.AWAITING_SIGNATURE},
    T.SIGNATURE_OK: {S.AWAITING_SIGNATURE: S.SIGNED},
    T.SIGNATURE_INVALID: {S.AWAITING_SIGNATURE: S.SIGNATURE_FAILED},
    T.SIGNATURE_EXPIRED: {S.CONTRACT_GENERATED: S.EXPIRED, S.AWAITING_SIGNATURE: S.EXPIRED},
    T.PROPOSAL_EXPIRED: {
        s: S.EXPIRED for s in [S.CREATED, S.TOKEN_SENT, S.TOKEN_VALIDATED, *PRE_CONTRACT, S.CREDIT_ANALYSIS_FAILED]
    },
    T.CANCEL: {S.CONTRACT_GENERATED: S.CANCELED, S.AWAITING_SIGNATURE: S.CANCELED},
    T.FRAUD_REVIEW: {S.SIGNED: S.PENDING_ANALYSIS},
    T.FRAUD_APPROVED: {S.PENDING_ANALYSIS: S.ANALYSIS_APPROVED},
    T.FRAUD_REPROVED: {S.PENDING_ANALYSIS: S.ANALYSIS_REPROVED},
    T.ENDORSEMENT_DEFERRED: {S.SIGNED: S.ERROR, S.ANALYSIS_APPROVED: S.ERROR},
    T.DISBURSE: {s: S.DISBURSED for s in [S.SIGNED, S.ANALYSIS_APPROVED, S.ERROR]},
    T.DISBURSEMENT_FAILS: {s: S.DISBURSEMENT_FAILED for s in [S.SIGNED, S.ANALYSIS_APPROVED, S.ERROR]},
    T.CUSTOMER_WITHDRAWAL: {S.DISBURSED: S.CANCELLED_BY_USER},
}
PROMOTIONAL_SOURCES = {S.OFFERS_RECEIVED, S.CREDIT_CHECK_COMPLETED}
SIGNED_LATER = {
    S.SIGNED,
    S.PENDING_ANALYSIS,
    S.ANALYSIS_APPROVED,
    S.ANALYSIS_REPROVED,
    S.ERROR,
    S.DISBURSEMENT_FAILED,
    S.DISBURSED,
    S.CANCELLED_BY_USER,
}


def expected_refusal(current, trigger):
    """(error_code, http_status) the issue prescribes for a refused move."""
    if trigger is T.START_ANALYSIS:
        if current in (S.CREDIT_ANALYSIS_IN_PROGRESS, S.PAYROLL_SYSTEM_FAILED_AWAITING_RETRY):
            return None, 409
        # Spec 409 table, credit-analysis: "CREDIT_ANALYSIS_ALREADY_COMPLETED | result already
        # available": offers, or a rejection.
        if current in PROMOTIONAL_SOURCES or current is S.REJECTED:
            return "CREDIT_ANALYSIS_ALREADY_COMPLETED", 409
        return "INVALID_STATUS_FOR_CREDIT_ANALYSIS", 409
    if trigger in (T.SELECT_OFFER, T.PRE_ACCEPT):
        return ("SIGNED_CONTRACT_EXISTS" if current in SIGNED_LATER else "INVALID_STATUS_FOR_PREACCEPT"), 409
    if trigger is T.START_CONTRACT:
        if current is S.CONTRACT_GENERATION_IN_PROGRESS:
            return "CONTRACT_GENERATION_IN_PROGRESS", 409
        if current in (S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE):
            return "CONTRACT_ALREADY_GENERATED", 409
        if current in (S.SIGNED, S.PENDING_ANALYSIS, S.ANALYSIS_APPROVED, S.ERROR):
            return "SIGNED_CONTRACT_EXISTS", 409
        if current in (
            S.DISBURSED,
            S.DISBURSEMENT_FAILED,
            S.CANCELLED_BY_USER,
            S.REJECTED,
            S.SIGNATURE_FAILED,
            S.ANALYSIS_REPROVED,
            S.CANCELED,
            S.EXPIRED,
        ):
            return "PROPOSAL_FINALIZED", 409
        return "INVALID_STATUS_FOR_CONTRACT", 409
    if trigger is T.CANCEL:
        return "INVALID_STATUS_FOR_CANCEL", 400
    if trigger is T.SUBMIT_BANK_DATA:
        return "INVALID_STATUS_FOR_BANKING_DATA", 400
    if trigger is T.RETRY_ANALYSIS:
        return "ANALYSIS_NOT_RETRYABLE", 400
    return "INVALID_STATUS_TRANSITION", 409


ALL_CURRENT = [None, *Status]


@pytest.mark.parametrize("trigger", list(Trigger), ids=str)
@pytest.mark.parametrize("current", ALL_CURRENT, ids=lambda s: str(s) if s else "NONE")
def test_every_status_and_trigger(current, trigger):
    target = EXPECTED[trigger].get(current)
    if target is not None:
        assert next_status(current, trigger) is target
        assert can(current, trigger)
        assert trigger in allowed_triggers(current)
        return
    if trigger is T.START_ANALYSIS and current in PROMOTIONAL_SOURCES:
        assert next_status(current, trigger, promotional_eligible=True) is S.CREDIT_ANALYSIS_IN_PROGRESS
    with pytest.raises(InvalidTransition) as caught:
        next_status(current, trigger)
    code, http_status = expected_refusal(current, trigger)
    assert caught.value.error_code == code
    assert caught.value.http_status == http_status
    assert caught.value.trigger is trigger
    if trigger is T.CANCEL:  # the cancel route's documented body names the required statuses instead
        assert caught.value.details == {
            "currentStatus": current.value if current else None,
            "requiredStatus": "CONTRACT_GENERATED or AWAITING_SIGNATURE",
        }
    else:
        assert caught.value.details["trigger"] == trigger.value
        assert caught.value.details["currentStatus"] == (current.value if current else None)
    assert not can(current, trigger)


def test_table_has_every_trigger_and_matches_expectation_sizes():
    assert set(TRANSITIONS) == set(Trigger) == set(EXPECTED)
    for trigger, rule in TRANSITIONS.items():
        assert set(rule.sources) == set(EXPECTED[trigger]), trigger


def test_analysis_in_progress_message_suggests_waiting_30_seconds():
    with pytest.raises(InvalidTransition) as caught:
        next_status(S.CREDIT_ANALYSIS_IN_PROGRESS, T.START_ANALYSIS, promotional_eligible=True)
    assert caught.value.error_code is None
    assert "30 seconds" in caught.value.message


def test_promotional_guard_false_is_refused_like_missing():
    with pytest.raises(InvalidTransition) as caught:
        next_status(S.OFFERS_RECEIVED, T.START_ANALYSIS, promotional_eligible=False)
    assert caught.value.error_code == "CREDIT_ANALYSIS_ALREADY_COMPLETED"
    assert T.START_ANALYSIS in allowed_triggers(S.OFFERS_RECEIVED, promotional_eligible=True)
    assert T.START_ANALYSIS not in allowed_triggers(S.OFFERS_RECEIVED)


def test_report_only_statuses_are_never_a_target_nor_a_source():
    targets = {rule.target for rule in TRANSITIONS.values()}
    assert not targets & REPORT_ONLY_STATUSES
    for status in REPORT_ONLY_STATUSES:
        assert allowed_triggers(status) == set()


def test_final_statuses_have_no_way_out_and_others_do():
    for status in Status:
        leaves = allowed_triggers(status, promotional_eligible=True)
        if status in FINAL_STATUSES or status in REPORT_ONLY_STATUSES:
            assert leaves == set(), status
        else:
            assert leaves, status


def test_happy_path_walk():
    path = [
        (T.START, S.CREATED),
        (T.SEND_CONTACT, S.TOKEN_SENT),
        (T.VALIDATE_TOKEN, S.TOKEN_VALIDATED),
        (T.START_ANALYSIS, S.CREDIT_ANALYSIS_IN_PROGRESS),
        (T.CREDIT_CHECK_DONE, S.CREDIT_CHECK_COMPLETED),
        (T.OFFERS_STORED, S.OFFERS_RECEIVED),
        (T.SELECT_OFFER, S.OFFER_SELECTED),
        (T.PRE_ACCEPT, S.PRE_ACCEPTED),
        (T.SUBMIT_BANK_DATA, S.BANK_DATA_SUBMITTED),
        (T.START_CONTRACT, S.CONTRACT_GENERATION_IN_PROGRESS),
        (T.CONTRACT_READY, S.CONTRACT_GENERATED),
        (T.SIGNATURE_STARTED, S.AWAITING_SIGNATURE),
        (T.SIGNATURE_OK, S.SIGNED),
        (T.DISBURSE, S.DISBURSED),
    ]
    current = None
    for trigger, expected in path:
        current = next_status(current, trigger)
        assert current is expected


def test_accepts_plain_strings_from_storage():
    assert next_status("CREATED", "SEND_CONTACT") is S.TOKEN_SENT


def test_cancel_refusal_is_the_routes_documented_body():
    with pytest.raises(InvalidTransition) as caught:
        next_status(S.SIGNED, T.CANCEL)
    assert (caught.value.http_status, caught.value.error_code, caught.value.message) == (
        400,
        "INVALID_STATUS_FOR_CANCEL",
        "Proposal in status SIGNED cannot be canceled; allowed only in CONTRACT_GENERATED or AWAITING_SIGNATURE",
    )


def test_disbursable_statuses_are_the_disburse_sources():
    assert {S.SIGNED, S.ANALYSIS_APPROVED, S.ERROR} == DISBURSABLE_STATUSES
    assert all(can(status, T.DISBURSEMENT_FAILS) for status in DISBURSABLE_STATUSES)
