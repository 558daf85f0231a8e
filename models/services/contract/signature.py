"""Signature outcome (provider result) and signature expiry at the deadline."""

from __future__ import annotations

from datetime import datetime

from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain import calendar
from models.domain.clock import now, parse_instant
from models.domain.lifecycles import ContractStatus
from models.domain.signature import OPEN_SIGNATURE_STATUSES, SignatureStatus, arrived_in_time, signature_valid
from models.domain.status_machine import Trigger, can
from models.domain.statuses import Status
from models.services.contract import cancellation, signed_version
from models.services.contract.generation import expiry_key
from models.services.contract.one_contract import signed_before
from models.services.money_path import tracking as money_path
from models.services.platform import proposal_status as status
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import lock_customer, locked_proposal, locked_proposal_of_signing_process
from models.services.platform.proposal_clock import proposal_now
from models.services.platform.unit_of_work import cancel_scheduled, enqueue, unit_of_work
from models.settings import ContractSettings, ESignatureSettings

STARTED = "PROCESS_STARTED"
FINISHED = "PROCESS_FINISHED"
RESULT_FIELDS = ("process_result", "authentication_result", "liveness_result", "trust_result")


def _open_contract(process_id: str) -> tuple[Proposal, Contract] | None:
    found = _CPF_OF_PROCESS.first(process_id)
    cpf = found.cpf if found is not None else None  # as scalar() read it
    if cpf is None:
        return None
    lock_customer(cpf)  # before the proposal's lock, like every use case taking both
    proposal = locked_proposal_of_signing_process(process_id)
    if proposal is None:
        return None
    contract = Contract.get(Contract.unico_process_id == process_id)  # read under the proposal's lock
    if proposal.status != Status.AWAITING_SIGNATURE.value or contract.signature_status not in OPEN_SIGNATURE_STATUSES:
        return None  # duplicate or late: the outcome is already decided
    return proposal, contract


# The CPF of the process's contract (its only column read), rendered once (models/db/compiled.py):
# the SQL of peewee's scalar() (LIMIT 1).
_CPF_OF_PROCESS: Compiled[Contract] = Compiled(
    lambda process_id: Contract.select(Contract.cpf).where(Contract.unico_process_id == process_id).limit(1), str
)


def handle_result(
    process_id: str,
    event: str,
    results: dict,
    *,
    esignature_settings: ESignatureSettings,
    contract_settings: ContractSettings,
    received_at: datetime | None = None,
) -> None:
    """Apply a provider event: started -> IN_PROGRESS; finished -> SIGNED or SIGNATURE_FAILED.

    Under the CPF's lock: a result after the signature deadline expires the contract instead (the
    window is what made it count as the CPF's contract), and a valid signature while another
    contract of the CPF was signed first and counts against this one cancels it (one active
    contract per CPF: CANCELED, reason CONTRACT_ACTIVE, with its webhook).
    """
    with unit_of_work():
        found = _open_contract(process_id)
        if found is None:
            return
        proposal, contract = found
        _apply_result(
            proposal,
            contract,
            event,
            results,
            received_at or proposal_now(proposal),
            esignature_settings=esignature_settings,
            contract_settings=contract_settings,
        )
        money_path.track(proposal, contract.id)


def _apply_result(
    proposal: Proposal,
    contract: Contract,
    event: str,
    results: dict,
    received_at: datetime,
    *,
    esignature_settings: ESignatureSettings,
    contract_settings: ContractSettings,
) -> None:
    """handle_result's decision (inside its unit_of_work, the CPF and the proposal locked);
    ``received_at``: when the event reached us, on the proposal's clock."""
    if not arrived_in_time(received_at, contract.signature_expires_at):
        _expire(proposal, contract)  # late: the deadline decides, whatever the result says
        return
    if event == STARTED:
        _SIGNATURE_STARTED.execute(now(), contract.id)
        return
    checks = {name: results.get(name) for name in RESULT_FIELDS}
    cancel_scheduled(expiry_key(contract.id))
    if signature_valid(**checks) and (holder := signed_before(proposal)) is not None:
        _SIGNATURE_REJECTED.execute(checks, now(), contract.id)
        cancellation.cancel(
            proposal,
            source="actor",
            details={"reason": "CONTRACT_ACTIVE", "active_proposal_id": holder.id},
        )
        return
    if signature_valid(**checks):
        signed_at = received_at  # when the customer's signature reached us, however late applied
        recorded = signed_version.evidence(
            contract,
            checks,
            signed_at,
            esignature_settings=esignature_settings,
            contract_settings=contract_settings,
        )
        _SIGNED.execute(
            checks,
            signed_at,
            signed_at,
            recorded,
            signed_version.produce(contract, recorded, contract_settings=contract_settings),
            calendar.disbursement_date(signed_at),
            signed_at,
            contract.id,
        )
        status.move(proposal, Trigger.SIGNATURE_OK, source="actor")
        enqueue(ActorName.PROCESS_SIGNED_CONTRACT, contract.id)
        return
    _SIGNATURE_FAILED.execute(checks, now(), contract.id)
    status.move(proposal, Trigger.SIGNATURE_INVALID, source="actor", details={"signature_result": checks})
    enqueue(ActorName.RELEASE_CONTRACT, contract.id)


# _apply_result's writes, rendered once (models/db/compiled.py). Each value goes to one column,
# converted by that column (signed_at, issue_date and updated_at of a signature take the same instant).
_SIGNATURE_STARTED: Compiled[Contract] = Compiled(
    lambda at, contract_id: Contract.update(signature_status=SignatureStatus.IN_PROGRESS, updated_at=at).where(
        Contract.id == contract_id, Contract.signature_status == SignatureStatus.PENDING
    ),
    Contract.updated_at,
    str,
)
_SIGNATURE_REJECTED: Compiled[Contract] = Compiled(
    lambda checks, at, contract_id: Contract.update(
        signature_status=SignatureStatus.REJECTED, signature_result=checks, updated_at=at
    ).where(Contract.id == contract_id),
    Contract.signature_result,
    Contract.updated_at,
    str,
)
_SIGNED: Compiled[Contract] = Compiled(
    lambda checks, signed_at, issue_date, evidence, pdf_path, disbursement_date, at, contract_id: Contract.update(
        status=ContractStatus.SIGNED,
        signature_status=SignatureStatus.SIGNED,
        signature_result=checks,
        signed_at=signed_at,
        issue_date=issue_date,
        signature_evidence=evidence,
        signed_pdf_path=pdf_path,
        disbursement_date=disbursement_date,
        updated_at=at,
    ).where(Contract.id == contract_id),
    Contract.signature_result,
    Contract.signed_at,
    Contract.issue_date,
    Contract.signature_evidence,
    Contract.signed_pdf_path,
    Contract.disbursement_date,
    Contract.updated_at,
    str,
)
_SIGNATURE_FAILED: Compiled[Contract] = Compiled(
    lambda checks, at, contract_id: Contract.update(
        status=ContractStatus.SIGNATURE_FAILED,
        signature_status=SignatureStatus.REJECTED,
        signature_result=checks,
        updated_at=at,
    ).where(Contract.id == contract_id),
    Contract.signature_result,
    Contract.updated_at,
    str,
)


def expire(contract_id: str) -> None:
    """At the deadline: an unsigned contract expires (EXPIRED) and its providers are released."""
    with unit_of_work():
        contract = Contract.get_or_none(Contract.id == contract_id)
        if contract is None:
            return
        proposal = locked_proposal(contract.proposal_id)
        contract = Contract.get_by_id(contract_id)
        unsigned = contract.signature_status in OPEN_SIGNATURE_STATUSES
        if (
            not can(proposal.status, Trigger.SIGNATURE_EXPIRED)
            or not unsigned
            or proposal_now(proposal) < contract.signature_expires_at
            or _result_arrived_in_time(contract)
        ):
            return
        _expire(proposal, contract)


def _result_arrived_in_time(contract: Contract) -> bool:
    """A finished result reached us before the deadline and waits to be applied (a backlog or an
    outage): it decides, not the deadline; the money path's sweep drives it if its message is lost."""
    row = money_path.finished_signature_result(contract)
    received = row.kwargs.get("received_at") if row is not None else None
    return received is not None and arrived_in_time(parse_instant(received), contract.signature_expires_at)


def _expire(proposal: Proposal, contract: Contract) -> None:
    """EXPIRED and the providers released (inside unit_of_work, the proposal locked)."""
    cancel_scheduled(expiry_key(contract.id))
    _EXPIRED.execute(now(), contract.id)
    status.move(
        proposal,
        Trigger.SIGNATURE_EXPIRED,
        source="scheduler",
        details={"deadline": contract.signature_expires_at.isoformat()},
    )
    enqueue(ActorName.RELEASE_CONTRACT, contract.id)


# _expire's write, rendered once (models/db/compiled.py).
_EXPIRED: Compiled[Contract] = Compiled(
    lambda at, contract_id: Contract.update(
        status=ContractStatus.EXPIRED, signature_status=SignatureStatus.EXPIRED, updated_at=at
    ).where(Contract.id == contract_id),
    Contract.updated_at,
    str,
)
