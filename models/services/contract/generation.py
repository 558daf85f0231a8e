"""Contract generation: start (POST contract, hybrid wait), generate + start signing (actor), 3-minute watchdog.

The use cases receive the ``[default.contract]`` section (``contract_settings``: watchdog delay,
documents directory) and the providers ``generate`` calls (``funding``, ``esignature``).
"""

from __future__ import annotations

import logging
from datetime import date, timedelta

from models.db.analysis import Offer
from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.db.proposals import Proposal, new_id
from models.domain import calendar
from models.domain.clock import now
from models.domain.errors import InvalidTransition
from models.domain.lifecycles import ContractStatus
from models.domain.offer_availability import ensure_available
from models.domain.signature import SignatureStatus
from models.domain.status_machine import Trigger, next_status
from models.domain.statuses import Status
from models.external.esignature import ESignature, Signer
from models.external.funding import Funding
from models.services.banking.disbursement_data import has_destination
from models.services.contract import pdf as contract_pdf
from models.services.contract.one_contract import slot_holder
from models.services.contract.terms import build_terms
from models.services.contract.with_proposal import contract_with_proposal
from models.services.credit.offers import availability
from models.services.money_path import tracking as money_path
from models.services.partners.ownership import owned_proposal
from models.services.platform import proposal_status as status
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import lock_customer, locked_proposal
from models.services.platform.proposal_clock import outbox_instant, proposal_now
from models.services.platform.proposal_status import wake_key
from models.services.platform.unit_of_work import cancel_scheduled, enqueue, unit_of_work
from models.services.platform.wakeups import wakeups
from models.settings import CcbSettings, ContractSettings

log = logging.getLogger(__name__)


def _generating(contract: Contract, proposal: Proposal) -> bool:
    """Both the contract and its proposal are still CONTRACT_GENERATION_IN_PROGRESS."""
    return (
        contract.status == ContractStatus.CONTRACT_GENERATION_IN_PROGRESS
        and proposal.status == Status.CONTRACT_GENERATION_IN_PROGRESS
    )


def watchdog_key(contract_id: str) -> str:
    return f"contract-watchdog:{contract_id}"


def expiry_key(contract_id: str) -> str:
    return f"signature-expiry:{contract_id}"


def latest_contract(proposal_id: str) -> Contract | None:
    return (
        Contract.select()
        .where(Contract.proposal == proposal_id)
        .order_by(Contract.created_at.desc(), Contract.id)
        .first()
    )


_SLOT_MESSAGES = {
    "CONTRACT_GENERATION_IN_PROGRESS": "Another contract of this CPF is being generated",
    "CONTRACT_ALREADY_GENERATED": "Another contract of this CPF was generated and awaits its signature",
    "CONTRACT_ACTIVE": "The customer already has an active contract with a valid digital signature",
}


def _ensure_no_active_contract(proposal: Proposal) -> None:
    """409 when another proposal of the CPF, of any origin, stands in the way (``one_contract``),
    with the code of what it holds (models/domain/contract_slot.py); call with the CPF locked, so two
    generations cannot both pass."""
    found = slot_holder(proposal)
    if found is not None:
        other, code = found
        raise InvalidTransition(
            _SLOT_MESSAGES[code],
            current_status=Status(proposal.status),
            trigger=Trigger.START_CONTRACT,
            error_code=code,
            # Another origin's proposal id and status are that origin's data: only the errorCode
            # tells it apart.
            details={"proposal_id": other.id, "status": other.status} if other.origin == proposal.origin else None,
        )


def start_contract(
    origin: str, proposal_id: str, redirect_url: str | None, *, contract_settings: ContractSettings
) -> Contract:
    """POST contract: under the CPF's lock (one active contract per CPF, across origins) and the
    lock of the origin's proposal, create the contract and queue its generation, in one transaction."""
    cpf = owned_proposal(origin, proposal_id).cpf  # 404 / 403 before any lock
    with unit_of_work():
        lock_customer(cpf)
        return start(owned_proposal(origin, proposal_id, lock=True), redirect_url, contract_settings=contract_settings)


# The wait re-reads only the status: the whole row carries the printed terms (a JSON document).
_STATUS_OF: Compiled[Contract] = Compiled(
    lambda contract_id: Contract.select(Contract.status).where(Contract.id == contract_id), str
)


def await_generation(contract: Contract, timeout: float) -> Contract:
    """The contract once generation has finished or failed, or as it stands after ``timeout``
    seconds. Either end moves the proposal's status, which wakes it."""
    wakeups.wait_until(
        lambda: _STATUS_OF.first(contract.id).status != ContractStatus.CONTRACT_GENERATION_IN_PROGRESS,
        timeout,
        keys=(wake_key(str(contract.proposal_id)),),
    )
    return Contract.get_by_id(contract.id)


def start(proposal: Proposal, redirect_url: str | None, *, contract_settings: ContractSettings) -> Contract:
    """Create the contract row and queue its generation (inside unit_of_work, the CPF and the
    proposal locked).

    The selected offer must still be available (400 OFFER_EXPIRED or OFFER_NOT_AVAILABLE, like
    pre-accept): a contract is never written on terms that lapsed.
    """
    next_status(Status(proposal.status), Trigger.START_CONTRACT)  # the spec's 409 codes
    if not has_destination(proposal):  # a newer banking-data submission not (yet) confirmed
        raise InvalidTransition(
            "The proposal has no confirmed banking data; send POST banking-data again",
            current_status=Status(proposal.status),
            trigger=Trigger.START_CONTRACT,
            error_code="BANKING_DATA_REQUIRED",
        )
    _ensure_no_active_contract(proposal)
    offer = Offer.get_or_none(Offer.id == proposal.selected_offer_id)
    if offer is None:
        raise InvalidTransition(
            "The proposal has no selected offer",
            current_status=Status(proposal.status),
            trigger=Trigger.START_CONTRACT,
            error_code="INVALID_STATUS_FOR_CONTRACT",
        )
    ensure_available(availability(offer, proposal.selected_offer_id, proposal_now(proposal)))
    payload = offer.payload
    contract = Contract.create(
        proposal=proposal.id,
        offer_id=offer.id,
        origin=proposal.origin,
        cpf=proposal.cpf,
        principal_amount=payload["principal_amount"],
        total_amount=payload["total_amount"],
        installment_amount=payload["installment_amount"],
        installments=payload["installments"],
        interest_rate=payload["interest_rate"],
        first_due_date=date.fromisoformat(payload["first_due_date"]),
        final_due_date=date.fromisoformat(payload["final_due_date"]),
        disbursement_date=calendar.disbursement_date(proposal_now(proposal)),
        signature_redirect_url=redirect_url,
    )
    status.move(proposal, Trigger.START_CONTRACT)
    enqueue(ActorName.GENERATE_CONTRACT, contract.id)
    enqueue(
        ActorName.CONTRACT_WATCHDOG,
        contract.id,
        dedup_key=watchdog_key(contract.id),
        deliver_at=now() + timedelta(seconds=contract_settings.watchdog_seconds),
    )
    money_path.track(proposal, contract.id)
    return contract


def generate(
    contract_id: str,
    *,
    funding: Funding,
    esignature: ESignature,
    contract_settings: ContractSettings,
    ccb_settings: CcbSettings,
    environment: str,
) -> None:
    """Funding application, PDF, signing process; then CONTRACT_GENERATED and AWAITING_SIGNATURE.

    Provider calls are idempotent by contract id, so a redelivered message reuses their results.
    """
    contract = contract_with_proposal(contract_id)
    if contract is None or contract.status != ContractStatus.CONTRACT_GENERATION_IN_PROGRESS:
        return
    proposal = contract.proposal  # loaded by the join
    generated_at = proposal_now(proposal)
    deadline = calendar.signature_deadline(generated_at)
    application = funding.create_application(
        reference=contract.id,
        cpf=proposal.cpf,
        full_name=proposal.full_name,
        amount=contract.principal_amount,
        installments=contract.installments,
        installment_amount=contract.installment_amount,
    )
    terms = build_terms(
        contract, proposal, application.ccb_number, generated_at, ccb_settings=ccb_settings, environment=environment
    )
    document = contract_pdf.render(terms)
    pdf_path = contract_pdf.store(document, proposal.id, contract.id, contract_settings=contract_settings)
    process = esignature.create_process(
        reference=contract.id,
        signer=Signer(proposal.cpf, proposal.full_name, proposal.email, proposal.phone),
        document=document,
        filename=f"CCB-{contract.id}.pdf",
        redirect_url=contract.signature_redirect_url,
        expires_at=deadline,
    )
    with unit_of_work():
        proposal = locked_proposal(proposal.id)
        contract = Contract.get_by_id(contract_id)
        documents = (  # the values of _DOCUMENT_COLUMNS
            terms,
            pdf_path,
            contract_pdf.sha256(document),
            application.ccb_number,
            application.application_id,
            process.process_id,
            process.user_redirect_url,
            now(),
        )
        if not _generating(contract, proposal):
            if contract.status != ContractStatus.FAILED:
                return  # a concurrent run of this message (a re-drive) finished first: its documents stand
            # the watchdog gave up first: keep what the providers made, and release it
            _STORE_DOCUMENTS.execute(*documents, str(contract_id))
            enqueue(ActorName.RELEASE_CONTRACT, contract_id)
            return
        _STORE_DOCUMENTS_AND_OPEN_SIGNATURE.execute(*documents, new_id(), deadline, str(contract_id))
        _SET_REDIRECT.execute(process.user_redirect_url, proposal.id)
        status.move(proposal, Trigger.CONTRACT_READY, source="actor")
        status.move(
            proposal, Trigger.SIGNATURE_STARTED, source="actor", details={"unico_process_id": process.process_id}
        )
        cancel_scheduled(watchdog_key(contract_id))
        enqueue(
            ActorName.EXPIRE_SIGNATURE,
            contract_id,
            deliver_at=outbox_instant(proposal, deadline),
            dedup_key=expiry_key(contract_id),
        )
        money_path.track(proposal, contract_id)


# generate's writes, rendered once (models/db/compiled.py). The documents' columns, in the order
# their values are passed; has_original_document is always set with them.
_DOCUMENT_COLUMNS = (
    Contract.terms,
    Contract.pdf_path,
    Contract.original_sha256,
    Contract.issuer_application_id,
    Contract.funding_application_id,
    Contract.unico_process_id,
    Contract.user_redirect_url,
    Contract.updated_at,
)


def _documents(values: tuple) -> dict:
    return {**dict(zip(_DOCUMENT_COLUMNS, values, strict=True)), Contract.has_original_document: True}


def _store_documents(*arguments):
    *documents, contract_id = arguments
    return Contract.update(_documents(documents)).where(Contract.id == contract_id)


def _store_documents_and_open_signature(*arguments):
    *documents, signature_id, expires_at, contract_id = arguments
    return Contract.update(
        {
            **_documents(documents),
            Contract.status: ContractStatus.CONTRACT_GENERATED,
            Contract.signature_id: signature_id,
            Contract.signature_status: SignatureStatus.PENDING,
            Contract.signature_expires_at: expires_at,
        }
    ).where(Contract.id == contract_id)


_STORE_DOCUMENTS: Compiled[Contract] = Compiled(_store_documents, *_DOCUMENT_COLUMNS, str)
_STORE_DOCUMENTS_AND_OPEN_SIGNATURE: Compiled[Contract] = Compiled(
    _store_documents_and_open_signature, *_DOCUMENT_COLUMNS, str, Contract.signature_expires_at, str
)
_SET_REDIRECT: Compiled[Proposal] = Compiled(
    lambda url, proposal_id: Proposal.update(user_redirect_url=url).where(Proposal.id == proposal_id),
    Proposal.user_redirect_url,
    str,
)


def watchdog(contract_id: str) -> None:
    """Generation unfinished after the watchdog delay: fail it, back to BANK_DATA_SUBMITTED."""
    with unit_of_work():
        contract = Contract.get_or_none(Contract.id == contract_id)
        if contract is None:
            return
        proposal = locked_proposal(contract.proposal_id)
        if not _generating(Contract.get_by_id(contract_id), proposal):
            return
        Contract.update(status=ContractStatus.FAILED, updated_at=now()).where(Contract.id == contract_id).execute()
        status.move(
            proposal,
            Trigger.CONTRACT_FAILED,
            source="scheduler",
            details={"reason": "contract generation did not finish in time", "contract_id": contract_id},
        )
        money_path.track(proposal, contract_id)
