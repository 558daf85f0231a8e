"""Status webhook schedule arithmetic and the send-time URL policy."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from models.db.webhooks import WebhookDelivery
from models.services.webhooks import deliveries
from models.services.webhooks.status_delivery import next_offset_delay
from models.settings import load_settings

T0 = datetime(2026, 3, 2, 13, 0, tzinfo=timezone.utc)
SPEC_SCHEDULE = [0, 1, 2, 4]


def test_next_attempt_is_measured_from_the_first_attempt_not_from_the_last():
    # Given the spec schedule and a first attempt at T0 that took 0.3 s
    # Then attempt 2 is due 0.7 s later, attempt 3 at T0+2 and attempt 4 at T0+4
    assert next_offset_delay(SPEC_SCHEDULE, 1, T0, T0 + timedelta(seconds=0.3)) == 0.7
    assert next_offset_delay(SPEC_SCHEDULE, 2, T0, T0 + timedelta(seconds=1.1)) == 0.9
    assert next_offset_delay(SPEC_SCHEDULE, 3, T0, T0 + timedelta(seconds=2.05)) == 1.95


def test_a_late_attempt_starts_the_next_one_at_once():
    # Given attempt 2 finished after the time attempt 3 was due
    # Then attempt 3 is not delayed further
    assert next_offset_delay(SPEC_SCHEDULE, 2, T0, T0 + timedelta(seconds=2.5)) == 0.0


def test_production_refuses_to_send_to_a_loopback_url(monkeypatch):
    # Given a production instance and a partner URL on loopback
    production = load_settings("production", overrides={"jwt_signing_key": "k" * 40})
    monkeypatch.setattr(deliveries, "current", lambda: production)
    # When an attempt is made
    response = deliveries.post(WebhookDelivery(), "https://127.0.0.1/hook", b"{}", {}, 1.0)
    # Then nothing is sent and the attempt fails with the reason
    assert (response.status_code, response.ok) == (None, False)
    assert response.error == "refused URL: resolves to a private or loopback address, which production never calls"


def test_production_refuses_plain_http(monkeypatch):
    # Given a production instance and an http:// partner URL
    production = load_settings("production", overrides={"jwt_signing_key": "k" * 40})
    monkeypatch.setattr(deliveries, "current", lambda: production)
    # When an attempt is made / Then it is refused
    assert (
        deliveries.post(WebhookDelivery(), "http://partner.example/hook", b"{}", {}, 1.0).error
        == "refused URL: must use HTTPS outside the sandbox"
    )
