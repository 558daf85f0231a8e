"""Paying a contract exactly once, whatever is redelivered or retried.

The Disbursement row (unique per contract) carries an idempotency key derived from the contract
id, sent with every payment request; the funder answers a repeated key with the first result.
A crash after the funder paid but before our commit is therefore harmless: once a request may
have reached the funder (the row is REQUESTED), the next run first asks the funder for the
payment by its key (``find_payment``) and records what the funder says; only when the funder
knows no such payment is it requested (again, with the same key). The run is driven again by the
money path's re-drive sweep if its message is lost, so the proposal converges to DISBURSED (or
DISBURSEMENT_FAILED) with exactly one payment.

A PAID answer is always kept on the Disbursement row, even when the proposal can no longer move
(say, cancelled meanwhile): the money moved, and an ALERT line tells operators.
"""

from __future__ import annotations

import logging

import peewee

from models.db.compiled import Compiled
from models.db.contracts import Contract, Disbursement
from models.db.database import db
from models.domain.clock import now
from models.domain.lifecycles import ContractStatus, DisbursementStatus
from models.domain.status_machine import DISBURSABLE_STATUSES, Trigger
from models.domain.statuses import Status
from models.external.funding import Funding, Payment
from models.services.contract.terms import destination
from models.services.contract.with_proposal import contract_with_proposal
from models.services.money_path import tracking as money_path
from models.services.platform import proposal_status as status
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import unit_of_work

log = logging.getLogger(__name__)


def idempotency_key(contract_id: str) -> str:
    return f"disb-{contract_id}"


def _row(contract: Contract) -> Disbursement:
    try:
        with db.atomic():
            return Disbursement.create(
                contract=contract.id,
                idempotency_key=idempotency_key(contract.id),
                amount=contract.principal_amount,
                scheduled_for=contract.disbursement_date,
            )
    except peewee.IntegrityError:
        return Disbursement.get(Disbursement.contract == contract.id)


def _application_id(contract: Contract, funding: Funding) -> str:
    if contract.funding_application_id:
        return contract.funding_application_id
    application = funding.create_application(
        reference=contract.id,
        cpf=contract.cpf,
        full_name=contract.proposal.full_name,
        amount=contract.principal_amount,
        installments=contract.installments,
        installment_amount=contract.installment_amount,
    )
    _STORE_APPLICATION.execute(application.application_id, application.ccb_number, contract.id)
    return application.application_id


def disburse(contract_id: str, *, funding: Funding) -> None:
    """Ask the funder for the payment a previous run may have made; else pay (same key every
    time); then record the outcome."""
    contract = contract_with_proposal(contract_id)  # its proposal: the status, the holder and destination
    if contract is None or contract.proposal.status not in DISBURSABLE_STATUSES:
        return  # already paid, failed or withdrawn
    row = _row(contract)
    application_id = _application_id(contract, funding)
    if row.status == DisbursementStatus.REQUESTED:  # a request may have reached the funder
        known = funding.find_payment(idempotency_key=row.idempotency_key)
        if known is not None:
            record(contract_id, known)
            return
    _REQUESTED.execute(application_id, now(), row.id)
    payment = funding.pay(
        application_id=application_id,
        amount=contract.principal_amount,
        destination=destination(contract.proposal),
        idempotency_key=row.idempotency_key,
    )
    record(contract_id, payment)


def record(contract_id: str, payment: Payment) -> None:
    """DISBURSED with amount and time, or DISBURSEMENT_FAILED (one transaction)."""
    with unit_of_work():
        contract = Contract.get_by_id(contract_id)
        proposal = locked_proposal(contract.proposal_id)
        stamp = now()
        paid = payment.status == DisbursementStatus.PAID  # the funder answers PAID or FAILED, our names too
        newly_paid = 0
        if paid:  # the money moved: never discarded, whatever the proposal's status
            newly_paid = _PAID.execute(payment.paid_at, payment.amount, stamp, contract_id)
        if proposal.status not in DISBURSABLE_STATUSES:
            if newly_paid and proposal.status != Status.DISBURSED.value:
                log.error(
                    "ALERT payment of contract %s recorded PAID while proposal %s is %s: reconcile with the funder",
                    contract_id,
                    proposal.id,
                    proposal.status,
                )
            money_path.track(proposal, contract_id)
            return
        if paid:
            _ISSUED.execute(payment.amount, payment.paid_at, stamp, contract_id)
            status.move(proposal, Trigger.DISBURSE, source="actor", details={"amount": str(payment.amount)})
            money_path.track(proposal, contract_id)
            return
        _FAILED.execute(payment.failure_reason, stamp, contract_id)
        _CONTRACT_FAILED.execute(stamp, contract_id)
        status.move(proposal, Trigger.DISBURSEMENT_FAILS, source="actor", details={"reason": payment.failure_reason})
        money_path.track(proposal, contract_id)


# The payment's writes, rendered once (models/db/compiled.py). Each value is converted by the
# column it goes to, as peewee does.
_STORE_APPLICATION: Compiled[Contract] = Compiled(
    lambda application_id, ccb_number, contract_id: Contract.update(
        funding_application_id=application_id, issuer_application_id=ccb_number
    ).where(Contract.id == contract_id),
    Contract.funding_application_id,
    Contract.issuer_application_id,
    str,
)
_REQUESTED: Compiled[Disbursement] = Compiled(
    lambda application_id, at, disbursement_id: Disbursement.update(
        status=DisbursementStatus.REQUESTED,
        funding_application_id=application_id,
        attempts=Disbursement.attempts + 1,
        updated_at=at,
    ).where(Disbursement.id == disbursement_id),
    Disbursement.funding_application_id,
    Disbursement.updated_at,
    int,
)
# Only a payment not yet recorded PAID: its row count tells record whether this run recorded it.
_PAID: Compiled[Disbursement] = Compiled(
    lambda paid_at, amount, at, contract_id: Disbursement.update(
        status=DisbursementStatus.PAID, paid_at=paid_at, amount=amount, updated_at=at
    ).where(Disbursement.contract == contract_id, Disbursement.status != DisbursementStatus.PAID),
    Disbursement.paid_at,
    Disbursement.amount,
    Disbursement.updated_at,
    str,
)
_ISSUED: Compiled[Contract] = Compiled(
    lambda amount, paid_at, at, contract_id: Contract.update(
        status=ContractStatus.ISSUED, disbursement_amount=amount, disbursement_paid_at=paid_at, updated_at=at
    ).where(Contract.id == contract_id),
    Contract.disbursement_amount,
    Contract.disbursement_paid_at,
    Contract.updated_at,
    str,
)
_FAILED: Compiled[Disbursement] = Compiled(
    lambda reason, at, contract_id: Disbursement.update(
        status=DisbursementStatus.FAILED, last_error=reason, updated_at=at
    ).where(Disbursement.contract == contract_id),
    Disbursement.last_error,
    Disbursement.updated_at,
    str,
)
_CONTRACT_FAILED: Compiled[Contract] = Compiled(
    lambda at, contract_id: Contract.update(status=ContractStatus.DISBURSEMENT_FAILED, updated_at=at).where(
        Contract.id == contract_id
    ),
    Contract.updated_at,
    str,
)
