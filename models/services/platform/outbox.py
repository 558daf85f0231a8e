"""The outbox table's reads and housekeeping that publish nothing: backlog figures (metrics), the
purge of finished rows (the relay's sweeper), and the rows the relay parked because it could
never publish them. Publishing itself is ``rabbitmq.outbox_relay``.

A parked row keeps its actor, arguments and the relay's error. Once the cause is fixed (the actor
deployed, a wrong argument corrected in a new release), ``requeue`` hands it back to the relay;
the actor's own idempotency makes a late message harmless.
"""

from __future__ import annotations

from datetime import timedelta

from models.db.outbox import OutboxMessage
from models.domain.clock import now


def _unpublished():
    return OutboxMessage.select().where(
        OutboxMessage.published_at.is_null(), OutboxMessage.canceled_at.is_null(), OutboxMessage.parked_at.is_null()
    )


def due_messages():
    """Query of the rows due and not yet published (the relay adds its order, batch and lock)."""
    return _unpublished().where(OutboxMessage.deliver_at <= now())


def pending_count() -> int:
    """Rows due and not yet published (health and metrics); parked rows are counted apart."""
    return due_messages().count()


def scheduled_count() -> int:
    """Rows scheduled for later (deadlines, next-day jobs), not yet due."""
    return _unpublished().where(OutboxMessage.deliver_at > now()).count()


def purge_finished(older_than: timedelta) -> int:
    """Delete rows published or canceled more than ``older_than`` ago; returns how many."""
    limit = now() - older_than
    return (
        OutboxMessage.delete()
        .where((OutboxMessage.published_at < limit) | (OutboxMessage.canceled_at < limit))
        .execute()
    )


def park(message_id: str, error: str) -> None:
    """Mark a row the relay can never publish, with its error (it is skipped from now on)."""
    (OutboxMessage.update(parked_at=now(), last_error=error[:500]).where(OutboxMessage.id == message_id).execute())


def parked(limit: int = 100) -> list[OutboxMessage]:
    """Parked rows, oldest first."""
    return list(
        OutboxMessage.select()
        .where(OutboxMessage.parked_at.is_null(False))
        .order_by(OutboxMessage.parked_at, OutboxMessage.created_at)
        .limit(limit)
    )


def parked_count() -> int:
    """How many rows are parked (the ``consignado_outbox_parked`` gauge)."""
    return OutboxMessage.select().where(OutboxMessage.parked_at.is_null(False)).count()


def requeue(message_ids: list[str] | None = None) -> int:
    """Give parked rows (all of them when ``message_ids`` is None) back to the relay; returns how many."""
    query = OutboxMessage.update(parked_at=None).where(OutboxMessage.parked_at.is_null(False))
    if message_ids is not None:
        query = query.where(OutboxMessage.id.in_(message_ids))
    return query.execute()
