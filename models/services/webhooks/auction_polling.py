"""Reading the payroll system's auction feed on a durable schedule (one outbox row per slot)."""

from __future__ import annotations

from datetime import datetime

from models.services.platform.actor_names import ActorName
from models.services.platform.periodic import next_slot
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import AuctionsSettings


def schedule_next_poll(after: datetime | None = None, *, auctions_settings: AuctionsSettings) -> datetime | None:
    """Schedule the poll of the next slot (``auctions_settings.poll_interval_seconds`` apart);
    returns its time, or None when polling is off."""
    if auctions_settings.poll_interval_seconds <= 0:
        return None
    slot, at = next_slot(auctions_settings.poll_interval_seconds, after)
    with unit_of_work():
        enqueue(ActorName.POLL_AUCTION_PROPOSALS, deliver_at=at, dedup_key=f"auction-poll:{slot}")
    return at
