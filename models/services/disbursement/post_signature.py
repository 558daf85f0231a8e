"""After signature: fraud analysis when needed, payroll endorsement, then the payment schedule.

SIGNED -> (PENDING_ANALYSIS -> ANALYSIS_APPROVED | ANALYSIS_REPROVED) -> endorsement -> disbursement.
Inside the payroll maintenance window endorsement is impossible: the proposal goes to ERROR and the
endorsement is re-queued for the window's end (durable schedule), then continues on its own.

Each use case receives the provider it calls (``fraud``, ``endorsement``) and the settings sections
it reads (``fraud_settings``, ``payroll_window_settings``, ``disbursement_settings``); ``fraud_review``
and ``payment_time`` are its decisions, with no database.
"""

from __future__ import annotations

from datetime import datetime, time

from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.domain.clock import SAO_PAULO, now, to_utc
from models.domain.lifecycles import ContractStatus
from models.domain.policies import fraud_review_reason, payroll_window_end
from models.domain.status_machine import DISBURSABLE_STATUSES, Trigger, can
from models.domain.statuses import Status
from models.external.endorsement import Endorsement, EndorsementRequest
from models.external.fraud import FraudAnalysis, FraudCase
from models.services.contract.with_proposal import contract_with_proposal
from models.services.money_path import tracking as money_path
from models.services.money_path.tracking import ENDORSEMENT_ROUTE, FRAUD_REVIEW_ROUTE
from models.services.platform import proposal_status as status
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal
from models.services.platform.proposal_clock import outbox_instant, proposal_now
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import DisbursementSettings, FraudSettings, PayrollWindowSettings


def _case(contract: Contract) -> FraudCase:
    proposal = contract.proposal
    return FraudCase(contract.id, contract.cpf, proposal.full_name, contract.principal_amount, contract.origin)


def fraud_review(case: FraudCase, *, fraud: FraudAnalysis, fraud_settings: FraudSettings) -> str | None:
    """Why the case goes to fraud analysis (amount above ``review_above_amount``, or flagged by the
    provider, which is asked only when the amount does not decide), or None."""
    return fraud_review_reason(
        case.amount, fraud_settings.review_above_amount, flagged=lambda: fraud.needs_attention(case)
    )


def route_signed(contract_id: str, *, fraud: FraudAnalysis, fraud_settings: FraudSettings) -> None:
    """SIGNED: send to fraud analysis (amount above the limit or flagged) or straight to endorsement.

    The routing is decided once and recorded on the contract in the transaction that acts on it
    (``post_signature_route``): a redelivered message follows the record (endorsement is enqueued
    again, idempotent) and never asks the fraud provider again.
    """
    contract = contract_with_proposal(contract_id)  # its proposal: the status and the fraud case's name
    if contract is None or contract.proposal.status != Status.SIGNED.value:
        return
    reason = None
    if contract.post_signature_route is None:
        reason = fraud_review(_case(contract), fraud=fraud, fraud_settings=fraud_settings)
    with unit_of_work():
        proposal = locked_proposal(contract.proposal_id)
        if proposal.status != Status.SIGNED.value:
            return
        route = Contract.get_by_id(contract_id).post_signature_route  # read under the lock
        if route is None:
            route = FRAUD_REVIEW_ROUTE if reason is not None else ENDORSEMENT_ROUTE
            _RECORD_ROUTE.execute(route, now(), contract_id)
            if route == FRAUD_REVIEW_ROUTE:
                status.move(proposal, Trigger.FRAUD_REVIEW, source="actor", details={"reason": reason})
                enqueue(ActorName.RUN_FRAUD_ANALYSIS, contract_id)
        if route == ENDORSEMENT_ROUTE:
            enqueue(ActorName.ENDORSE_CONTRACT, contract_id)
        money_path.track(proposal, contract_id)


def decide_fraud(contract_id: str, *, fraud: FraudAnalysis) -> None:
    """PENDING_ANALYSIS -> ANALYSIS_APPROVED (endorsement follows) or ANALYSIS_REPROVED (closed)."""
    contract = contract_with_proposal(contract_id)  # its proposal: the status and the fraud case's name
    if contract is None or contract.proposal.status != Status.PENDING_ANALYSIS.value:
        return
    approved, reason = fraud.decide(_case(contract))
    with unit_of_work():
        proposal = locked_proposal(contract.proposal_id)
        if proposal.status != Status.PENDING_ANALYSIS.value:
            return
        if approved:
            status.move(proposal, Trigger.FRAUD_APPROVED, source="actor", details={"reason": reason})
            enqueue(ActorName.ENDORSE_CONTRACT, contract_id)
        else:
            status.move(proposal, Trigger.FRAUD_REPROVED, source="actor", details={"reason": reason})
            _REPROVED.execute(now(), contract_id)
            enqueue(ActorName.RELEASE_CONTRACT, contract_id)
        money_path.track(proposal, contract_id)


def endorse(
    contract_id: str,
    *,
    endorsement: Endorsement,
    payroll_window_settings: PayrollWindowSettings,
    disbursement_settings: DisbursementSettings,
) -> None:
    """Register the contract in the payroll system, or defer past the maintenance window."""
    contract = contract_with_proposal(contract_id)  # its proposal's status
    if contract is None or contract.proposal.status not in DISBURSABLE_STATUSES:
        return
    at = now()
    enforced = payroll_window_settings.enforced
    resume_at = payroll_window_end(at, enforced=enforced) if contract.endorsement_id is None else None
    if resume_at is not None:
        with unit_of_work():
            proposal = locked_proposal(contract.proposal_id)
            if can(proposal.status, Trigger.ENDORSEMENT_DEFERRED):
                status.move(
                    proposal,
                    Trigger.ENDORSEMENT_DEFERRED,
                    source="actor",
                    details={"reason": "payroll maintenance window", "resume_at": resume_at.isoformat()},
                )
            enqueue(
                ActorName.ENDORSE_CONTRACT,
                contract_id,
                deliver_at=resume_at,
                dedup_key=f"endorse:{contract_id}:{resume_at.isoformat()}",
            )
            money_path.track(proposal, contract_id, due_at=resume_at)
        return
    endorsement_id = contract.endorsement_id or endorsement.register(
        EndorsementRequest(
            contract.id, contract.cpf, contract.installment_amount, contract.installments, contract.first_due_date
        )
    )
    with unit_of_work():
        proposal = locked_proposal(contract.proposal_id)
        if proposal.status not in DISBURSABLE_STATUSES:
            return
        _ENDORSED.execute(endorsement_id, contract.endorsed_at or at, at, contract_id)
        pay_at = payment_time(
            Contract.get_by_id(contract_id), at=proposal_now(proposal), disbursement_settings=disbursement_settings
        )
        deliver_at = outbox_instant(proposal, pay_at)  # the proposal's time, on the real clock
        # Keyed by the payment time, not by the contract alone: a payment due now is always sent
        # (an earlier message with a contract-wide key may have run while the proposal could not
        # be paid yet, and must not swallow this one); a later one is scheduled once per instant.
        # The payment itself moves money at most once (the funder's idempotency key).
        enqueue(
            ActorName.DISBURSE,
            contract_id,
            deliver_at=deliver_at,
            dedup_key=f"disburse:{contract_id}:{pay_at.isoformat()}",
        )
        money_path.track(proposal, contract_id, due_at=deliver_at)


# The steps' contract writes, rendered once (models/db/compiled.py); each value is converted by
# its column, as peewee does.
_RECORD_ROUTE: Compiled[Contract] = Compiled(
    lambda route, at, contract_id: Contract.update(post_signature_route=route, updated_at=at).where(
        Contract.id == contract_id
    ),
    Contract.post_signature_route,
    Contract.updated_at,
    str,
)
_REPROVED: Compiled[Contract] = Compiled(
    lambda at, contract_id: Contract.update(status=ContractStatus.ANALYSIS_REPROVED, updated_at=at).where(
        Contract.id == contract_id
    ),
    Contract.updated_at,
    str,
)
_ENDORSED: Compiled[Contract] = Compiled(
    lambda endorsement_id, endorsed_at, at, contract_id: Contract.update(
        endorsement_id=endorsement_id, endorsed_at=endorsed_at, updated_at=at
    ).where(Contract.id == contract_id),
    Contract.endorsement_id,
    Contract.endorsed_at,
    Contract.updated_at,
    str,
)


def payment_time(
    contract: Contract, *, at: datetime | None = None, disbursement_settings: DisbursementSettings
) -> datetime:
    """Now (``at``: the proposal's now) when ``pay_immediately``; else pay_at_local_time on the
    disbursement date (never past)."""
    settings = disbursement_settings
    at = at or now()
    if settings.pay_immediately or contract.disbursement_date is None:
        return at
    hour, minute = (int(part) for part in settings.pay_at_local_time.split(":"))
    planned = to_utc(datetime.combine(contract.disbursement_date, time(hour, minute), tzinfo=SAO_PAULO))
    return max(planned, at)
