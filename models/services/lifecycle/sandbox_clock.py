"""POST /sandbox/proposals/{id}/advance: move one proposal's test clock and run what falls due.

The advance commits the new offset together with the proposal's scheduled messages brought
forward by the same amount (``sandbox_clock.rescheduled``): the signature expiry, the disbursement
on its date, the automatic payroll retry, the endorsement after the maintenance window and the
generation watchdog. Those now due are published after commit and run by their own actors, as in
production. Then the lifecycle rule is asked for this proposal at its new time (``sweep.settle``),
so every timeout that has come (offers lapsed, retry window over, idle proposal) is applied through
the status writer with its webhook. Nothing here decides a deadline: the same use cases do, at
``proposal_clock.proposal_now``.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.db.analysis import CreditAnalysis
from models.db.contracts import Contract
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal
from models.domain.clock import now
from models.domain.errors import NotFound, ValidationFailed
from models.domain.sandbox_clock import advance_refusal, rescheduled
from models.domain.status_deadlines import Deadline
from models.services.lifecycle.facts import limits as lifecycle_limits
from models.services.lifecycle.sweep import settle_fully
from models.services.partners.ownership import owned_proposal
from models.services.platform.actor_names import ActorName
from models.services.platform.proposal_clock import offset_of, proposal_now
from models.services.platform.unit_of_work import publish_after_commit, unit_of_work
from models.settings import ContractSettings, CreditSettings, LifecycleSettings

# The scheduled messages that belong to one proposal's time, by what their first argument names.
CONTRACT_JOBS = (
    ActorName.CONTRACT_WATCHDOG,
    ActorName.EXPIRE_SIGNATURE,
    ActorName.ENDORSE_CONTRACT,
    ActorName.DISBURSE,
)
ANALYSIS_JOBS = (ActorName.AUTO_RETRY_CREDIT_ANALYSIS,)


@dataclass(frozen=True)
class Advanced:
    """The proposal after the advance, the scheduled work it made due and the exits it applied."""

    proposal: Proposal
    released: list[str]  # ActorName member names, in delivery order
    exits: list[Deadline]

    @property
    def clock(self) -> dict:
        return {"now": proposal_now(self.proposal), "offset_seconds": offset_of(self.proposal)}


def _scheduled_rows(proposal_id: str) -> list[OutboxMessage]:
    """The proposal's messages still waiting for their time (not published, canceled nor parked)."""
    contract_ids = {row[0] for row in Contract.select(Contract.id).where(Contract.proposal == proposal_id).tuples()}
    analysis_ids = {
        row[0]
        for row in CreditAnalysis.select(CreditAnalysis.id).where(CreditAnalysis.proposal == proposal_id).tuples()
    }
    owned = {str(name): contract_ids for name in CONTRACT_JOBS} | {str(name): analysis_ids for name in ANALYSIS_JOBS}
    rows = OutboxMessage.select().where(
        OutboxMessage.actor_name.in_(list(owned)),
        OutboxMessage.published_at.is_null(),
        OutboxMessage.canceled_at.is_null(),
        OutboxMessage.parked_at.is_null(),
        OutboxMessage.deliver_at > now(),
    )
    return [row for row in rows.order_by(OutboxMessage.deliver_at) if row.args and row.args[0] in owned[row.actor_name]]


def _bring_forward(proposal_id: str, seconds: int) -> list[str]:
    """Move the proposal's scheduled messages ``seconds`` earlier (inside unit_of_work); those now
    due are published after commit. Returns the names of their actors."""
    released = []
    real_now = now()
    for row in _scheduled_rows(proposal_id):
        deliver_at = rescheduled(row.deliver_at, real_now, seconds)
        OutboxMessage.update(deliver_at=deliver_at).where(OutboxMessage.id == row.id).execute()
        if deliver_at <= real_now:
            publish_after_commit(row.id)
            released.append(ActorName(row.actor_name).name)
    return released


def advance(
    origin: str,
    proposal_id: str,
    seconds: int,
    *,
    sandbox_routes: bool,
    lifecycle_settings: LifecycleSettings,
    credit_settings: CreditSettings,
    contract_settings: ContractSettings,
) -> Advanced:
    """Move the origin's proposal's clock ``seconds`` ahead and run what falls due (README
    "Sandbox test clock"). Only where ``sandbox_routes`` is on: elsewhere 404, as if the route
    did not exist (it is not mounted there either)."""
    if not sandbox_routes:
        raise NotFound("The sandbox test clock exists only in the sandbox")
    with unit_of_work():
        proposal = owned_proposal(origin, proposal_id, lock=True)
        refusal = advance_refusal(offset_of(proposal), seconds)
        if refusal is not None:
            raise ValidationFailed(refusal, error_code="VALIDATION_ERROR", details={"field": "seconds"})
        Proposal.update(clock_offset_seconds=Proposal.clock_offset_seconds + seconds).where(
            Proposal.id == proposal.id
        ).execute()
        released = _bring_forward(proposal.id, seconds)
    limits = lifecycle_limits(
        lifecycle_settings=lifecycle_settings, credit_settings=credit_settings, contract_settings=contract_settings
    )
    exits = settle_fully(proposal.id, limits)
    return Advanced(Proposal.get_by_id(proposal.id), released, exits)
