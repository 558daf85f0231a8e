"""The one way a proposal's status changes: domain rule, history row, webhook and feed event together.

Call inside ``unit_of_work()``. The update is conditional on the status and sequence just read,
so two concurrent moves cannot both win; the loser gets a 409.
"""

from __future__ import annotations

import peewee

from models.db.compiled import Compiled
from models.db.database import is_postgres
from models.db.events import StatusEvent
from models.db.proposals import Proposal, StatusChange
from models.domain.clock import now
from models.domain.errors import DomainError
from models.domain.status_machine import Trigger, next_status
from models.domain.statuses import AWAITED_BY_HYBRID_REQUESTS, Status
from models.services.events import feed as events_feed
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import lock_proposal_row, proposal_lock_key
from models.services.platform.proposal_clock import proposal_now
from models.services.platform.request_context import current_request_id
from models.services.platform.unit_of_work import enqueue, holds_row_lock, notify
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


# The columns a change records, in the order of the fused statement's SELECT.
_CHANGE_COLUMNS = (
    StatusChange.proposal,
    StatusChange.sequence,
    StatusChange.old_status,
    StatusChange.new_status,
    StatusChange.trigger,
    StatusChange.source,
    StatusChange.request_id,
    StatusChange.details,
    StatusChange.changed_at,
)


def _moved_and_recorded(
    status, sequence, at, proposal_id, sequence_read, old, trigger, source, request_id, details, origin, created_at
):
    """The UPDATE of ``_MOVE``, the change's INSERT, its feed event's and the order check
    (``predecessor_unfinished``) as one statement: a row (change id, whether the previous event is
    unfinished), none when the UPDATE matched nothing."""
    moved = (
        Proposal.update(status=status, status_sequence=sequence, updated_at=at)
        .where(Proposal.id == proposal_id, Proposal.status_sequence == sequence_read)
        .returning(Proposal.id)
        .cte("moved")
    )
    values = (moved.c.id, sequence, old, status, trigger, source, request_id, details, at)
    change = StatusChange.insert_from(moved.select(*values), list(_CHANGE_COLUMNS)).returning(StatusChange.id)
    changes = change.cte("change")
    event = events_feed.record_from(changes, origin, created_at).cte("event")
    behind = peewee.fn.EXISTS(status_events.predecessor_unfinished_query(proposal_id, sequence_read))
    return changes.select_from(changes.c.id, behind.alias("behind")).with_cte(moved, changes, event).tuples()


_MOVE_AND_RECORD: Compiled[tuple] = Compiled(
    _moved_and_recorded,
    str,
    int,
    Proposal.updated_at,
    str,
    int,
    StatusChange.old_status,
    str,
    str,
    StatusChange.request_id,
    StatusChange.details,
    str,
    StatusEvent.created_at,
)


def move(
    proposal: Proposal, trigger: Trigger, *, source: str = "http", details: dict | None = None, **guards
) -> StatusChange:
    """Apply ``trigger`` to ``proposal`` (mutated in place) and record the change and its event."""
    current = Status(proposal.status) if proposal.status else None
    target = next_status(current, trigger, **guards)
    changed_at = proposal_now(proposal)  # the proposal's time (its sandbox clock; real elsewhere)
    sequence = proposal.status_sequence + 1
    old = proposal.status
    change = StatusChange(
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
    if is_postgres():
        # One statement instead of four. Its order check reads with the UPDATE's snapshot, which is
        # right only when this transaction held the proposal's lock before the statement began:
        # the end of the previous event (status_delivery._finish) commits under that lock, so it
        # committed before that snapshot or waits for this commit. Were the lock taken by the
        # UPDATE itself, it could wait for that end and the check still read the event as
        # unfinished from its older snapshot, while the end, committed first, saw no change to
        # hand over: the event would wait for the sweep. A transaction that has not locked the
        # proposal yet locks it first (a light read; the usual caller has locked it already).
        if not holds_row_lock(proposal_lock_key(proposal.id)):
            lock_proposal_row(proposal.id)
        row = _MOVE_AND_RECORD.first(
            target.value,
            sequence,
            changed_at,
            proposal.id,
            proposal.status_sequence,
            old,
            trigger.value,
            source,
            change.request_id,
            details,
            proposal.origin,
            now(),
        )
        if row is None:
            raise ConcurrentChange(proposal.id)
        change.id, behind = row
    else:  # SQLite: writers are serialised (BEGIN IMMEDIATE), any snapshot is the latest
        if _MOVE.execute(target.value, sequence, changed_at, proposal.id, proposal.status_sequence) != 1:
            raise ConcurrentChange(proposal.id)
        change.save(force_insert=True)
        events_feed.record(change, proposal.origin)  # GET /v1/events, with or without a webhook URL
        behind = status_events.predecessor_unfinished(proposal.id, sequence)
    proposal.status, proposal.status_sequence, proposal.updated_at = target.value, sequence, changed_at
    # Events of a proposal go out in order: while the previous one is unfinished, its end sends
    # this one (status_delivery._finish, under the proposal's lock that this update holds too).
    if not behind:
        enqueue(ActorName.DELIVER_STATUS_CHANGE, change.id)
    if current in AWAITED_BY_HYBRID_REQUESTS:
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
