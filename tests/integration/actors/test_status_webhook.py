"""Status-change webhook: exact body and headers per auth mode, schedule, dead letter, order."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta

from freezegun import freeze_time

from models import runtime
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.db.webhooks import DeliveryAttempt, WebhookDelivery
from models.domain.status_machine import Trigger
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import unit_of_work
from models.services.webhooks.deliveries import DUE_TOLERANCE
from tests.builders import recorded_proposal
from tests.support.sent_statements import SentStatements


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


def test_every_event_of_a_partner_without_url_is_skipped_in_order(new_proposal, drain):
    # Given partner A has no webhook URL, when changes are committed behind one another
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    drain()
    # Then each one, handed over by the end of the one before, is SKIPPED with no attempt
    rows = WebhookDelivery.select().where(WebhookDelivery.proposal_id == proposal.id).order_by(WebhookDelivery.sequence)
    assert [(row.sequence, row.status, row.attempts) for row in rows] == [
        (1, "SKIPPED", 0),
        (2, "SKIPPED", 0),
        (3, "SKIPPED", 0),
    ]


def test_failures_are_retried_until_a_2xx(receiver, configure_partner, new_proposal, drain, caplog):
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
    # Each failed attempt is a warning of its own; the runs that scheduled the next one ended as
    # planned retries, not as actor failures
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert [w.split(" (delivery")[0] for w in warnings if w.startswith("status webhook")] == [
        "status webhook to PARTNER_A failed, attempt 1 of 4",
        "status webhook to PARTNER_A failed, attempt 2 of 4",
    ]
    assert any("HTTP 500; next in" in w for w in warnings)
    assert not any(w.startswith("actor finish deliver_status_change failed") for w in warnings)


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


def _three_events(script, *, receiver, configure_partner, new_proposal, drain):
    """An endpoint answering ``script`` (then 200); a proposal's first event, and two more changes
    committed together behind it, all run. Returns the proposal, the receiver and the statuses it
    received, in order."""
    hook = receiver(script=script)
    configure_partner(webhook_url=hook.url())
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    drain()
    return proposal, hook, [json.loads(r.body)["status_change"]["new_status"] for r in hook.received]


def test_a_later_event_waits_while_an_earlier_one_is_retried(receiver, configure_partner, new_proposal, drain):
    # Given an endpoint that fails the first two requests, when two more changes follow the first
    _, hook, statuses = _three_events(
        [500, 500], receiver=receiver, configure_partner=configure_partner, new_proposal=new_proposal, drain=drain
    )
    # Then the partner sees every attempt of an event before the next event
    assert statuses == ["TOKEN_SENT", "TOKEN_SENT", "TOKEN_SENT", "TOKEN_VALIDATED", "CREDIT_ANALYSIS_IN_PROGRESS"]
    assert [r.headers["X-Event-Sequence"] for r in hook.received][-3:] == ["1", "2", "3"]


def test_a_handed_over_event_that_fails_is_retried_on_its_schedule(receiver, configure_partner, new_proposal, drain):
    # Given an endpoint that takes the first event, then fails once, when two more changes are
    # committed behind the first event (sent by its end, no message of their own)
    proposal, _, statuses = _three_events(
        [200, 500], receiver=receiver, configure_partner=configure_partner, new_proposal=new_proposal, drain=drain
    )
    # Then the failed one is attempted again on its schedule, before the next event goes out
    assert statuses == ["TOKEN_SENT", "TOKEN_VALIDATED", "TOKEN_VALIDATED", "CREDIT_ANALYSIS_IN_PROGRESS"]
    second = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id, WebhookDelivery.sequence == 2)
    assert (second.status, second.attempts) == ("DELIVERED", 2)
    attempts = list(second.attempt_log.order_by(DeliveryAttempt.number))
    sent = [a.attempted_at - timedelta(milliseconds=a.latency_ms) for a in attempts]
    schedule = runtime.current().settings.webhooks.status_schedule_seconds
    assert sent[1] - sent[0] >= timedelta(seconds=schedule[1]) - DUE_TOLERANCE - timedelta(milliseconds=2)


def test_a_change_behind_an_unfinished_event_has_no_message_of_its_own(new_proposal, held_outbox):
    """Changes committed while the proposal's previous event is unfinished are sent by its end, one
    after the other (test_a_later_event_waits_while_an_earlier_one_is_retried follows them to the
    partner): a message of their own would only run to find them held."""
    from models.db.outbox import OutboxMessage
    from models.db.proposals import StatusChange

    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    first = StatusChange.get(proposal=proposal.id, sequence=1)
    messages = OutboxMessage.select().where(OutboxMessage.actor_name == "deliver_status_change")
    assert [row.args for row in messages] == [[first.id]]


def test_a_released_event_leaves_no_durable_recheck_behind(receiver, configure_partner, new_proposal, drain):
    """The release runs the waiting event at once; its scheduled re-check is cancelled rather than
    left to run later for nothing (the re-check only matters when no release comes)."""
    from models.db.outbox import OutboxMessage
    from models.db.proposals import StatusChange
    from models.services.platform.actor_names import ActorName
    from models.services.platform.unit_of_work import enqueue

    hook = receiver(script=[500, 500])
    configure_partner(webhook_url=hook.url())
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    with unit_of_work():  # the later events get messages of their own too, as the re-drive sends them
        for change in StatusChange.select().where(StatusChange.proposal == proposal.id, StatusChange.sequence > 1):
            enqueue(ActorName.DELIVER_STATUS_CHANGE, change.id)
    drain()
    assert len(hook.received) == 5
    rechecks = OutboxMessage.select().where(OutboxMessage.dedup_key.startswith("status-hold:"))
    assert rechecks.count() >= 1, "the later events were held"
    assert [row.id for row in rechecks if row.published_at is None and row.canceled_at is None] == []


def test_an_event_its_own_run_already_claimed_is_not_handed_over_again(new_proposal, held_outbox):
    """The predecessor's end hands over only an event that waits (no attempt yet): one whose run
    recorded and claimed it meanwhile is being sent."""
    from models.services.webhooks import status_events

    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    *_, earlier, later = _recorded_events(proposal)
    # held: it waits for the hand-over (recorded: a re-check of its own may be scheduled)
    waiting = status_events.next_waiting_change(earlier)
    assert (waiting.id, waiting.recorded_delivery_id) == (status_events.change_of(later).id, later.id)
    WebhookDelivery.update(attempts=1).where(WebhookDelivery.id == later.id).execute()  # its run claimed it
    assert status_events.next_waiting_change(earlier) is None


def test_the_end_of_an_event_hands_over_the_next_one_even_unrecorded(new_proposal, held_outbox, configure_partner):
    """A change committed behind an unfinished event has no message and no delivery row yet: the
    earlier event's end records it and claims its first attempt for the same run to send."""
    from models.db.proposals import StatusChange
    from models.domain.lifecycles import DeliveryStatus
    from models.services.webhooks import status_delivery, status_events

    configure_partner(webhook_url="https://partner.example/hooks")
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN)
    with unit_of_work():
        first = status_events.record_event(StatusChange.get(proposal=proposal.id, sequence=1).id)
    waiting = status_events.next_waiting_change(first)  # not recorded: no re-check to cancel
    assert (waiting.id, waiting.recorded_delivery_id) == (StatusChange.get(proposal=proposal.id, sequence=2).id, None)
    with unit_of_work():
        handed = status_delivery._finish(first, DeliveryStatus.DELIVERED, None, runtime.current().settings.webhooks)
    second = StatusChange.get(proposal=proposal.id, sequence=2)
    assert handed.change_id == second.id
    row = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id, WebhookDelivery.sequence == 2)
    assert (row.id, row.status, row.attempts) == (handed.delivery.id, "PENDING", 1)


def test_the_handed_over_event_is_recorded_from_the_read_that_found_it(
    new_proposal, held_outbox, configure_partner, monkeypatch
):
    """The read of the waiting event carries its proposal and partner (fresh, in the same round
    trip): recording it is its INSERT alone, and writes what a read of its own would have."""
    from models.db.proposals import StatusChange
    from models.services.webhooks import status_events

    configure_partner(webhook_url="https://partner.example/hooks")
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN)
    with unit_of_work():
        first = status_events.record_event(StatusChange.get(proposal=proposal.id, sequence=1).id)
    waiting = status_events.next_waiting_change(first)
    assert waiting.proposal.cpf == proposal.cpf and waiting.proposal.origin_partner.code == proposal.origin
    with unit_of_work():
        statements = SentStatements(monkeypatch)
        recorded = status_events.record_waiting(waiting, claim_lease_seconds=35)
        monkeypatch.undo()
    assert len(statements.sql) == 1, statements.sql  # the INSERT (an EXECUTE of its prepared statement on PostgreSQL)
    assert WebhookDelivery.get_by_id(recorded.delivery.id).sequence == 2
    assert recorded.partner.webhook_url == "https://partner.example/hooks" and recorded.claimed
    change = StatusChange.get(proposal=proposal.id, sequence=2)
    stored = Proposal.get_by_id(proposal.id)
    assert recorded.delivery.payload == status_events.event_body(change, stored, recorded.partner)


def _recorded_events(proposal) -> list[WebhookDelivery]:
    """Every announced change of the proposal recorded as a delivery (none attempted), in order."""
    from models.db.proposals import StatusChange
    from models.services.webhooks import status_events

    changes = StatusChange.select().where(StatusChange.proposal == proposal.id, status_events.ANNOUNCED)
    with unit_of_work():
        return [status_events.record_event(change.id) for change in changes.order_by(StatusChange.sequence)]


def _last_event_after_its_predecessors_ended(new_proposal, *, handing_over: bool) -> tuple[WebhookDelivery, int]:
    """Three events of one proposal recorded, none attempted; the first two end (delivered) after
    the last one's run saw them pending, handing it over or not (an end that found it claimed).
    Returns the last event's delivery as that run read it, and its change id."""
    from models.domain.lifecycles import DeliveryStatus
    from models.services.webhooks import deliveries, status_delivery, status_events

    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN, Trigger.START_ANALYSIS)
    *earlier, later = _recorded_events(proposal)
    for event in earlier:
        with unit_of_work():
            if handing_over:
                status_delivery._finish(event, DeliveryStatus.DELIVERED, None, runtime.current().settings.webhooks)
            else:
                deliveries.finish(event, DeliveryStatus.DELIVERED)
    return later, status_events.change_of(later).id


def test_a_held_run_whose_predecessor_ended_meanwhile_leaves_the_event_to_the_run_it_was_handed_to(
    new_proposal, held_outbox, configure_partner
):
    from models.db.outbox import OutboxMessage
    from models.services.webhooks import status_delivery

    configure_partner(webhook_url="https://partner.example/hooks")
    later, change_id = _last_event_after_its_predecessors_ended(new_proposal, handing_over=True)
    assert WebhookDelivery.get_by_id(later.id).attempts == 1  # claimed by the run that ended the second
    # The later event's run, which saw its predecessor pending, now finds it ended and the event
    # taken: it neither claims it (it would wait out the claim's lease) nor schedules a re-check.
    assert status_delivery._held(later, runtime.current().settings.webhooks, change_id) is True
    assert WebhookDelivery.get_by_id(later.id).attempts == 1
    assert OutboxMessage.select().where(OutboxMessage.dedup_key.startswith("status-hold:")).count() == 0


def test_a_held_run_whose_predecessor_ended_without_handing_it_over_goes_on(new_proposal, held_outbox):
    from models.services.webhooks import status_delivery

    later, change_id = _last_event_after_its_predecessors_ended(new_proposal, handing_over=False)
    assert status_delivery._held(later, runtime.current().settings.webhooks, change_id) is False


def test_a_handed_over_event_whose_run_breaks_is_re_sent_by_the_sweep(
    receiver, configure_partner, new_proposal, held_outbox, monkeypatch, caplog
):
    """The run's own event is delivered; the database fails while the next one is being sent: the
    run's outcome stands, and the event (claimed, no message) is re-driven once its claim is
    overdue, never stranded."""
    from models.db.outbox import OutboxMessage
    from models.db.proposals import StatusChange
    from models.services.webhooks import status_delivery, status_redrive

    hook = receiver()
    configure_partner(webhook_url=hook.url())
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN)
    finish, calls = status_delivery._finish, []

    def breaks_the_second_time(*args):  # the end of the handed-over event, after its POST
        calls.append(args)
        if len(calls) == 2:
            raise RuntimeError("database went away")
        return finish(*args)

    monkeypatch.setattr(status_delivery, "_finish", breaks_the_second_time)
    rt = runtime.current()
    first = StatusChange.get(proposal=proposal.id, sequence=1)
    status = status_delivery.deliver(
        first.id,
        partner_endpoints=rt.ports.partner_endpoints,
        webhooks_settings=rt.settings.webhooks,
        environment=rt.settings.environment,
        credential_environment=rt.settings.credential_environment,
    )
    assert status == "DELIVERED"
    assert len(hook.received) == 2 and "handed over but not sent" in caplog.text
    second = WebhookDelivery.get(WebhookDelivery.proposal_id == proposal.id, WebhookDelivery.sequence == 2)
    assert (second.status, second.attempts) == ("PENDING", 1)
    # The sweep leaves it alone while its claim runs, then sends it again.
    money_path = rt.settings.money_path
    overdue = second.next_attempt_at + timedelta(seconds=money_path.redrive_first_seconds)
    change_id = StatusChange.get(proposal=proposal.id, sequence=2).id
    for at, sent in ((overdue - timedelta(seconds=1), 0), (overdue, 1)):
        with freeze_time(at):
            assert (
                status_redrive.redrive_pending(money_path_settings=money_path, webhooks_settings=rt.settings.webhooks)
                == sent
            )
    messages = OutboxMessage.select().where(OutboxMessage.actor_name == "deliver_status_change")
    assert [change_id] in [row.args for row in messages]


def test_a_first_run_records_its_event_with_the_attempt_claimed_unless_an_earlier_one_is_pending(
    new_proposal, held_outbox, configure_partner
):
    """The usual first run inserts the delivery with its first attempt's claim (no UPDATE of its
    own); an event behind a pending one is recorded unclaimed, and a row found in place is returned
    as it is."""
    from models.db.proposals import StatusChange
    from models.services.webhooks import deliveries, status_events

    configure_partner(webhook_url="https://partner.example/hooks")
    proposal = new_proposal()
    _move(proposal, Trigger.VALIDATE_TOKEN)
    first_change, second_change = (StatusChange.get(proposal=proposal.id, sequence=n).id for n in (1, 2))
    with freeze_time("2026-11-26T21:00:00Z"), unit_of_work():
        first = status_events.record(first_change, claim_lease_seconds=35, check_order=True)
        behind = status_events.record(second_change, claim_lease_seconds=35, check_order=True)
        again = status_events.record(first_change, claim_lease_seconds=35, check_order=True)
        lease_left = deliveries.seconds_until_due(again.delivery)
    at = first.delivery.created_at
    row = WebhookDelivery.get_by_id(first.delivery.id)
    assert (first.claimed, first.behind) == (True, False)
    assert (row.attempts, row.round_started_at, row.next_attempt_at) == (1, at, at + timedelta(seconds=35))
    assert (behind.claimed, behind.behind, WebhookDelivery.get_by_id(behind.delivery.id).attempts) == (False, True, 0)
    # A redelivered message finds the row claimed and leased: it neither claims nor sends
    assert (again.claimed, again.behind, again.delivery.id, again.delivery.attempts) == (False, None, row.id, 1)
    assert lease_left > 30
