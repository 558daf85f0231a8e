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


def seen(id_, status, origin):
    """What a 409 may show the requesting origin (ME) of the blocking proposal: all of its own,
    nothing of another origin's."""
    return (id_, status) if origin == ME else (None, None)


def test_no_history_creates():
    assert decide().action == CREATE


def test_1_analysis_approved_awaits_disbursement_even_before_disbursement_failed():
    decision = decide(snap("f", S.DISBURSEMENT_FAILED), snap("a", S.ANALYSIS_APPROVED, OTHER), recontracting=True)
    assert_block(decision, "PROPOSAL_AWAITING_DISBURSEMENT")  # another origin's: no id, no status


def test_2_disbursement_failed_finalized_before_other_blocks():
    decision = decide(snap("p", S.PENDING_ANALYSIS), snap("f", S.DISBURSEMENT_FAILED, OTHER), recontracting=True)
    assert_block(decision, "PROPOSAL_FINALIZED")


@pytest.mark.parametrize("origin", [ME, OTHER])
def test_pending_fraud_analysis_blocks(origin):
    decision = decide(snap("p", S.PENDING_ANALYSIS, origin))
    assert_block(decision, "PROPOSAL_PENDING_FRAUD_ANALYSIS", *seen("p", S.PENDING_ANALYSIS, origin))


@pytest.mark.parametrize("status", sorted(ASYNC_PROCESSING_STATUSES))
@pytest.mark.parametrize("origin", [ME, OTHER])
def test_async_processing_blocks_for_any_origin(status, origin):
    assert_block(decide(snap("x", status, origin)), "PROPOSAL_PROCESSING_IN_PROGRESS", *seen("x", status, origin))


@pytest.mark.parametrize("status", sorted(CONTRACT_PENDING_SIGNATURE))
@pytest.mark.parametrize("origin", [ME, OTHER])
def test_a_generated_contract_awaiting_its_signature_exists(status, origin):
    # Spec, 409 codes of POST /proposals/start: "CONTRACT_EXISTS | contract already generated for
    # the CPF". Not yet signed, it holds no "valid digital signature": never CONTRACT_ACTIVE.
    assert_block(decide(snap("c", status, origin), recontracting=True), "CONTRACT_EXISTS", *seen("c", status, origin))


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
    assert_block(decision, "CONTRACT_ACTIVE", *seen("s", status, origin))


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


@pytest.mark.parametrize("origin", [ME, OTHER])
@pytest.mark.parametrize("status", [S.SIGNED, S.DISBURSED, S.ERROR])
def test_4_recontracting_off_is_finalized_with_the_signed_proposal(status, origin):
    decision = decide(snap("old", S.EXPIRED), snap("signed", status, origin), recontracting=False, overdue=10)
    assert_block(decision, "PROPOSAL_FINALIZED", *seen("signed", status, origin))


@pytest.mark.parametrize(
    "blocker,recontracting,code",
    [
        (snap("b", S.ANALYSIS_APPROVED, OTHER), False, "PROPOSAL_AWAITING_DISBURSEMENT"),
        (snap("b", S.DISBURSEMENT_FAILED, OTHER), False, "PROPOSAL_FINALIZED"),
        (snap("b", S.PENDING_ANALYSIS, OTHER), False, "PROPOSAL_PENDING_FRAUD_ANALYSIS"),
        (snap("b", S.AWAITING_SIGNATURE, OTHER), False, "CONTRACT_EXISTS"),
        (snap("b", S.CONTRACT_GENERATED, OTHER), False, "CONTRACT_EXISTS"),
        (snap("b", S.DISBURSED, OTHER), False, "PROPOSAL_FINALIZED"),
        (snap("b", S.SIGNED, OTHER), True, "CONTRACT_ACTIVE"),
    ],
)
def test_another_origins_blocking_proposal_keeps_the_code_and_hides_its_id_and_status(blocker, recontracting, code):
    # Given the CPF's blocking proposal belongs to another origin
    decision = decide(blocker, recontracting=recontracting)
    # Then the requesting origin learns why (the code), not that origin's proposal id or status
    assert_block(decision, code, None, None)


def test_5_delinquency_blocks_recontracting():
    decision = decide(snap("d", S.DISBURSED), recontracting=True, overdue=17)
    assert_block(decision, "DELINQUENT_CONTRACT")
    assert decision.longest_overdue_days == 17


def test_recontracting_without_delinquency_creates():
    assert decide(snap("d", S.DISBURSED), recontracting=True, overdue=0).action == CREATE


def test_statuses_from_storage_as_strings():
    assert_block(decide(snap("a", "ANALYSIS_APPROVED")), "PROPOSAL_AWAITING_DISBURSEMENT", "a", S.ANALYSIS_APPROVED)
