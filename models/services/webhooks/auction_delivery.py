"""Auction webhook: ingest auction proposals and deliver each eligible one to every partner with
an auction URL, at least once, on a durable schedule.

Attempts start at ``webhooks.auction_schedule_seconds`` after the first (0, 5, 10, 15, 20 min);
each has a 25-second budget and only a 2xx counts (4xx is retried like 5xx). Retries are outbox
rows with ``deliver_at``, so they survive restarts. After the fifth failure the delivery is FAILED,
an ERROR line alerts the operator and ``deliveries replay`` resends it with the same key.

``deliver`` receives the sender (``partner_endpoints``), the ``[default.webhooks]`` section and the
instance's ``environment`` (URL policy); ``ingest_feed`` the payroll system's feed (``auction_source``).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from decimal import Decimal

import peewee

from models.db.database import db
from models.db.partners import Partner
from models.db.webhooks import AuctionProposal, WebhookDelivery
from models.domain.clock import now
from models.domain.lifecycles import DeliveryStatus
from models.external.auctions import AuctionOffer, AuctionSource
from models.external.partner_endpoints import PartnerEndpoints
from models.services.platform.actor_names import ActorName
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.services.webhooks import deliveries
from models.services.webhooks.signing import AUCTION_FIELD_ORDER, common_headers, raw_body
from models.settings import WebhooksSettings

log = logging.getLogger(__name__)


def money_text(value) -> str:
    """Reais as decimal text with two places ("1500.00")."""
    return str(Decimal(str(value)).quantize(Decimal("0.01")))


def idempotency_key(auction: AuctionProposal) -> str:
    """SHA-256 hex of internal id, document, balance and installments: stable across retries and
    replays, different for different proposals (the internal id is unique)."""
    material = "|".join(
        (auction.id, auction.document, money_text(auction.available_balance), str(auction.installment_quantity))
    )
    return hashlib.sha256(material.encode()).hexdigest()


def auction_body(auction: AuctionProposal) -> dict:
    """The spec's auction notification body."""
    return {
        "document": auction.document,
        "name": auction.name,
        "available_balance": money_text(auction.available_balance),
        "installment_quantity": int(auction.installment_quantity),
    }


def is_eligible(offer: AuctionOffer) -> bool:
    """Flagged eligible by the payroll system, with a well-formed CPF, balance and term."""
    return (
        offer.eligible
        and len(offer.document) == 11
        and offer.document.isdigit()
        and offer.available_balance > 0
        and offer.installment_quantity > 0
    )


def ingest(offer: AuctionOffer) -> AuctionProposal:
    """Store an auction proposal once (by external id) and queue one delivery per auction partner."""
    with unit_of_work():
        existing = AuctionProposal.get_or_none(AuctionProposal.external_id == offer.external_id)
        if existing is not None:
            return existing
        try:
            with db.atomic():
                auction = AuctionProposal.create(
                    external_id=offer.external_id,
                    document=offer.document,
                    name=offer.name,
                    available_balance=offer.available_balance,
                    installment_quantity=offer.installment_quantity,
                    eligible=is_eligible(offer),
                )
        except peewee.IntegrityError:  # a concurrent ingest of the same proposal won
            return AuctionProposal.get(AuctionProposal.external_id == offer.external_id)
        if auction.eligible:
            partners = Partner.select().where(Partner.auction_url.is_null(False), Partner.auction_url != "")
            for partner in partners.order_by(Partner.code):
                delivery = WebhookDelivery.create(
                    kind="auction",
                    partner_code=partner.code,
                    proposal_id=auction.id,
                    idempotency_key=idempotency_key(auction),
                    payload=auction_body(auction),
                    next_attempt_at=now(),
                )
                enqueue(ActorName.DELIVER_AUCTION, delivery.id)
    return auction


def ingest_feed(*, auction_source: AuctionSource) -> list[AuctionProposal]:
    """Read the auction proposals published since the last read and ingest each (idempotent);
    raises AuctionSourceError when the feed cannot be read."""
    return [ingest(offer) for offer in auction_source.fetch_new()]


def recent_auctions(limit: int) -> list[AuctionProposal]:
    """The most recently received auction proposals, newest first."""
    return list(AuctionProposal.select().order_by(AuctionProposal.received_at.desc()).limit(limit))


def headers_for(delivery: WebhookDelivery, partner: Partner, body: bytes) -> dict[str, str]:
    """Spec headers (X-Idempotency-Key, x-api-key when configured) plus request id and signature."""
    headers = common_headers(partner, body)
    headers["X-Idempotency-Key"] = delivery.idempotency_key
    if partner.auction_api_key:
        headers["x-api-key"] = partner.auction_api_key
    return headers


def deliver(
    delivery_id: str, *, partner_endpoints: PartnerEndpoints, webhooks_settings: WebhooksSettings, environment: str
) -> str | None:
    """One attempt when due; returns the delivery status after it."""
    settings = webhooks_settings
    delivery = WebhookDelivery.get_or_none(WebhookDelivery.id == delivery_id)
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return delivery.status if delivery else None
    if deliveries.seconds_until_due(delivery) > 0 or not deliveries.claim(
        delivery, settings.auction_timeout_seconds + 5
    ):
        return _come_back_later(delivery_id)
    partner = deliveries.partner_at_send_time(delivery.partner_code)
    body = raw_body(delivery.payload, AUCTION_FIELD_ORDER)
    headers = headers_for(delivery, partner, body)
    response = deliveries.post(
        delivery,
        partner.auction_url,
        body,
        headers,
        settings.auction_timeout_seconds,
        partner_endpoints=partner_endpoints,
        environment=environment,
    )
    schedule = list(settings.auction_schedule_seconds)
    with unit_of_work():
        deliveries.record_attempt(delivery, partner.auction_url, headers["X-Request-Id"], response)
        if response.ok:
            deliveries.finish(delivery, DeliveryStatus.DELIVERED)
        elif delivery.attempts >= len(schedule):
            error = deliveries.describe_failure(response)
            deliveries.finish(delivery, DeliveryStatus.FAILED, error=error)
            log.error(
                "ALERT auction webhook to %s FAILED after %d attempts (delivery %s, auction %s): %s; "
                "resend with `deliveries replay %s`",
                partner.code,
                delivery.attempts,
                delivery.id,
                delivery.proposal_id,
                error,
                delivery.id,
            )
        else:
            at = delivery.round_started_at + timedelta(seconds=schedule[delivery.attempts])
            deliveries.reschedule(delivery, at, deliveries.describe_failure(response))
            enqueue(
                ActorName.DELIVER_AUCTION,
                delivery.id,
                deliver_at=at,
                dedup_key=f"auction:{delivery.id}:{delivery.replays}:{delivery.attempts + 1}",
            )
    return delivery.status


def _come_back_later(delivery_id: str) -> str:
    """A copy that arrived early or while another worker sends (redelivery after a crash, say):
    schedule one durable re-check at the due time instead of dropping it."""
    delivery = WebhookDelivery.get_by_id(delivery_id)
    if delivery.status == DeliveryStatus.PENDING:
        with unit_of_work():
            enqueue(
                ActorName.DELIVER_AUCTION,
                delivery.id,
                deliver_at=delivery.next_attempt_at,
                dedup_key=f"auction-recheck:{delivery.id}:{delivery.replays}:{delivery.attempts}",
            )
    return delivery.status


def replay(delivery: WebhookDelivery) -> None:
    """Queue a finished auction delivery again (call inside unit_of_work)."""
    enqueue(ActorName.DELIVER_AUCTION, delivery.id)
