"""One active contract per CPF: which other proposal keeps a contract from being made or signed."""

import pytest

from models.domain.contract_slot import CANDIDATE_STATUSES, holds_contract_slot, signed_contract_conflicts
from models.domain.statuses import FINAL_STATUSES, PRE_CONTRACT_STATUSES, SIGNED_UNSETTLED_STATUSES, Status

S = Status


@pytest.mark.parametrize("window_open", [True, False])
@pytest.mark.parametrize("signed_after", [True, False])
def test_a_contract_being_generated_or_signed_and_unsettled_always_holds_the_slot(window_open, signed_after):
    for status in (S.CONTRACT_GENERATION_IN_PROGRESS, *SIGNED_UNSETTLED_STATUSES):
        assert holds_contract_slot(status, signature_window_open=window_open, signed_after_our_analysis=signed_after)


@pytest.mark.parametrize("status", [S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE])
def test_a_signable_contract_holds_the_slot_only_while_its_window_is_open(status):
    assert holds_contract_slot(status, signature_window_open=True, signed_after_our_analysis=False)
    assert not holds_contract_slot(status, signature_window_open=False, signed_after_our_analysis=True)


def test_a_disbursed_contract_counts_only_when_signed_after_our_analysis():
    assert holds_contract_slot(S.DISBURSED, signature_window_open=False, signed_after_our_analysis=True)
    assert not holds_contract_slot(S.DISBURSED, signature_window_open=False, signed_after_our_analysis=False)


@pytest.mark.parametrize("status", sorted(FINAL_STATUSES | PRE_CONTRACT_STATUSES))
def test_closed_proposals_and_proposals_without_a_contract_never_hold_it(status):
    assert not holds_contract_slot(status, signature_window_open=True, signed_after_our_analysis=True)
    assert status not in CANDIDATE_STATUSES


def test_at_signature_only_a_contract_signed_first_conflicts():
    # Another one still awaiting its signature does not: the first valid signature wins.
    assert not signed_contract_conflicts(S.AWAITING_SIGNATURE, signed_after_our_analysis=True)
    assert signed_contract_conflicts(S.SIGNED, signed_after_our_analysis=False)
    assert signed_contract_conflicts(S.DISBURSED, signed_after_our_analysis=True)
    assert not signed_contract_conflicts(S.DISBURSED, signed_after_our_analysis=False)
