"""Reads and housekeeping of the outbox table that publish nothing: backlog figures (metrics) and
the purge of finished rows (the relay's sweeper). Publishing itself is ``rabbitmq.outbox_relay``."""
from __future__ import annotations

from datetime import timedelta

from models.db.outbox import OutboxMessage
from models.domain.clock import now


def _unpublished():
    return OutboxMessage.select().where(OutboxMessage.published_at.is_null(), OutboxMessage.canceled_at.is_null())


def due_messages():
    """Query of the rows due and not yet published (the relay adds its order, batch and lock)."""
    return _unpublished().where(OutboxMessage.deliver_at <= now())


def pending_count() -> int:
    """Rows due and not yet published (health and metrics)."""
    return due_messages().count()


def scheduled_count() -> int:
    """Rows scheduled for later (deadlines, next-day jobs), not yet due."""
    return _unpublished().where(OutboxMessage.deliver_at > now()).count()


def purge_finished(older_than: timedelta) -> int:
    """Delete rows published or canceled more than ``older_than`` ago; returns how many."""
    limit = now() - older_than
    return (OutboxMessage.delete()
            .where((OutboxMessage.published_at < limit) | (OutboxMessage.canceled_at < limit))
            .execute())
