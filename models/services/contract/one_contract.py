"""One active contract per CPF (``models/domain/contract_slot.py``): the other proposal that stands
in a contract's way, read under the CPF's lock by contract generation and by the signature."""

from __future__ import annotations

from datetime import datetime

from models.db.analysis import CreditAnalysis
from models.db.compiled import Compiled
from models.db.contracts import Contract
from models.db.proposals import Proposal
from models.domain.contract_slot import CANDIDATE_STATUSES, signed_contract_conflicts, slot_refusal
from models.domain.lifecycles import AnalysisOutcome
from models.domain.signature import OPEN_SIGNATURE_STATUSES
from models.services.platform.proposal_clock import proposal_now


def _approved_at(proposal: Proposal) -> datetime | None:
    """When the proposal's latest approved analysis read the margin."""
    approved = _LATEST_APPROVAL.first(proposal.id)
    return approved.approved_at if approved is not None else None


def _latest_contract(proposal_id: str) -> Contract | None:
    return _LATEST_CONTRACT.first(proposal_id)


def _signed_after(contract: Contract | None, approved_at: datetime | None) -> bool:
    if contract is None or contract.signed_at is None:
        return approved_at is None  # unknown either way: assume the margin did not see it
    return approved_at is None or contract.signed_at > approved_at


def _others(proposal: Proposal) -> list[Proposal]:
    return _OTHERS_OF_CPF.all(proposal.cpf, proposal.id)


# Every contract generation and signature reads these under the CPF's lock: rendered once
# (models/db/compiled.py), the same SQL as peewee's first() (LIMIT 1) and iteration.
_LATEST_APPROVAL: Compiled[CreditAnalysis] = Compiled(
    lambda proposal_id: (
        CreditAnalysis.select(CreditAnalysis.approved_at)
        .where(CreditAnalysis.proposal == proposal_id, CreditAnalysis.outcome == AnalysisOutcome.APPROVED)
        .order_by(CreditAnalysis.approved_at.desc())
        .limit(1)
    ),
    str,
)
_LATEST_CONTRACT: Compiled[Contract] = Compiled(
    lambda proposal_id: (
        Contract.select().where(Contract.proposal == proposal_id).order_by(Contract.created_at.desc()).limit(1)
    ),
    str,
)
_OTHERS_OF_CPF: Compiled[Proposal] = Compiled(
    lambda cpf, proposal_id: Proposal.select().where(
        Proposal.cpf == cpf,
        Proposal.id != proposal_id,
        Proposal.status.in_([s.value for s in CANDIDATE_STATUSES]),
    ),
    str,
    str,
)


def slot_holder(proposal: Proposal) -> tuple[Proposal, str] | None:
    """Another proposal of the CPF that keeps ``proposal`` from getting a contract now (generation),
    with the 409 error code it answers."""
    approved_at = _approved_at(proposal)
    for other in _others(proposal):
        contract = _latest_contract(other.id)
        window_open = (
            contract is not None
            and contract.signature_expires_at is not None
            and contract.signature_expires_at > proposal_now(other)  # its deadline, on its clock
            and contract.signature_status in OPEN_SIGNATURE_STATUSES
        )
        code = slot_refusal(
            other.status,
            signature_window_open=window_open,
            signed_after_our_analysis=_signed_after(contract, approved_at),
        )
        if code is not None:
            return other, code
    return None


def signed_before(proposal: Proposal) -> Proposal | None:
    """Another proposal of the CPF whose signed contract keeps ``proposal``'s valid signature from
    making its contract SIGNED (the first valid signature wins)."""
    approved_at = _approved_at(proposal)
    for other in _others(proposal):
        if signed_contract_conflicts(
            other.status, signed_after_our_analysis=_signed_after(_latest_contract(other.id), approved_at)
        ):
            return other
    return None
