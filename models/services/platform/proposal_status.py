"""The one way a proposal's status changes: domain rule, history row, webhook and feed event together.

Call inside ``unit_of_work()``. The update is conditional on the status and sequence just read,
so two concurrent moves cannot both win; the loser gets a 409.
"""

from __future__ import annotations

from models.db.compiled import Compiled
from models.db.proposals import Proposal, StatusChange
from models.domain.errors import DomainError
from models.domain.status_machine import Trigger, next_status
from models.domain.statuses import Status
from models.services.events import feed as events_feed
from models.services.platform.actor_names import ActorName
from models.services.platform.proposal_clock import proposal_now
from models.services.platform.request_context import current_request_id
from models.services.platform.unit_of_work import enqueue, notify
from models.services.webhooks import status_events


class ConcurrentChange(DomainError):
    default_http_status = 409

    def __init__(self, proposal_id: str) -> None:
        super().__init__(
            "The proposal changed while this request was processed; read it and try again",
            error_code="CONCURRENT_UPDATE",
            details={"proposal_id": proposal_id},
        )


# Every status change runs it: rendered once (models/db/compiled.py).
_MOVE: Compiled[Proposal] = Compiled(
    lambda status, sequence, at, proposal_id, sequence_read: Proposal.update(
        status=status, status_sequence=sequence, updated_at=at
    ).where(Proposal.id == proposal_id, Proposal.status_sequence == sequence_read),
    str,
    int,
    Proposal.updated_at,
    str,
    int,
)


def wake_key(proposal_id: str) -> str:
    return f"proposal:{proposal_id}"


def move(
    proposal: Proposal, trigger: Trigger, *, source: str = "http", details: dict | None = None, **guards
) -> StatusChange:
    """Apply ``trigger`` to ``proposal`` (mutated in place) and record the change and its event."""
    current = Status(proposal.status) if proposal.status else None
    target = next_status(current, trigger, **guards)
    changed_at = proposal_now(proposal)  # the proposal's time (its sandbox clock; real elsewhere)
    sequence = proposal.status_sequence + 1
    updated = _MOVE.execute(target.value, sequence, changed_at, proposal.id, proposal.status_sequence)
    if updated != 1:
        raise ConcurrentChange(proposal.id)
    old = proposal.status
    proposal.status, proposal.status_sequence, proposal.updated_at = target.value, sequence, changed_at
    change = StatusChange.create(
        proposal=proposal.id,
        sequence=sequence,
        old_status=old,
        new_status=target.value,
        trigger=trigger.value,
        source=source,
        request_id=current_request_id(),
        details=details,
        changed_at=changed_at,
    )
    events_feed.record(change, proposal.origin)  # GET /v1/events, with or without a webhook URL
    # Events of a proposal go out in order: while the previous one is unfinished, its end sends
    # this one (status_delivery._finish, under the proposal's lock that this update holds too).
    if not status_events.predecessor_unfinished(proposal.id, sequence):
        enqueue(ActorName.DELIVER_STATUS_CHANGE, change.id)
    notify(wake_key(proposal.id))
    return change


def record_creation(proposal: Proposal, *, source: str = "http") -> StatusChange:
    """First history row of a new proposal (CREATED, no previous status).

    It is history only, never a status-change event: the spec sends the webhook "whenever a
    proposal status changes" with ``old_status`` a status, and a creation changes none (the
    partner has the proposal from the 201 of POST /proposals/start). The first event is the
    first change (``X-Event-Sequence`` 1).
    """
    return StatusChange.create(
        proposal=proposal.id,
        sequence=proposal.status_sequence,
        old_status=None,
        new_status=proposal.status,
        trigger=Trigger.START.value,
        source=source,
        request_id=current_request_id(),
        changed_at=proposal.created_at,
    )
