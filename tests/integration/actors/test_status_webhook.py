"""Status-change webhook: exact body and headers per auth mode, schedule, dead letter, order."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

from models import runtime
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.db.webhooks import DeliveryAttempt, WebhookDelivery
from models.domain.status_machine import Trigger
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import unit_of_work
from models.services.webhooks.deliveries import DUE_TOLERANCE
from tests.builders import recorded_proposal


def _move(proposal: Proposal, *triggers: Trigger) -> None:
    with unit_of_work():
        for trigger in triggers:
            move(proposal, trigger, source="http")


def _expected_body(proposal: Proposal, old, new, changed_at) -> dict:
    return {
        "origin": {"code": "PARTNER_A", "name": "Sandbox Partner A"},
        "timestamp": changed_at,
        "event_type": "proposal.status.changed",
        "proposal_id": proposal.id,
        "proposal_data": {
            "cpf": "12345678901",
            "phone": "+5511987654321",
            "created_at": proposal.created_at.strftime("%Y-%m-%dT%H:%M:%S.")
            + f"{proposal.created_at.microsecond // 1000:03d}Z",
            "updated_at": changed_at,
        },
        "status_change": {"old_status": old, "new_status": new},
    }


def _iso(dt) -> str:
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def test_every_status_change_is_posted_with_the_spec_body_in_order(receiver, configure_partner, new_proposal, drain):
    # Given partner A has a webhook URL and no auth
    hook = receiver()
    configure_partner(webhook_url=hook.url())
    # When a proposal moves to TOKEN_SENT, then to TOKEN_VALIDATED
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN)
    drain()
    # Then both events arrive, in order, with exactly the spec's body
    bodies = [json.loads(r.body) for r in hook.received]
    changes = list(proposal.status_changes.order_by(Proposal.status_changes.rel_model.sequence))
    assert bodies == [
        _expected_body(proposal, "CREATED", "TOKEN_SENT", _iso(changes[1].changed_at)),
        _expected_body(proposal, "TOKEN_SENT", "TOKEN_VALIDATED", _iso(changes[2].changed_at)),
    ]
    assert list(json.loads(hook.received[0].body)) == [
        "origin",
        "timestamp",
        "event_type",
        "proposal_id",
        "proposal_data",
        "status_change",
    ]


def test_the_creation_is_history_not_an_event(receiver, configure_partner, drain):
    """Spec, Events: the webhook is "sent ... whenever a proposal status changes", with
    "status_change.old_status, status_change.new_status | string, a proposal status". A creation
    changes no status (there is no old one): it is recorded, not sent."""
    hook = receiver()
    configure_partner(webhook_url=hook.url())
    proposal = recorded_proposal()
    drain()
    assert [c.new_status for c in proposal.status_changes] == ["CREATED"]
    assert (hook.received, WebhookDelivery.select().count()) == ([], 0)


def test_a_change_before_any_contact_sends_the_phone_as_an_empty_string(receiver, configure_partner, drain):
    """Spec, Events: "proposal_data.phone | string, `+55...`". A proposal that leaves CREATED
    without the contact step has no phone: the field is an empty string, never null."""
    hook = receiver()
    configure_partner(webhook_url=hook.url())
    proposal = recorded_proposal(phone=None)
    _move(proposal, Trigger.PROPOSAL_EXPIRED)
    drain()
    (request,) = hook.received
    body = json.loads(request.body)
    assert (body["proposal_data"]["phone"], body["status_change"]) == (
        "",
        {"old_status": "CREATED", "new_status": "EXPIRED"},
    )
    assert request.headers["X-Event-Sequence"] == "1"


def test_headers_without_auth_carry_environment_request_id_sequence_and_signature(
    receiver, configure_partner, new_proposal, drain
):
    # Given partner A with auth mode none
    hook = receiver()
    configure_partner(webhook_url=hook.url(), webhook_auth_mode="none")
    # When its proposal changes status for the first time
    new_proposal()
    drain()
    # Then the headers are the spec's plus sequence and a valid signature, and no credentials
    headers = hook.received[0].headers
    assert headers["Content-Type"] == "application/json"
    assert headers["X-Environment"] == runtime.current().settings.credential_environment == "staging"
    assert len(headers["X-Request-Id"]) == 32
    assert headers["X-Event-Sequence"] == "1"
    assert "Authorization" not in headers and "x-api-key" not in {k.lower() for k in headers}
    t, v1 = (part.split("=", 1)[1] for part in headers["X-Signature"].split(","))
    secret = Partner.get(Partner.code == "PARTNER_A").webhook_signing_secret
    expected = hmac.new(secret.encode(), f"{t}.".encode() + hook.received[0].body, hashlib.sha256).hexdigest()
    assert v1 == expected


def test_api_key_mode_sends_the_key_in_its_named_header(receiver, configure_partner, new_proposal, drain):
    # Given partner A authenticates webhooks with an API key in X-Partner-Key
    hook = receiver()
    configure_partner(
        webhook_url=hook.url(),
        webhook_auth_mode="api_key",
        webhook_auth_header="X-Partner-Key",
        webhook_auth_value="key-123",
    )
    # When an event is sent
    new_proposal()
    drain()
    # Then the key is in that header and there is no bearer token
    headers = hook.received[0].headers
    assert headers["X-Partner-Key"] == "key-123"
    assert "Authorization" not in headers


def test_bearer_mode_sends_an_authorization_header(receiver, configure_partner, new_proposal, drain):
    # Given partner A authenticates webhooks with a bearer token
    hook = receiver()
    configure_partner(webhook_url=hook.url(), webhook_auth_mode="bearer", webhook_auth_value="tok-456")
    # When an event is sent
    new_proposal()
    drain()
    # Then it carries Authorization: Bearer <token>
    assert hook.received[0].headers["Authorization"] == "Bearer tok-456"


def test_each_attempt_has_its_own_request_id(receiver, configure_partner, new_proposal, drain):
    # Given an endpoint that fails once
    hook = receiver(script=[500])
    configure_partner(webhook_url=hook.url())
    # When the event is retried
    new_proposal()
    drain()
    # Then the two attempts carry different request ids and the same body
    first, second = hook.received
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]
    assert first.body == second.body


def test_partner_without_url_gets_a_skipped_delivery(new_proposal, drain):
    # Given partner A has no webhook URL (the seeded default)
    # When a proposal changes status
    proposal = new_proposal()
    drain()
    # Then the event is recorded as SKIPPED with no attempt
    delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id)
    assert (delivery.status, delivery.attempts, delivery.attempt_log.count()) == ("SKIPPED", 0, 0)


def test_failures_are_retried_until_a_2xx(receiver, configure_partner, new_proposal, drain):
    # Given an endpoint that answers 500, then 503, then 200
    hook = receiver(script=[500, 503])
    configure_partner(webhook_url=hook.url())
    # When an event is sent
    proposal = new_proposal()
    drain()
    # Then the third attempt delivers it and every attempt is logged
    delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id)
    attempts = list(delivery.attempt_log.order_by(DeliveryAttempt.number))
    assert delivery.status == "DELIVERED"
    assert [a.status_code for a in attempts] == [500, 503, 200]
    assert all(a.url == hook.url() and a.latency_ms is not None for a in attempts)
    assert attempts[0].response_snippet == '{"received":true}'


def test_after_the_fourth_failure_the_message_is_dead_lettered(
    receiver, configure_partner, new_proposal, settle, caplog
):
    # Given an endpoint that always answers 503
    hook = receiver(default=503)
    configure_partner(webhook_url=hook.url())
    # When an event is sent
    proposal = new_proposal()
    settle()
    # Then four attempts are made on the schedule, the delivery is FAILED and the message dead-lettered
    delivery = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id)
    assert len(hook.received) == 4
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("FAILED", 4, "HTTP 503")
    assert settle.dead_lettered("status_webhook") == 1
    # No attempt left before its planned offset from the first one (less the documented tolerance):
    # checked on the service's own record, where the receiver's arrival jitter does not count.
    schedule = runtime.current().settings.webhooks.status_schedule_seconds
    attempts = list(
        DeliveryAttempt.select().where(DeliveryAttempt.delivery == delivery.id).order_by(DeliveryAttempt.number)
    )
    sent = [a.attempted_at - timedelta(milliseconds=a.latency_ms) for a in attempts]
    earliest = [delivery.round_started_at + timedelta(seconds=p) - DUE_TOLERANCE for p in schedule]
    assert all(at >= limit - timedelta(milliseconds=2) for at, limit in zip(sent, earliest, strict=True))
    assert "status webhook to PARTNER_A failed after 4 attempts" in caplog.text


def test_a_later_event_waits_while_an_earlier_one_is_retried(receiver, configure_partner, new_proposal, drain):
    # Given an endpoint that fails the first two requests
    hook = receiver(script=[500, 500])
    configure_partner(webhook_url=hook.url())
    # When two more changes of one proposal are committed together
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    drain()
    # Then the partner sees every attempt of an event before the next event
    statuses = [json.loads(r.body)["status_change"]["new_status"] for r in hook.received]
    assert statuses == ["TOKEN_SENT", "TOKEN_SENT", "TOKEN_SENT", "TOKEN_VALIDATED", "CREDIT_ANALYSIS_IN_PROGRESS"]
    assert [r.headers["X-Event-Sequence"] for r in hook.received][-3:] == ["1", "2", "3"]


def test_a_released_event_leaves_no_durable_recheck_behind(receiver, configure_partner, new_proposal, drain):
    """The release runs the waiting event at once; its scheduled re-check is cancelled rather than
    left to run later for nothing (the re-check only matters when no release comes)."""
    from models.db.outbox import OutboxMessage

    hook = receiver(script=[500, 500])
    configure_partner(webhook_url=hook.url())
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    drain()
    assert len(hook.received) == 5
    rechecks = OutboxMessage.select().where(OutboxMessage.dedup_key.startswith("status-hold:"))
    assert rechecks.count() >= 1, "the later events were held"
    assert [row.id for row in rechecks if row.published_at is None and row.canceled_at is None] == []


def test_an_event_its_own_run_already_claimed_is_not_released_again(new_proposal, held_outbox):
    """The predecessor's end releases only an event that waits (no attempt yet): one whose run
    recorded and claimed it meanwhile is being sent, and a release would only be a second run that
    finds the claim and waits out its lease."""
    from models.services.webhooks import status_events

    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    *_, earlier, later = _recorded_events(proposal)
    # held: it waits for the release
    assert status_events.next_waiting_change(earlier).id == status_events.change_of(later).id
    WebhookDelivery.update(attempts=1).where(WebhookDelivery.id == later.id).execute()  # its run claimed it
    assert status_events.next_waiting_change(earlier) is None


def _recorded_events(proposal) -> list[WebhookDelivery]:
    """Every announced change of the proposal recorded as a delivery (none attempted), in order."""
    from models.db.proposals import StatusChange
    from models.services.webhooks import status_events

    changes = StatusChange.select().where(StatusChange.proposal == proposal.id, status_events.ANNOUNCED)
    with unit_of_work():
        return [status_events.record_event(change.id) for change in changes.order_by(StatusChange.sequence)]


def _last_event_after_its_predecessors_ended(new_proposal) -> tuple[WebhookDelivery, int]:
    """Three events of one proposal recorded, none attempted; the first two end (delivered) after
    the last one's run saw them pending. Returns the last event's delivery and change id."""
    from models.domain.lifecycles import DeliveryStatus
    from models.services.webhooks import status_delivery, status_events

    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    *earlier, later = _recorded_events(proposal)
    for event in earlier:
        with unit_of_work():
            status_delivery._finish(event, DeliveryStatus.DELIVERED, None)
    return later, status_events.change_of(later).id


def _releases(change_id: int):
    from models.db.outbox import OutboxMessage

    return OutboxMessage.select().where(OutboxMessage.dedup_key.startswith(f"status-release:{change_id}:"))


def test_a_held_run_whose_predecessor_ended_meanwhile_leaves_the_event_to_its_release(new_proposal, held_outbox):
    from models.db.outbox import OutboxMessage
    from models.services.webhooks import status_delivery

    later, change_id = _last_event_after_its_predecessors_ended(new_proposal)
    assert _releases(change_id).count() == 1
    # The later event's run, which saw its predecessor pending, now finds it ended: the release
    # sends the event, so this run neither claims it nor schedules a re-check.
    assert status_delivery._held(later, runtime.current().settings.webhooks, change_id) is True
    assert WebhookDelivery.get_by_id(later.id).attempts == 0
    assert OutboxMessage.select().where(OutboxMessage.dedup_key.startswith("status-hold:")).count() == 0


def test_a_held_run_whose_predecessor_ended_without_releasing_it_goes_on(new_proposal, held_outbox):
    from models.db.outbox import OutboxMessage
    from models.services.webhooks import status_delivery

    later, change_id = _last_event_after_its_predecessors_ended(new_proposal)
    # As when the predecessor's end read before this event was recorded: no release was sent.
    OutboxMessage.delete().where(OutboxMessage.id.in_([row.id for row in _releases(change_id)])).execute()
    assert status_delivery._held(later, runtime.current().settings.webhooks, change_id) is False
