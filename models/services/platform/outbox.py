"""The outbox as ops see it: rows the relay parked because it could never publish them.

A parked row keeps its actor, arguments and the relay's error. Once the cause is fixed (the
actor deployed, a wrong argument corrected in a new release), ``requeue`` hands it back to the
relay; the actor's own idempotency makes a late message harmless.
"""
from __future__ import annotations

from models.db.outbox import OutboxMessage


def parked(limit: int = 100) -> list[OutboxMessage]:
    """Parked rows, oldest first."""
    return list(OutboxMessage.select().where(OutboxMessage.parked_at.is_null(False))
                .order_by(OutboxMessage.parked_at, OutboxMessage.created_at).limit(limit))


def parked_count() -> int:
    """How many rows are parked (the ``consignado_outbox_parked`` gauge)."""
    return OutboxMessage.select().where(OutboxMessage.parked_at.is_null(False)).count()


def requeue(message_ids: list[str] | None = None) -> int:
    """Give parked rows (all of them when ``message_ids`` is None) back to the relay; returns how many."""
    query = OutboxMessage.update(parked_at=None).where(OutboxMessage.parked_at.is_null(False))
    if message_ids is not None:
        query = query.where(OutboxMessage.id.in_(message_ids))
    return query.execute()
