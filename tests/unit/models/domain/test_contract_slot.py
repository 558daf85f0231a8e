"""One active contract per CPF: which other proposal keeps a contract from being made or signed,
and the contract route's 409 code it answers (one meaning each, spec: "CONTRACT_ACTIVE: active
contract with valid digital signature"; "CONTRACT_GENERATION_IN_PROGRESS, CONTRACT_ALREADY_GENERATED
... as named")."""

import pytest

from models.domain.contract_slot import CANDIDATE_STATUSES, signed_contract_conflicts, slot_refusal
from models.domain.statuses import FINAL_STATUSES, PRE_CONTRACT_STATUSES, SIGNED_UNSETTLED_STATUSES, Status

S = Status


@pytest.mark.parametrize("window_open", [True, False])
@pytest.mark.parametrize("signed_after", [True, False])
def test_a_contract_being_generated_is_generation_in_progress(window_open, signed_after):
    code = slot_refusal(
        S.CONTRACT_GENERATION_IN_PROGRESS, signature_window_open=window_open, signed_after_our_analysis=signed_after
    )
    assert code == "CONTRACT_GENERATION_IN_PROGRESS"


@pytest.mark.parametrize("window_open", [True, False])
@pytest.mark.parametrize("signed_after", [True, False])
def test_a_signed_unsettled_contract_is_an_active_contract(window_open, signed_after):
    for status in SIGNED_UNSETTLED_STATUSES:
        code = slot_refusal(status, signature_window_open=window_open, signed_after_our_analysis=signed_after)
        assert code == "CONTRACT_ACTIVE"


@pytest.mark.parametrize("status", [S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE])
def test_a_signable_contract_is_already_generated_only_while_its_window_is_open(status):
    assert slot_refusal(status, signature_window_open=True, signed_after_our_analysis=False) == (
        "CONTRACT_ALREADY_GENERATED"
    )
    assert slot_refusal(status, signature_window_open=False, signed_after_our_analysis=True) is None


def test_a_disbursed_contract_counts_only_when_signed_after_our_analysis():
    assert slot_refusal(S.DISBURSED, signature_window_open=False, signed_after_our_analysis=True) == "CONTRACT_ACTIVE"
    assert slot_refusal(S.DISBURSED, signature_window_open=False, signed_after_our_analysis=False) is None


@pytest.mark.parametrize("status", sorted(FINAL_STATUSES | PRE_CONTRACT_STATUSES))
def test_closed_proposals_and_proposals_without_a_contract_never_refuse(status):
    assert slot_refusal(status, signature_window_open=True, signed_after_our_analysis=True) is None
    assert status not in CANDIDATE_STATUSES


def test_at_signature_only_a_contract_signed_first_conflicts():
    # Another one still awaiting its signature does not: the first valid signature wins.
    assert not signed_contract_conflicts(S.AWAITING_SIGNATURE, signed_after_our_analysis=True)
    assert signed_contract_conflicts(S.SIGNED, signed_after_our_analysis=False)
    assert signed_contract_conflicts(S.DISBURSED, signed_after_our_analysis=True)
    assert not signed_contract_conflicts(S.DISBURSED, signed_after_our_analysis=False)
