"""Status webhook schedule arithmetic and the send-time URL policy (with a recording sender)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from models.db.webhooks import WebhookDelivery
from models.external.partner_endpoints.sandbox import RecordingPartnerEndpoints
from models.services.webhooks import deliveries
from models.services.webhooks.status_delivery import next_offset_delay

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


def test_production_refuses_to_send_to_a_loopback_url():
    # Given a production instance and a partner URL on loopback
    sender = RecordingPartnerEndpoints()
    # When an attempt is made
    response = deliveries.post(
        WebhookDelivery(), "https://127.0.0.1/hook", b"{}", {}, 1.0, partner_endpoints=sender, environment="production"
    )
    # Then nothing is sent and the attempt fails with the reason
    assert (response.status_code, response.ok, sender.requests) == (None, False, [])
    assert response.error == "refused URL: resolves to a private, loopback or otherwise non-public address"


def test_production_refuses_plain_http():
    # Given a production instance and an http:// partner URL
    sender = RecordingPartnerEndpoints()
    response = deliveries.post(
        WebhookDelivery(),
        "http://partner.example/hook",
        b"{}",
        {},
        1.0,
        partner_endpoints=sender,
        environment="production",
    )
    # Then it is refused and nothing is sent
    assert (response.error, sender.requests) == ("refused URL: must use HTTPS outside the sandbox", [])


def test_the_sandbox_sends_to_a_local_receiver_through_the_sender_it_is_given():
    sender = RecordingPartnerEndpoints(script=[202])
    response = deliveries.post(
        WebhookDelivery(),
        "http://127.0.0.1:9100/hook",
        b"{}",
        {"X-Request-Id": "r"},
        2.0,
        partner_endpoints=sender,
        environment="sandbox",
    )
    assert (response.status_code, response.ok) == (202, True)
    assert [(r.url, r.body, r.timeout) for r in sender.requests] == [("http://127.0.0.1:9100/hook", b"{}", 2.0)]


def test_ops_cannot_set_a_url_whose_host_does_not_resolve_or_resolves_inside():
    from models.services.webhooks.urls import validate_partner_url

    def resolver(table):
        def resolve(host, port):
            if host not in table:
                raise OSError("no such host")
            return table[host]

        return resolve

    public = resolver({"hooks.partner.example": ["8.8.8.8"]})
    inside = resolver({"hooks.partner.example": ["100.64.0.9"]})
    url = "https://hooks.partner.example/hook"
    assert validate_partner_url(url, environment="production", resolver=public) is None
    assert validate_partner_url(url, environment="production", resolver=inside) == (
        "resolves to a private, loopback or otherwise non-public address"
    )
    assert validate_partner_url(url, environment="production", resolver=resolver({})) == "does not resolve"
    # The sandbox lets partners use their own machine
    assert validate_partner_url("http://localhost:9100/hook", environment="sandbox", resolver=resolver({})) is None
