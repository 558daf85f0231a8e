"""Manual resend of finished webhook deliveries (ops: ``deliveries replay``).

A replay starts a new round: same body and idempotency key, a fresh X-Request-Id, signature
timestamp and retry schedule, and the partner's URL and credentials as they are now.
"""

from __future__ import annotations

from models.db.webhooks import WebhookDelivery
from models.domain.clock import now
from models.domain.lifecycles import DeliveryStatus
from models.services.platform.unit_of_work import unit_of_work
from models.services.webhooks import auction_delivery, status_delivery


class ReplayRefused(Exception):
    """The delivery does not exist or is still being delivered."""


def replay(delivery_id: str) -> WebhookDelivery:
    """Reset a finished delivery (DELIVERED, FAILED or SKIPPED) to PENDING and queue it."""
    with unit_of_work():
        delivery = WebhookDelivery.get_or_none(WebhookDelivery.id == delivery_id)
        if delivery is None:
            raise ReplayRefused(f"no delivery {delivery_id}")
        if delivery.status == DeliveryStatus.PENDING:
            raise ReplayRefused(f"delivery {delivery_id} is still being delivered")
        reset = (
            WebhookDelivery.update(
                status=DeliveryStatus.PENDING,
                attempts=0,
                round_started_at=None,
                next_attempt_at=now(),
                delivered_at=None,
                failed_at=None,
                replays=WebhookDelivery.replays + 1,
            )
            .where(WebhookDelivery.id == delivery.id, WebhookDelivery.status == delivery.status)
            .execute()
        )
        if not reset:
            raise ReplayRefused(f"delivery {delivery_id} changed meanwhile; try again")
        delivery = WebhookDelivery.get_by_id(delivery.id)
        (status_delivery if delivery.kind == "status" else auction_delivery).replay(delivery)
    return delivery


def replay_failed(partner_code: str) -> list[WebhookDelivery]:
    """Replay every FAILED delivery of a partner (both kinds), oldest first."""
    ids = [
        d.id
        for d in WebhookDelivery.select(WebhookDelivery.id)
        .where(WebhookDelivery.partner_code == partner_code, WebhookDelivery.status == DeliveryStatus.FAILED)
        .order_by(WebhookDelivery.created_at)
    ]
    return [replay(delivery_id) for delivery_id in ids]
