"""Cancel before disbursement (POST cancel) and the customer's withdrawal after it."""

from __future__ import annotations

from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.errors import DomainError, NotFound
from models.domain.lifecycles import ContractStatus
from models.domain.status_machine import Trigger
from models.domain.statuses import Status
from models.services.contract.generation import expiry_key, latest_contract
from models.services.partners.ownership import owned_proposal
from models.services.platform import proposal_status as status
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal, locked_proposal_or_none
from models.services.platform.unit_of_work import cancel_scheduled, enqueue, unit_of_work


def cancel_proposal(origin: str, proposal_id: str) -> Proposal:
    """POST cancel: the origin's proposal, locked, to CANCELED in one transaction; returns it."""
    with unit_of_work():
        proposal = owned_proposal(origin, proposal_id, lock=True)
        cancel(proposal)
    return proposal


def cancel(proposal: Proposal, *, source: str = "http", details: dict | None = None) -> None:
    """CANCELED (inside unit_of_work); the funding application is cancelled afterwards, best effort.
    ``source`` and ``details`` (a reason) go on the status change.

    Outside CONTRACT_GENERATED and AWAITING_SIGNATURE the state machine refuses with the route's
    documented 400 (INVALID_STATUS_FOR_CANCEL, currentStatus and requiredStatus) before any write.
    """
    contract = latest_contract(proposal.id)
    status.move(proposal, Trigger.CANCEL, source=source, details=details)
    if contract is not None:
        Contract.update(status=ContractStatus.CANCELED, updated_at=now()).where(Contract.id == contract.id).execute()
        cancel_scheduled(expiry_key(contract.id))
        enqueue(ActorName.RELEASE_CONTRACT, contract.id)


def withdraw_contract(issuer_application_id: str, *, reason: str) -> str:
    """The funding partner's WITHDRAWAL event for the contract with that CCB number, in one
    transaction under the proposal's lock; returns the proposal id.

    A proposal already CANCELLED_BY_USER is left as it is (a repeated event). NotFound (404
    ``CONTRACT_NOT_FOUND``) for an unknown number; a status that refuses the withdrawal is a 409
    naming the status it found.
    """
    contract = Contract.get_or_none(Contract.issuer_application_id == issuer_application_id)
    if contract is None:
        raise NotFound("Unknown contract", error_code="CONTRACT_NOT_FOUND")
    with unit_of_work():
        proposal = locked_proposal(contract.proposal_id)
        if proposal.status != Status.CANCELLED_BY_USER.value:
            try:
                withdraw(proposal, source="funding", reason=reason, contract=contract)
            except DomainError as error:
                raise DomainError(
                    error.message,
                    error_code=error.error_code or "INVALID_STATUS",
                    http_status=409,
                    details={"currentStatus": proposal.status},
                ) from error
    return contract.proposal_id


def withdraw_proposal(proposal_id: str, *, reason: str) -> Contract:
    """Ops (`contracts withdraw`): the proposal's latest contract withdrawn, in one transaction under
    the proposal's lock. NotFound when there is no such proposal."""
    with unit_of_work():
        proposal = locked_proposal_or_none(proposal_id)
        if proposal is None:
            raise NotFound(f"no proposal {proposal_id}", error_code="PROPOSAL_NOT_FOUND")
        return withdraw(proposal, source="ops", reason=reason)


def withdraw(proposal: Proposal, *, source: str, reason: str, contract: Contract | None = None) -> Contract:
    """DISBURSED -> CANCELLED_BY_USER (the customer's withdrawal right), inside unit_of_work.

    ``contract`` is the contract withdrawn (the funding partner names it by its CCB number); ops
    name only the proposal, whose latest contract it then is.
    """
    contract = contract or latest_contract(proposal.id)
    status.move(proposal, Trigger.CUSTOMER_WITHDRAWAL, source=source, details={"reason": reason})
    Contract.update(status=ContractStatus.CANCELLED_BY_USER, updated_at=now()).where(
        Contract.id == contract.id
    ).execute()
    return Contract.get_by_id(contract.id)
