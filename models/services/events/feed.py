"""Status events for the feed: recorded with the change, numbered once visible, listed per origin.

``record`` runs in the status writer's transaction (``status.move``), so every announced change
has its event whether or not the partner has a webhook URL. Feed positions are given afterwards,
by ``number_events`` under one lock, to committed rows only: a transaction that commits late gets
a later position, so a reader that has read up to position N never finds a new event below N
(numbering at insert time would: a lower number may commit after a higher one is read).
"""

from __future__ import annotations

from dataclasses import dataclass

import peewee

from models.db.database import db, is_postgres
from models.db.events import StatusEvent
from models.db.partners import Partner
from models.db.proposals import Proposal, StatusChange
from models.domain import event_feed
from models.domain.clock import now
from models.services.webhooks.status_events import event_body
from models.settings import EventsSettings

# Any constant shared by every process (advisory locks are per database); start-up uses 7_420_001.
NUMBERING_LOCK_KEY = 7_420_016
NUMBERING_BATCH = 1000


def record(change: StatusChange, origin: str) -> None:
    """The feed event of an announced change (call in the transaction that records the change)."""
    # Retention counts on the service's clock, not on a time the change may carry (a sandbox
    # proposal's own clock runs ahead).
    StatusEvent.create(status_change=change.id, origin=origin, created_at=now())


def record_from(changes, origin, created_at) -> peewee.Insert:
    """``record`` as an INSERT of the events of ``changes`` (a common table expression of new
    status change ids, column ``id``): ``proposal_status`` writes the change and its event in one
    statement. ``created_at`` is ``now()`` at the call, as in ``record``."""
    return StatusEvent.insert_from(
        changes.select(changes.c.id, origin, created_at),
        [StatusEvent.status_change, StatusEvent.origin, StatusEvent.created_at],
    )


def number_events(max_batches: int = 10) -> int:
    """Give feed positions to committed events that have none, oldest first, each origin counting
    on from its last position; returns how many were numbered. One numberer at a time: the lock
    is held until commit, so positions become visible in the order they were given."""
    numbered = 0
    for _ in range(max_batches):
        if not StatusEvent.select().where(StatusEvent.position.is_null()).exists():
            break
        count = _number_batch()
        numbered += count
        if count < NUMBERING_BATCH:
            break
    return numbered


def _number_batch() -> int:
    with db.atomic():  # SQLite: BEGIN IMMEDIATE already serialises writers
        if is_postgres():
            db.execute_sql("SELECT pg_advisory_xact_lock(%s)", (NUMBERING_LOCK_KEY,))
        pending = list(
            StatusEvent.select(StatusEvent.id, StatusEvent.origin)
            .where(StatusEvent.position.is_null())
            .order_by(StatusEvent.id)
            .limit(NUMBERING_BATCH)
        )
        if not pending:
            return 0
        origins = {event.origin for event in pending}
        last = dict(
            StatusEvent.select(StatusEvent.origin, peewee.fn.MAX(StatusEvent.position))
            .where(StatusEvent.origin.in_(origins))
            .group_by(StatusEvent.origin)
            .tuples()
        )
        for event in pending:
            position = (last.get(event.origin) or 0) + 1
            last[event.origin] = position
            StatusEvent.update(position=position).where(StatusEvent.id == event.id).execute()
        return len(pending)


@dataclass(frozen=True)
class FeedPage:
    data: list[dict]
    next_cursor: str | None
    has_more: bool


def list_events(origin: str, after: int, limit: int, *, events_settings: EventsSettings) -> FeedPage:
    """The origin's events after position ``after`` (0: from the oldest kept), at most ``limit``,
    each with its position, cursor, the proposal's sequence and the status webhook's body."""
    number_events()
    since = event_feed.listed_since(now(), events_settings.retention_days)
    rows = list(
        StatusEvent.select(StatusEvent, StatusChange, Proposal, Partner)
        .join(StatusChange)
        .join(Proposal)
        .join(Partner, on=(Partner.code == Proposal.origin), attr="origin_partner")
        .where(StatusEvent.origin == origin, StatusEvent.position > after, StatusEvent.created_at > since)
        .order_by(StatusEvent.position)
        .limit(limit + 1)
    )
    page = rows[:limit]
    events = [
        {
            "position": row.position,
            "cursor": event_feed.encode_cursor(row.position),
            "sequence": row.status_change.sequence,
            "event": event_body(
                row.status_change, row.status_change.proposal, row.status_change.proposal.origin_partner
            ),
        }
        for row in page
    ]
    next_cursor = events[-1]["cursor"] if events else (event_feed.encode_cursor(after) if after else None)
    return FeedPage(data=events, next_cursor=next_cursor, has_more=len(rows) > limit)


def purge_expired(*, events_settings: EventsSettings) -> int:
    """Delete events no longer listed; returns how many. Each origin's newest event stays (it is
    not listed either): positions count on from it, so a partner's cursor never meets a reused
    position after a quiet spell longer than the retention."""
    number_events()
    since = event_feed.listed_since(now(), events_settings.retention_days)
    newest = StatusEvent.alias("newest")
    origin_last = newest.select(peewee.fn.MAX(newest.position)).where(newest.origin == StatusEvent.origin)
    return StatusEvent.delete().where(StatusEvent.created_at <= since, StatusEvent.position < origin_last).execute()
