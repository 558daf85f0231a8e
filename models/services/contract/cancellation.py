"""Cancel before disbursement (POST cancel) and the customer's withdrawal after it."""
from __future__ import annotations

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.lifecycles import ContractStatus
from models.domain.status_machine import Trigger
from models.services.platform import proposal_status as status
from models.services.contract.generation import expiry_key, latest_contract
from models.services.platform.unit_of_work import cancel_scheduled, enqueue


def cancel(proposal: Proposal) -> None:
    """CANCELED (inside unit_of_work); the funding application is cancelled afterwards, best effort.

    Outside CONTRACT_GENERATED and AWAITING_SIGNATURE the state machine refuses with the route's
    documented 400 (INVALID_STATUS_FOR_CANCEL, currentStatus and requiredStatus) before any write.
    """
    contract = latest_contract(proposal.id)
    status.move(proposal, Trigger.CANCEL)
    if contract is not None:
        Contract.update(status=ContractStatus.CANCELED, updated_at=now()).where(Contract.id == contract.id).execute()
        cancel_scheduled(expiry_key(contract.id))
        enqueue("release_contract", contract.id)


def withdraw(proposal: Proposal, *, source: str, reason: str) -> Contract:
    """DISBURSED -> CANCELLED_BY_USER (the customer's withdrawal right), inside unit_of_work."""
    contract = latest_contract(proposal.id)
    status.move(proposal, Trigger.CUSTOMER_WITHDRAWAL, source=source, details={"reason": reason})
    Contract.update(status=ContractStatus.CANCELLED_BY_USER,
                    updated_at=now()).where(Contract.id == contract.id).execute()
    return Contract.get_by_id(contract.id)
