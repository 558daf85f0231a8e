"""The small lifecycles: values are the stored strings, families are what the code tests."""

import json

import pytest

from models.domain.lifecycles import (
    FINAL_DELIVERY_STATUSES,
    FINISHED_OUTCOMES,
    AnalysisKind,
    AnalysisOutcome,
    BankDataSubmissionState,
    ContractStatus,
    DeliveryStatus,
    DisbursementStatus,
    MessageDeliveryStatus,
    SimulationStatus,
)
from models.domain.signature import OPEN_SIGNATURE_STATUSES, SignatureStatus
from models.domain.statuses import Status

STORED = {
    ContractStatus: "CONTRACT_GENERATION_IN_PROGRESS CONTRACT_GENERATED SIGNED SIGNATURE_FAILED EXPIRED CANCELED "
    "ANALYSIS_REPROVED DISBURSEMENT_FAILED ISSUED CANCELLED_BY_USER FAILED",
    AnalysisOutcome: "IN_PROGRESS APPROVED REJECTED FAILED AWAITING_RETRY",
    AnalysisKind: "initial reanalysis promotional retry",
    SimulationStatus: "PENDING DONE FAILED",
    DeliveryStatus: "PENDING DELIVERED FAILED SKIPPED",
    BankDataSubmissionState: "PENDING DONE ABANDONED SUPERSEDED",
    DisbursementStatus: "PENDING REQUESTED PAID FAILED",
    MessageDeliveryStatus: "QUEUED SENT FAILED",
}


@pytest.mark.parametrize("lifecycle", list(STORED), ids=lambda e: e.__name__)
def test_values_are_the_stored_strings(lifecycle):
    assert [member.value for member in lifecycle] == STORED[lifecycle].split()
    for member in lifecycle:
        # Rows, JSON bodies and set lookups keep working with the plain strings.
        assert member == member.value and str(member) == member.value and f"{member}" == member.value
        assert member.value in {member} and member in {member.value}
        assert json.dumps(member) == f'"{member.value}"'
        if lifecycle is not AnalysisKind:  # kinds were always stored lower case
            assert member.name == member.value


def test_contract_statuses_mirror_the_proposal_statuses_they_share():
    own = {ContractStatus.ISSUED, ContractStatus.FAILED}
    assert {member.value for member in ContractStatus if member not in own} <= {status.value for status in Status}


def test_families():
    assert {AnalysisOutcome.APPROVED, AnalysisOutcome.REJECTED, AnalysisOutcome.FAILED} == FINISHED_OUTCOMES
    assert set(DeliveryStatus) - {DeliveryStatus.PENDING} == FINAL_DELIVERY_STATUSES
    assert {SignatureStatus.PENDING, SignatureStatus.IN_PROGRESS} == OPEN_SIGNATURE_STATUSES
    assert "IN_PROGRESS" in OPEN_SIGNATURE_STATUSES and "SIGNED" not in OPEN_SIGNATURE_STATUSES
