"""Cancel before disbursement (POST cancel) and the customer's withdrawal after it."""
from __future__ import annotations

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.errors import ValidationFailed
from models.domain.status_machine import Trigger
from models.domain.statuses import Status
from models.services.contract.generation import expiry_key, latest_contract
from models.services.platform import proposal_status as status
from models.services.platform.unit_of_work import cancel_scheduled, enqueue

CANCELABLE = (Status.CONTRACT_GENERATED.value, Status.AWAITING_SIGNATURE.value)


def cancel(proposal: Proposal) -> None:
    """CANCELED (inside unit_of_work); the funding application is cancelled afterwards, best effort."""
    if proposal.status not in CANCELABLE:
        raise ValidationFailed(f"Proposal in status {proposal.status} cannot be canceled; allowed only in "
                               "CONTRACT_GENERATED or AWAITING_SIGNATURE", error_code="INVALID_STATUS_FOR_CANCEL",
                               details={"currentStatus": proposal.status,
                                        "requiredStatus": "CONTRACT_GENERATED or AWAITING_SIGNATURE"})
    contract = latest_contract(proposal.id)
    status.move(proposal, Trigger.CANCEL)
    if contract is not None:
        Contract.update(status=Status.CANCELED.value, updated_at=now()).where(Contract.id == contract.id).execute()
        cancel_scheduled(expiry_key(contract.id))
        enqueue("release_contract", contract.id)


def withdraw(proposal: Proposal, *, source: str, reason: str) -> Contract:
    """DISBURSED -> CANCELLED_BY_USER (the customer's withdrawal right), inside unit_of_work."""
    contract = latest_contract(proposal.id)
    status.move(proposal, Trigger.CUSTOMER_WITHDRAWAL, source=source, details={"reason": reason})
    Contract.update(status=Status.CANCELLED_BY_USER.value, updated_at=now()).where(Contract.id == contract.id).execute()
    return Contract.get_by_id(contract.id)
