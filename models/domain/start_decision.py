"""Pure decision of POST /proposals/start from the customer's (CPF's) history.

Order (spec "Start-proposal decision order", blocking 409s slotted in):

1. any proposal in ANALYSIS_APPROVED → BLOCK PROPOSAL_AWAITING_DISBURSEMENT;
2. any proposal in DISBURSEMENT_FAILED → BLOCK PROPOSAL_FINALIZED;
   then the other CPF-wide 409s, in this order:
   PENDING_ANALYSIS → PROPOSAL_PENDING_FRAUD_ANALYSIS;
   an async processing status → PROPOSAL_PROCESSING_IN_PROGRESS;
   AWAITING_SIGNATURE with a valid signature window → CONTRACT_ACTIVE;
   CONTRACT_GENERATED (or AWAITING_SIGNATURE whose window lapsed but is not
   yet marked EXPIRED, or a live proposal flagged has_generated_contract)
   → CONTRACT_EXISTS;
   an active proposal of the *requesting* origin → RETURN_EXISTING;
3. no contract in force (SIGNED, ERROR, DISBURSED...) → CREATE;
4. re-contracting off for the origin → BLOCK PROPOSAL_FINALIZED;
5. longest_overdue_days > 0 → BLOCK DELINQUENT_CONTRACT; else CREATE.

Decisions:
* The blocking 409s look at every origin (they protect the CPF, e.g. one
  contract per employment link); RETURN_EXISTING only considers the requesting
  origin, because proposals are invisible to other origins. An early-funnel
  proposal (before any contract, not processing) of another origin does not
  block: the customer may compare originators; the contract-level rules above
  stop a second contract.
* A 409 caused by another origin's proposal keeps its errorCode and carries no
  ``proposal_id`` or ``status``: those are the other origin's data (README,
  "What a partner can learn about other origins").
* ``proposals`` is expected newest first; ties pick the first match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from models.domain.statuses import (
    ACTIVE_STATUSES,
    ASYNC_PROCESSING_STATUSES,
    CONTRACT_IN_FORCE_STATUSES,
    CONTRACT_PENDING_SIGNATURE,
    Status,
)

CREATE, RETURN_EXISTING, BLOCK = "CREATE", "RETURN_EXISTING", "BLOCK"

_MESSAGES = {
    "PROPOSAL_AWAITING_DISBURSEMENT": "A proposal of this CPF is approved and awaiting disbursement.",
    "PROPOSAL_FINALIZED": "This CPF has a finalized proposal; a new one cannot be started.",
    "PROPOSAL_PENDING_FRAUD_ANALYSIS": "A proposal of this CPF is under fraud analysis.",
    "PROPOSAL_PROCESSING_IN_PROGRESS": "Asynchronous processing is active for this CPF.",
    "CONTRACT_ACTIVE": "This CPF has an active contract awaiting its digital signature.",
    "CONTRACT_EXISTS": "A contract has already been generated for this CPF.",
    "DELINQUENT_CONTRACT": "This CPF has overdue installments; re-contracting is not allowed.",
}


@dataclass(frozen=True)
class ProposalSnapshot:
    """What the decision needs to know about one existing proposal of the CPF."""

    id: str
    status: Status
    origin: str
    has_valid_signature: bool = False
    has_generated_contract: bool = False


@dataclass(frozen=True)
class CustomerHistory:
    """All proposals of the CPF (every origin) plus the origin's re-contracting data."""

    proposals: list[ProposalSnapshot] = field(default_factory=list)
    recontracting_enabled: bool = False
    longest_overdue_days: int = 0


@dataclass(frozen=True)
class StartDecision:
    """Outcome: CREATE, RETURN_EXISTING (existing_id) or BLOCK (409 body data)."""

    action: str
    existing_id: str | None = None
    error_code: str | None = None
    message: str | None = None
    proposal_id: str | None = None
    status: Status | None = None
    longest_overdue_days: int | None = None


def _block(code: str, proposal: ProposalSnapshot | None = None, **extra: Any) -> StartDecision:
    return StartDecision(
        BLOCK,
        error_code=code,
        message=_MESSAGES[code],
        proposal_id=proposal.id if proposal else None,
        status=proposal.status if proposal else None,
        **extra,
    )


def _first(
    proposals: Iterable[ProposalSnapshot], predicate: Callable[[ProposalSnapshot], bool]
) -> ProposalSnapshot | None:
    return next((p for p in proposals if predicate(p)), None)


def _holds_generated_contract(proposal: ProposalSnapshot) -> bool:
    # A live proposal whose contract PDF exists counts even if a watchdog
    # moved it back to BANK_DATA_SUBMITTED: the document is still valid.
    if proposal.status in CONTRACT_PENDING_SIGNATURE:
        return True
    return proposal.has_generated_contract and proposal.status in ACTIVE_STATUSES


def decide_start(history: CustomerHistory, origin: str) -> StartDecision:
    """Decide what POST /proposals/start does for ``origin`` given the CPF's history."""
    proposals = [
        ProposalSnapshot(p.id, Status(p.status), p.origin, p.has_valid_signature, p.has_generated_contract)
        for p in history.proposals
    ]
    in_status = lambda *statuses: _first(proposals, lambda p: p.status in statuses)  # noqa: E731

    def block(code: str, found: ProposalSnapshot | None = None, **extra: Any) -> StartDecision:
        # Another origin's proposal blocks as well (the rules protect the CPF), but only the
        # errorCode says why: its id and status belong to that origin.
        return _block(code, found if found is not None and found.origin == origin else None, **extra)

    if found := in_status(Status.ANALYSIS_APPROVED):
        return block("PROPOSAL_AWAITING_DISBURSEMENT", found)
    if found := in_status(Status.DISBURSEMENT_FAILED):
        return block("PROPOSAL_FINALIZED", found)
    if found := in_status(Status.PENDING_ANALYSIS):
        return block("PROPOSAL_PENDING_FRAUD_ANALYSIS", found)
    if found := in_status(*ASYNC_PROCESSING_STATUSES):
        return block("PROPOSAL_PROCESSING_IN_PROGRESS", found)
    if found := _first(proposals, lambda p: p.status is Status.AWAITING_SIGNATURE and p.has_valid_signature):
        return block("CONTRACT_ACTIVE", found)
    if found := _first(proposals, _holds_generated_contract):
        return block("CONTRACT_EXISTS", found)
    if found := _first(proposals, lambda p: p.origin == origin and p.status in ACTIVE_STATUSES):
        return StartDecision(RETURN_EXISTING, existing_id=found.id)

    in_force = in_status(*CONTRACT_IN_FORCE_STATUSES)
    if in_force is None:
        return StartDecision(CREATE)
    if not history.recontracting_enabled:
        return block("PROPOSAL_FINALIZED", in_force)
    if history.longest_overdue_days > 0:
        return block("DELINQUENT_CONTRACT", longest_overdue_days=history.longest_overdue_days)
    return StartDecision(CREATE)
