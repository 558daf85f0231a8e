"""The auction feed is polled on a durable schedule: one outbox row per slot, whoever schedules."""

from dataclasses import replace
from datetime import datetime, timezone

import pytest
from freezegun import freeze_time

from models import runtime
from models.db.outbox import OutboxMessage
from models.services.webhooks import auction_polling


@pytest.fixture
def every_minute():
    """The auctions section with a one-minute poll (the test environment polls only on demand)."""
    return replace(runtime.current().settings.auctions, poll_interval_seconds=60)


@freeze_time("2026-11-21T12:00:30Z")
def test_next_poll_lands_on_the_next_slot(every_minute):
    at = auction_polling.schedule_next_poll(auctions_settings=every_minute)
    assert at == datetime(2026, 11, 21, 12, 1, tzinfo=timezone.utc)
    row = OutboxMessage.get()
    assert (row.actor_name, row.deliver_at, row.dedup_key) == (
        "poll_auction_proposals",
        at,
        f"auction-poll:{int(at.timestamp()) // 60}",
    )


@freeze_time("2026-11-21T12:00:30Z")
def test_many_processes_scheduling_keep_one_row(every_minute):
    for _ in range(4):  # API processes and worker pools all schedule at start-up
        auction_polling.schedule_next_poll(auctions_settings=every_minute)
    assert OutboxMessage.select().count() == 1


def test_polling_off_schedules_nothing():
    assert auction_polling.schedule_next_poll(auctions_settings=runtime.current().settings.auctions) is None
    assert OutboxMessage.select().count() == 0


def test_a_due_poll_ingests_the_feed_and_schedules_the_next(every_minute, drain, use_runtime):
    from models.db.webhooks import AuctionProposal
    from models.external.auctions.sandbox import SandboxAuctionSource, make_offer

    feed = SandboxAuctionSource()
    use_runtime(ports={"auction_source": feed}, settings={"auctions": every_minute})
    with freeze_time("2026-11-21T12:00:30Z") as frozen:
        auction_polling.schedule_next_poll(auctions_settings=every_minute)
        feed.inject(make_offer("52998224725", "MARIA DA SILVA", "1500.00", 24))
        frozen.move_to("2026-11-21T12:01:00Z")
        drain()
        pending = OutboxMessage.select().where(
            OutboxMessage.actor_name == "poll_auction_proposals", OutboxMessage.published_at.is_null()
        )
        assert [row.deliver_at for row in pending] == [datetime(2026, 11, 21, 12, 2, tzinfo=timezone.utc)]
    assert AuctionProposal.select().where(AuctionProposal.document == "52998224725").count() == 1
