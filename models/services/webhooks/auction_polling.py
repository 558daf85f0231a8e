"""Reading the payroll system's auction feed on a durable schedule (one outbox row per slot).

Every process computes the same slot key, so however many API and worker processes schedule the
next poll, one message runs per interval; a restart loses nothing since the row is in the database.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from models.domain.clock import now
from models.services.platform.actor_names import ActorName
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import AuctionsSettings


def schedule_next_poll(after: datetime | None = None, *, auctions_settings: AuctionsSettings) -> datetime | None:
    """Schedule the poll of the next slot (``auctions_settings.poll_interval_seconds`` apart);
    returns its time, or None when polling is off."""
    interval = auctions_settings.poll_interval_seconds
    if interval <= 0:
        return None
    slot = int(((after or now()) + timedelta(seconds=interval)).timestamp()) // interval
    at = datetime.fromtimestamp(slot * interval, tz=timezone.utc)
    with unit_of_work():
        enqueue(ActorName.POLL_AUCTION_PROPOSALS, deliver_at=at, dedup_key=f"auction-poll:{slot}")
    return at
