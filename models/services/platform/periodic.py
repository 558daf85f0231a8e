"""Jobs that run every N seconds on a durable schedule: one outbox row per time slot.

Every process (API workers, pools) computes the same slot, and the caller enqueues the job with a
dedup key naming the slot, so however many processes schedule the next run one message runs per
interval; the row is in the database, so a restart loses nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from models.domain.clock import now


def next_slot(interval_seconds: int, after: datetime | None = None) -> tuple[int, datetime]:
    """The slot after ``after`` (default now) in slots ``interval_seconds`` long (> 0): its number
    (for the dedup key) and the instant it starts (the job's ``deliver_at``)."""
    slot = int(((after or now()) + timedelta(seconds=interval_seconds)).timestamp()) // interval_seconds
    return slot, datetime.fromtimestamp(slot * interval_seconds, tz=timezone.utc)
