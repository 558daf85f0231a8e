"""One test per branch of the start-proposal decision, plus order checks."""

import pytest

from models.domain.start_decision import BLOCK, CREATE, RETURN_EXISTING, CustomerHistory, ProposalSnapshot, decide_start
from models.domain.statuses import ACTIVE_STATUSES, ASYNC_PROCESSING_STATUSES, Status

S = Status
ME, OTHER = "partner-a", "partner-b"


def snap(id_, status, origin=ME, **kwargs):
    return ProposalSnapshot(id_, status, origin, **kwargs)


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


@pytest.mark.parametrize("origin", [ME, OTHER])
def test_awaiting_signature_with_valid_window_is_contract_active(origin):
    decision = decide(
        snap("c", S.CONTRACT_GENERATED), snap("s", S.AWAITING_SIGNATURE, origin, has_valid_signature=True)
    )
    assert_block(decision, "CONTRACT_ACTIVE", *seen("s", S.AWAITING_SIGNATURE, origin))


@pytest.mark.parametrize(
    "proposal",
    [
        snap("c", S.CONTRACT_GENERATED),
        snap("c", S.AWAITING_SIGNATURE, has_valid_signature=False),
        snap("c", S.BANK_DATA_SUBMITTED, OTHER, has_generated_contract=True),
    ],
)
def test_generated_contract_exists(proposal):
    assert_block(decide(proposal), "CONTRACT_EXISTS", *seen("c", proposal.status, proposal.origin))


def test_generated_contract_flag_ignored_once_closed():
    assert decide(snap("c", S.EXPIRED, has_generated_contract=True)).action == CREATE


@pytest.mark.parametrize(
    "status", sorted(ACTIVE_STATUSES - ASYNC_PROCESSING_STATUSES - {S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE})
)
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
    "blocker,code",
    [
        (snap("b", S.ANALYSIS_APPROVED, OTHER), "PROPOSAL_AWAITING_DISBURSEMENT"),
        (snap("b", S.DISBURSEMENT_FAILED, OTHER), "PROPOSAL_FINALIZED"),
        (snap("b", S.PENDING_ANALYSIS, OTHER), "PROPOSAL_PENDING_FRAUD_ANALYSIS"),
        (snap("b", S.AWAITING_SIGNATURE, OTHER, has_valid_signature=True), "CONTRACT_ACTIVE"),
        (snap("b", S.CONTRACT_GENERATED, OTHER), "CONTRACT_EXISTS"),
        (snap("b", S.DISBURSED, OTHER), "PROPOSAL_FINALIZED"),
    ],
)
def test_another_origins_blocking_proposal_keeps_the_code_and_hides_its_id_and_status(blocker, code):
    # Given the CPF's blocking proposal belongs to another origin
    decision = decide(blocker, recontracting=False)
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
