"""Customer-level reads: contracts of the origin, available loan amount, summary.

Available loan amount (decision on the spec's computation):
* base: the last APPROVED credit analysis of the CPF made for the token's origin; its limit is
  ``promotional_pod_limit_max`` when that analysis was promotional (and the value was recorded),
  ``pod_limit_max`` otherwise. The base is origin-scoped so another partner learns nothing about an
  analysis it did not run (it gets 204).
* minus the ``principal_amount`` of every contract of the CPF, at ANY origin, whose disbursement
  was paid after that approval (the same payroll margin backs every partner's loan);
* floored at zero.
The limit choice and the subtraction are the domain's (``models.domain.credit_limit``), shared with
the offers' amount cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from peewee import fn

from models.db.analysis import CreditAnalysis
from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain.credit_limit import available_amount, granted_limit
from models.domain.lifecycles import AnalysisOutcome


def contract_view(contract: Contract) -> dict:
    """The spec's Customer contract, field for field (also the detail's ``contract``)."""
    return {
        "contract_id": contract.id,
        "proposal_id": contract.proposal_id,
        "status": contract.status,
        "issuer_application_id": contract.issuer_application_id,
        "principal_amount": contract.principal_amount,
        "total_amount": contract.total_amount,
        "installment_amount": contract.installment_amount,
        "installments": contract.installments,
        "interest_rate": contract.interest_rate,
        "disbursement_amount": contract.disbursement_amount,
        "disbursement_date": contract.disbursement_date,
        "disbursement_paid_at": contract.disbursement_paid_at,
        "first_due_date": contract.first_due_date,
        "final_due_date": contract.final_due_date,
        "issue_date": contract.issue_date,
        "created_at": contract.created_at,
    }


def customer_contracts(cpf: str, origin: str) -> list[dict]:
    """Every contract of the CPF at this origin, whatever its status, newest first."""
    query = (
        Contract.select()
        .where(Contract.cpf == cpf, Contract.origin == origin)
        .order_by(Contract.created_at.desc(), Contract.id.desc())
    )
    return [contract_view(contract) for contract in query]


@dataclass(frozen=True)
class AvailableAmount:
    amount: Decimal
    approved_at: datetime


def available_loan_amount(cpf: str, origin: str) -> AvailableAmount | None:
    """None when the origin has no approved analysis of the CPF (the route answers 204)."""
    analysis = (
        CreditAnalysis.select()
        .where(
            CreditAnalysis.cpf == cpf,
            CreditAnalysis.origin == origin,
            CreditAnalysis.outcome == AnalysisOutcome.APPROVED,
            CreditAnalysis.approved_at.is_null(False),
        )
        .order_by(CreditAnalysis.approved_at.desc())
        .first()
    )
    if analysis is None:
        return None
    disbursed = (
        Contract.select(fn.SUM(Contract.principal_amount))
        .where(Contract.cpf == cpf, Contract.disbursement_paid_at > analysis.approved_at)
        .scalar()
    )
    limit = granted_limit(analysis.pod_limit_max, analysis.promotional_pod_limit_max, analysis.promotional)
    return AvailableAmount(available_amount(limit, disbursed), analysis.approved_at)


def latest_email(cpf: str, origin: str) -> str | None:
    """The email of the origin's most recent proposal for the CPF that has one."""
    row = (
        Proposal.select(Proposal.email)
        .where(Proposal.cpf == cpf, Proposal.origin == origin, Proposal.email.is_null(False))
        .order_by(Proposal.created_at.desc())
        .first()
    )
    return row.email if row else None


def customer_summary(cpf: str, origin: str) -> dict:
    available = available_loan_amount(cpf, origin)
    return {
        "cpf": cpf,
        "email": latest_email(cpf, origin),
        "available_loan_amount": available.amount if available else None,
        "available_loan_approved_at": available.approved_at if available else None,
        "contracts": customer_contracts(cpf, origin),
    }
