"""One test per branch of the start-proposal decision, plus order checks."""

import pytest

from models.domain.start_decision import (
    BLOCK,
    CREATE,
    RETURN_EXISTING,
    CustomerHistory,
    ProposalSnapshot,
    StartDecision,
    decide_start,
)
from models.domain.statuses import (
    ACTIVE_STATUSES,
    ASYNC_PROCESSING_STATUSES,
    CONTRACT_PENDING_SIGNATURE,
    SIGNED_UNSETTLED_STATUSES,
    Status,
    holds_active_contract,
)

S = Status
ME, OTHER = "partner-a", "partner-b"


def snap(id_, status, origin=ME):
    return ProposalSnapshot(id_, status, origin)


def decide(*proposals, recontracting=False, overdue=0, origin=ME):
    return decide_start(CustomerHistory(list(proposals), recontracting, overdue), origin)


def assert_block(decision, code, proposal_id=None, status=None):
    assert decision.action == BLOCK
    assert decision.error_code == code
    assert decision.message
    assert decision.proposal_id == proposal_id
    assert decision.status == status


def test_no_history_creates():
    assert decide().action == CREATE


def test_1_analysis_approved_awaits_disbursement_even_before_disbursement_failed():
    decision = decide(snap("f", S.DISBURSEMENT_FAILED), snap("a", S.ANALYSIS_APPROVED, OTHER), recontracting=True)
    assert_block(decision, "PROPOSAL_AWAITING_DISBURSEMENT", "a", S.ANALYSIS_APPROVED)


def test_2_disbursement_failed_finalized_before_other_blocks():
    decision = decide(snap("p", S.PENDING_ANALYSIS), snap("f", S.DISBURSEMENT_FAILED, OTHER), recontracting=True)
    assert_block(decision, "PROPOSAL_FINALIZED", "f", S.DISBURSEMENT_FAILED)


def test_pending_fraud_analysis_blocks():
    assert_block(
        decide(snap("p", S.PENDING_ANALYSIS, OTHER)), "PROPOSAL_PENDING_FRAUD_ANALYSIS", "p", S.PENDING_ANALYSIS
    )


@pytest.mark.parametrize("status", sorted(ASYNC_PROCESSING_STATUSES))
@pytest.mark.parametrize("origin", [ME, OTHER])
def test_async_processing_blocks_for_any_origin(status, origin):
    assert_block(decide(snap("x", status, origin)), "PROPOSAL_PROCESSING_IN_PROGRESS", "x", status)


@pytest.mark.parametrize("status", sorted(CONTRACT_PENDING_SIGNATURE))
@pytest.mark.parametrize("origin", [ME, OTHER])
def test_a_generated_contract_awaiting_its_signature_exists(status, origin):
    # Spec, 409 codes of POST /proposals/start: "CONTRACT_EXISTS | contract already generated for
    # the CPF". Not yet signed, it holds no "valid digital signature": never CONTRACT_ACTIVE.
    assert_block(decide(snap("c", status, origin), recontracting=True), "CONTRACT_EXISTS", "c", status)


def test_a_contract_the_watchdog_abandoned_is_no_contract():
    # Spec: CONTRACT_EXISTS is a "contract already generated"; the watchdog put the proposal back
    # in BANK_DATA_SUBMITTED with its generation never finished.
    assert decide(snap("c", S.BANK_DATA_SUBMITTED, OTHER)).action == CREATE
    assert decide(snap("c", S.BANK_DATA_SUBMITTED)) == StartDecision(RETURN_EXISTING, existing_id="c")


@pytest.mark.parametrize("status", [S.SIGNED, S.ERROR])
@pytest.mark.parametrize("origin", [ME, OTHER])
def test_a_signed_unsettled_contract_is_contract_active_when_recontracting_is_on(status, origin):
    # Spec, 409 codes of POST /proposals/start: "CONTRACT_ACTIVE | active contract with valid
    # digital signature for the CPF" (holds_active_contract, as POST contract decides it).
    decision = decide(snap("old", S.EXPIRED), snap("s", status, origin), recontracting=True, overdue=10)
    assert_block(decision, "CONTRACT_ACTIVE", "s", status)


def test_contract_active_is_the_family_post_contract_refuses_with():
    assert {s for s in Status if holds_active_contract(s)} == SIGNED_UNSETTLED_STATUSES


@pytest.mark.parametrize("status", sorted(ACTIVE_STATUSES - ASYNC_PROCESSING_STATUSES - CONTRACT_PENDING_SIGNATURE))
def test_active_proposal_of_same_origin_is_returned(status):
    decision = decide(snap("old", S.EXPIRED), snap("mine", status), snap("theirs", S.TOKEN_SENT, OTHER))
    assert decision.action == RETURN_EXISTING and decision.existing_id == "mine"


def test_returning_existing_wins_over_recontracting_rules():
    decision = decide(snap("mine", S.OFFERS_RECEIVED), snap("d", S.DISBURSED), recontracting=False)
    assert decision.action == RETURN_EXISTING


def test_active_proposal_of_another_origin_does_not_block():
    assert decide(snap("theirs", S.OFFERS_RECEIVED, OTHER)).action == CREATE


@pytest.mark.parametrize(
    "status", [S.REJECTED, S.EXPIRED, S.CANCELED, S.SIGNATURE_FAILED, S.ANALYSIS_REPROVED, S.CANCELLED_BY_USER]
)
def test_3_only_closed_history_creates(status):
    assert decide(snap("old", status)).action == CREATE


@pytest.mark.parametrize("status", [S.SIGNED, S.DISBURSED, S.ERROR])
def test_4_recontracting_off_is_finalized_with_the_signed_proposal(status):
    decision = decide(snap("old", S.EXPIRED), snap("signed", status, OTHER), recontracting=False, overdue=10)
    assert_block(decision, "PROPOSAL_FINALIZED", "signed", status)


def test_5_delinquency_blocks_recontracting():
    decision = decide(snap("d", S.DISBURSED), recontracting=True, overdue=17)
    assert_block(decision, "DELINQUENT_CONTRACT")
    assert decision.longest_overdue_days == 17


def test_recontracting_without_delinquency_creates():
    assert decide(snap("d", S.DISBURSED), recontracting=True, overdue=0).action == CREATE


def test_statuses_from_storage_as_strings():
    assert_block(decide(snap("a", "ANALYSIS_APPROVED")), "PROPOSAL_AWAITING_DISBURSEMENT", "a", S.ANALYSIS_APPROVED)
