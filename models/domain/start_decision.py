"""Pure decision of POST /proposals/start from the customer's (CPF's) history.

Order (spec "Start-proposal decision order", blocking 409s slotted in):

1. any proposal in ANALYSIS_APPROVED → BLOCK PROPOSAL_AWAITING_DISBURSEMENT;
2. any proposal in DISBURSEMENT_FAILED → BLOCK PROPOSAL_FINALIZED;
   then the other CPF-wide 409s, in this order:
   PENDING_ANALYSIS → PROPOSAL_PENDING_FRAUD_ANALYSIS;
   an async processing status → PROPOSAL_PROCESSING_IN_PROGRESS;
   a generated contract not yet signed (CONTRACT_GENERATED, AWAITING_SIGNATURE)
   → CONTRACT_EXISTS ("contract already generated for the CPF");
   an active proposal of the *requesting* origin → RETURN_EXISTING;
3. no contract in force (SIGNED, ERROR, DISBURSED...) → CREATE;
4. re-contracting off for the origin → BLOCK PROPOSAL_FINALIZED;
   an active contract (``holds_active_contract``: signed, money not yet moved)
   → BLOCK CONTRACT_ACTIVE;
5. longest_overdue_days > 0 → BLOCK DELINQUENT_CONTRACT; else CREATE.

Decisions:
* CONTRACT_ACTIVE has one meaning on every route, the spec's "active contract
  with valid digital signature": ``statuses.holds_active_contract``, the same
  family POST contract refuses a second contract with. A contract awaiting its
  signature has no valid signature yet: it is CONTRACT_EXISTS, whether its
  window is open or lapsed but not yet marked EXPIRED.
* CONTRACT_ACTIVE comes after step 4, so "CPF has a SIGNED/DISBURSED contract
  and re-contracting is off" stays PROPOSAL_FINALIZED as the spec words it;
  with re-contracting on, a signed contract must be paid (settled) before a new
  proposal starts: re-contracting is for a contract in force, and POST contract
  would refuse the new one anyway while the first is unsettled. Its other
  unsettled states answer their own earlier codes (PENDING_ANALYSIS,
  ANALYSIS_APPROVED), so CONTRACT_ACTIVE is answered for SIGNED and ERROR.
* A contract the watchdog abandoned (generation never finished) is no contract:
  its proposal is back in BANK_DATA_SUBMITTED, an active proposal like any
  other (returned to its origin, no block for another).
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
* Dead proposals never reach this decision: the use case first moves every proposal of the CPF
  whose deadline has come through its exit (``status_deadlines``), so lapsed offers or a failed
  analysis that can no longer be retried are EXPIRED (final) here. A failed analysis the retry
  route can still take is active: its origin gets it back (RETURN_EXISTING) and retries it.
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
    holds_active_contract,
)

CREATE, RETURN_EXISTING, BLOCK = "CREATE", "RETURN_EXISTING", "BLOCK"

_MESSAGES = {
    "PROPOSAL_AWAITING_DISBURSEMENT": "A proposal of this CPF is approved and awaiting disbursement.",
    "PROPOSAL_FINALIZED": "This CPF has a finalized proposal; a new one cannot be started.",
    "PROPOSAL_PENDING_FRAUD_ANALYSIS": "A proposal of this CPF is under fraud analysis.",
    "PROPOSAL_PROCESSING_IN_PROGRESS": "Asynchronous processing is active for this CPF.",
    "CONTRACT_ACTIVE": "This CPF has an active contract with a valid digital signature, not yet disbursed.",
    "CONTRACT_EXISTS": "A contract has already been generated for this CPF.",
    "DELINQUENT_CONTRACT": "This CPF has overdue installments; re-contracting is not allowed.",
}


@dataclass(frozen=True)
class ProposalSnapshot:
    """What the decision needs to know about one existing proposal of the CPF."""

    id: str
    status: Status
    origin: str


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


def decide_start(history: CustomerHistory, origin: str) -> StartDecision:
    """Decide what POST /proposals/start does for ``origin`` given the CPF's history."""
    proposals = [ProposalSnapshot(p.id, Status(p.status), p.origin) for p in history.proposals]
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
    if found := in_status(*CONTRACT_PENDING_SIGNATURE):
        return block("CONTRACT_EXISTS", found)
    if found := _first(proposals, lambda p: p.origin == origin and p.status in ACTIVE_STATUSES):
        return StartDecision(RETURN_EXISTING, existing_id=found.id)

    in_force = in_status(*CONTRACT_IN_FORCE_STATUSES)
    if in_force is None:
        return StartDecision(CREATE)
    if not history.recontracting_enabled:
        return block("PROPOSAL_FINALIZED", in_force)
    if found := _first(proposals, lambda p: holds_active_contract(p.status)):
        return block("CONTRACT_ACTIVE", found)
    if history.longest_overdue_days > 0:
        return block("DELINQUENT_CONTRACT", longest_overdue_days=history.longest_overdue_days)
    return StartDecision(CREATE)
