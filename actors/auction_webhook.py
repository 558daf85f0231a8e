"""Auction webhook actors: one delivery attempt per message, and the payroll feed poll."""

import dramatiq

from models import runtime
from models.services.platform.actor_names import ActorName
from rabbitmq.queues import AUCTION_WEBHOOK, queue_name


# Retries are durable outbox rows scheduled by the service (minutes apart), not dramatiq's.
# max_retries only covers unexpected errors (database hiccup): the claim makes reruns safe.
@dramatiq.actor(
    actor_name=ActorName.DELIVER_AUCTION.value,
    queue_name=queue_name(AUCTION_WEBHOOK),
    max_retries=3,
    min_backoff=1000,
    max_backoff=30000,
)
def deliver_auction(delivery_id: str) -> None:
    """Post the auction proposal to one partner, or schedule the next attempt."""
    from models.services.webhooks.auction_delivery import deliver

    rt = runtime.current()
    deliver(
        delivery_id,
        partner_endpoints=rt.ports.partner_endpoints,
        webhooks_settings=rt.settings.webhooks,
        environment=rt.settings.environment,
    )


@dramatiq.actor(
    actor_name=ActorName.POLL_AUCTION_PROPOSALS.value,
    queue_name=queue_name(AUCTION_WEBHOOK),
    max_retries=3,
    min_backoff=5000,
    max_backoff=60000,
)
def poll_auction_proposals() -> None:
    """Read new auction proposals from the payroll system and ingest them (idempotent), then
    schedule the next poll when polling on a schedule is on."""
    from models.services.webhooks.auction_delivery import ingest_feed
    from models.services.webhooks.auction_polling import schedule_next_poll

    rt = runtime.current()
    ingest_feed(auction_source=rt.ports.auction_source)
    schedule_next_poll(auctions_settings=rt.settings.auctions)
