"""Replay: same body and key, fresh request id and signature, the partner's current URL."""

from __future__ import annotations

import pytest
from freezegun import freeze_time

from models.db.webhooks import DeliveryAttempt, WebhookDelivery
from models.external.auctions.sandbox import make_offer
from models.services.webhooks.auction_delivery import ingest
from models.services.webhooks.deliveries import finish
from models.services.webhooks.delivery_replay import ReplayRefused, replay, replay_failed


def _failed_status_delivery(new_proposal, settle) -> WebhookDelivery:
    proposal = new_proposal()
    settle()
    return WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id)


def test_replaying_a_failed_status_event_sends_it_to_the_current_url(receiver, configure_partner, new_proposal, settle):
    # Given an event that failed against the old endpoint
    old = receiver(default=500)
    configure_partner(webhook_url=old.url())
    delivery = _failed_status_delivery(new_proposal, settle)
    assert delivery.status == "FAILED"
    # When ops fix the URL and replay it
    new = receiver()
    configure_partner(webhook_url=new.url())
    replay(delivery.id)
    settle()
    # Then the new endpoint gets the same body with a new request id and signature
    (request,) = new.received
    assert request.body == old.received[0].body
    assert request.headers["X-Request-Id"] not in {r.headers["X-Request-Id"] for r in old.received}
    delivery = WebhookDelivery.get_by_id(delivery.id)
    assert (delivery.status, delivery.replays, delivery.attempts, delivery.attempt_log.count()) == (
        "DELIVERED",
        1,
        1,
        5,
    )
    # The attempt log numbers every attempt of every round in order; the replay's is the fifth
    log = list(delivery.attempt_log.order_by(DeliveryAttempt.id))
    assert [(a.number, a.status_code, a.url) for a in log] == [(n, 500, old.url()) for n in range(1, 5)] + [
        (5, 200, new.url())
    ]


def test_replaying_an_auction_keeps_its_idempotency_key(receiver, configure_partner, drain):
    # Given an auction delivery whose first attempt failed (closed port) and that ops closed as FAILED
    hook = receiver()
    configure_partner(auction_url="http://127.0.0.1:9/closed")
    with freeze_time("2026-03-02 13:00:00"):
        auction = ingest(make_offer("12345678901", "MARIA SILVA", "1500.00", 24))
        drain()
        delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == auction.id)
        finish(delivery, "FAILED", error="connection error")
        # When ops point the partner at a working URL and replay it
        configure_partner(auction_url=hook.url())
        replay(delivery.id)
        drain()
    # Then it is delivered there once, with the same key as before
    assert [r.headers["X-Idempotency-Key"] for r in hook.received] == [delivery.idempotency_key]
    assert WebhookDelivery.get_by_id(delivery.id).status == "DELIVERED"


def test_a_pending_delivery_cannot_be_replayed(new_proposal, configure_partner):
    # Given a delivery still in flight
    configure_partner(auction_url="http://127.0.0.1:9/")
    auction = ingest(make_offer("12345678901", "MARIA SILVA", "10.00", 2))
    delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == auction.id)
    # When ops try to replay it / Then it is refused
    with pytest.raises(ReplayRefused, match="still being delivered"):
        replay(delivery.id)


def test_replay_all_failed_of_a_partner_leaves_other_partners_alone(configure_partner):
    # Given failed auction deliveries for partners A and B
    configure_partner("PARTNER_A", auction_url="http://127.0.0.1:9/a")
    configure_partner("PARTNER_B", auction_url="http://127.0.0.1:9/b")
    ingest(make_offer("12345678901", "MARIA SILVA", "10.00", 2))
    for delivery in list(WebhookDelivery.select()):  # read first: SQLite snapshot
        finish(delivery, "FAILED", error="HTTP 500")
    # When ops replay every failure of partner A
    replayed = replay_failed("PARTNER_A")
    # Then only A's delivery is pending again
    states = {d.partner_code: d.status for d in WebhookDelivery.select()}
    assert [d.partner_code for d in replayed] == ["PARTNER_A"]
    assert states == {"PARTNER_A": "PENDING", "PARTNER_B": "FAILED"}
