"""Auction webhook: body and headers, idempotency key, 4xx retried, durable 5-minute schedule, alert."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from freezegun import freeze_time

from models.db.webhooks import AuctionProposal, DeliveryAttempt, WebhookDelivery
from models.external.auctions.sandbox import make_offer
from models.services.webhooks.auction_delivery import idempotency_key, ingest
from models.services.webhooks.deliveries import failed_counts

T0 = datetime(2026, 3, 2, 13, 0, tzinfo=timezone.utc)


def _offer(**overrides):
    fields = dict(document="12345678901", name="MARIA SILVA", balance=Decimal("1500"), installments=24)
    fields.update(overrides)
    return make_offer(
        fields.pop("document"), fields.pop("name"), fields.pop("balance"), fields.pop("installments"), **fields
    )


def test_each_auction_partner_receives_the_spec_body_and_headers(receiver, configure_partner, drain):
    # Given partner A has an auction URL with an API key and partner B one without a key
    hook_a, hook_b = receiver(), receiver()
    configure_partner("PARTNER_A", auction_url=hook_a.url("/auctions"), auction_api_key="auction-key-a")
    configure_partner("PARTNER_B", auction_url=hook_b.url("/auctions"))
    # When an eligible auction proposal is ingested
    auction = ingest(_offer())
    drain()
    # Then both receive the exact body, the idempotency key, and x-api-key only where configured
    for hook in (hook_a, hook_b):
        (request,) = hook.received
        assert request.body == (
            b'{"document":"12345678901","name":"MARIA SILVA","available_balance":"1500.00","installment_quantity":24}'
        )
        assert request.headers["Content-Type"] == "application/json"
        assert request.headers["X-Idempotency-Key"] == idempotency_key(auction)
    assert hook_a.received[0].headers["x-api-key"] == "auction-key-a"
    assert "x-api-key" not in {k.lower() for k in hook_b.received[0].headers}


def test_idempotency_key_is_sha256_of_id_document_balance_and_installments(drain):
    # Given two auction proposals with the same customer data
    first, second = ingest(_offer()), ingest(_offer())
    # Then each key is the documented SHA-256 and they differ
    material = f"{first.id}|12345678901|1500.00|24".encode()
    assert idempotency_key(first) == hashlib.sha256(material).hexdigest()
    assert idempotency_key(first) != idempotency_key(second)


def test_a_4xx_is_retried_five_minutes_later_with_the_same_key(receiver, configure_partner, drain):
    # Given partner A's endpoint answers 400 once
    hook = receiver(script=[400])
    configure_partner(auction_url=hook.url())
    with freeze_time(T0) as clock:
        # When the proposal is delivered and five minutes pass
        auction = ingest(_offer())
        drain()
        delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == auction.id)
        assert (delivery.status, delivery.next_attempt_at) == ("PENDING", T0 + timedelta(minutes=5))
        clock.tick(timedelta(minutes=5))
        drain()
    # Then the second attempt delivers it with the same key
    delivery = WebhookDelivery.get_by_id(delivery.id)
    attempts = list(delivery.attempt_log.order_by(DeliveryAttempt.number))
    assert delivery.status == "DELIVERED"
    assert [(a.status_code, a.attempted_at) for a in attempts] == [(400, T0), (200, T0 + timedelta(minutes=5))]
    assert {r.headers["X-Idempotency-Key"] for r in hook.received} == {delivery.idempotency_key}


def test_nothing_is_sent_again_before_the_next_attempt_is_due(receiver, configure_partner, drain):
    # Given a first attempt that failed
    hook = receiver(script=[500])
    configure_partner(auction_url=hook.url())
    with freeze_time(T0) as clock:
        ingest(_offer())
        drain()
        # When four minutes pass
        clock.tick(timedelta(minutes=4))
        drain()
    # Then there was still only one attempt
    assert len(hook.received) == 1


def test_after_five_failures_the_delivery_fails_and_alerts(receiver, configure_partner, drain, caplog):
    # Given partner A's endpoint always answers 503
    hook = receiver(default=503)
    configure_partner(auction_url=hook.url())
    with freeze_time(T0) as clock:
        # When the whole schedule runs, and more time passes
        auction = ingest(_offer())
        drain()
        for _ in range(5):
            clock.tick(timedelta(minutes=5))
            drain()
    # Then five attempts were made at 0, 5, 10, 15 and 20 minutes, then FAILED with an alert
    delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == auction.id)
    offsets = [a.attempted_at - T0 for a in delivery.attempt_log.order_by(DeliveryAttempt.number)]
    assert offsets == [timedelta(minutes=m) for m in (0, 5, 10, 15, 20)]
    assert (delivery.status, delivery.last_error) == ("FAILED", "HTTP 503")
    assert len(hook.received) == 5
    assert failed_counts() == {"status": 0, "auction": 1}
    assert "ALERT auction webhook to PARTNER_A FAILED after 5 attempts" in caplog.text


def test_a_refused_connection_is_a_failed_attempt(receiver, configure_partner, drain):
    # Given partner A's auction URL points at a closed port
    hook = receiver()
    url = hook.url()
    hook.stop()
    configure_partner(auction_url=url)
    with freeze_time(T0):
        # When the proposal is delivered
        auction = ingest(_offer())
        drain()
    # Then the attempt records the connection error and a retry is scheduled
    delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == auction.id)
    (attempt,) = delivery.attempt_log
    assert attempt.status_code is None and attempt.error.startswith("connection error")
    assert delivery.next_attempt_at == T0 + timedelta(minutes=5)


def test_ineligible_proposals_are_stored_but_not_sent(receiver, configure_partner, drain):
    # Given a partner with an auction URL
    hook = receiver()
    configure_partner(auction_url=hook.url())
    # When the payroll system publishes an ineligible proposal
    auction = ingest(_offer(eligible=False))
    drain()
    # Then it is kept, flagged, and nobody is notified
    assert AuctionProposal.get_by_id(auction.id).eligible is False
    assert hook.received == [] and WebhookDelivery.select().count() == 0


def test_the_same_external_proposal_is_ingested_once(receiver, configure_partner, drain):
    # Given a partner with an auction URL
    hook = receiver()
    configure_partner(auction_url=hook.url())
    # When the payroll system publishes the same proposal twice
    first = ingest(_offer(external_id="payroll-77"))
    second = ingest(_offer(external_id="payroll-77"))
    drain()
    # Then one proposal and one delivery exist
    assert first.id == second.id
    assert len(hook.received) == 1 and json.loads(hook.received[0].body)["document"] == "12345678901"
