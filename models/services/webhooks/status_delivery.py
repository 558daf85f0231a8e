"""Status-change webhook delivery: one attempt per actor run, on the spec's schedule.

Attempts start at the offsets ``webhooks.status_schedule_seconds`` (0, 1, 2, 4 s) from the first
one; each is a POST with a ``status_timeout_seconds`` budget and succeeds on a 2xx. After the last
failure the delivery is FAILED and the message is dead-lettered (dramatiq's XQ). Events of one
proposal go out in order: a later one waits while an earlier one is pending, and every request
carries ``X-Event-Sequence`` (the proposal's status sequence) so partners can order them anyway.

``deliver`` receives the sender (``partner_endpoints``), the ``[default.webhooks]`` section and the
instance's ``environment`` (URL policy) and ``credential_environment`` (``X-Environment``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta

from models.db.webhooks import WebhookDelivery
from models.domain.clock import now
from models.domain.lifecycles import DeliveryStatus
from models.external.partner_endpoints import PartnerEndpoints
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import cancel_scheduled_series, enqueue, unit_of_work, written
from models.services.webhooks import deliveries, status_events
from models.services.webhooks.signing import STATUS_FIELD_ORDER, common_headers, raw_body, status_auth_headers
from models.settings import WebhooksSettings

log = logging.getLogger(__name__)


class DeliveryExhausted(Exception):
    """The last scheduled attempt failed: the actor lets dramatiq dead-letter the message."""


class RetryLater(Exception):
    """Run this message again in ``delay_ms`` (the actor turns it into ``dramatiq.Retry``)."""

    def __init__(self, delay_ms: int) -> None:
        super().__init__(f"retry in {delay_ms} ms")
        self.delay_ms = delay_ms


def next_offset_delay(schedule: Sequence[float], attempts_done: int, round_started_at, at) -> float:
    """Seconds from ``at`` until the next attempt, measured from the round's first attempt so
    processing time does not accumulate (attempt k starts at ``schedule[k]`` after the first)."""
    target = round_started_at + timedelta(seconds=schedule[attempts_done])
    return max(0.0, (target - at).total_seconds())


def headers_for(delivery: WebhookDelivery, partner, body: bytes, *, credential_environment: str) -> dict[str, str]:
    """Spec headers, the partner's auth mode, plus ``X-Event-Sequence`` and ``X-Signature``."""
    headers = common_headers(partner, body)
    headers["X-Environment"] = credential_environment
    headers["X-Event-Sequence"] = str(delivery.sequence)
    headers.update(status_auth_headers(partner))
    return headers


def deliver(
    status_change_id: int,
    *,
    partner_endpoints: PartnerEndpoints,
    webhooks_settings: WebhooksSettings,
    environment: str,
    credential_environment: str,
) -> str | None:
    """Run one step for a change's event; returns the delivery status after it.

    Raises RetryLater (not due yet, or an attempt failed with attempts left) or DeliveryExhausted.
    """
    settings = webhooks_settings
    # One transaction before the POST: the record, the order check and the claim of the attempt
    # (the usual case, an event whose predecessors are final, costs no other round trip).
    with unit_of_work():
        recorded = status_events.record(status_change_id)
        if recorded is None:
            return None
        delivery, partner = recorded
        if delivery.status != DeliveryStatus.PENDING:
            return delivery.status
        if not partner.webhook_url:  # recorded and skipped in one transaction
            return _finish(delivery, DeliveryStatus.SKIPPED, "no webhook URL configured")
        # A first attempt waits while an earlier event of the proposal is pending (retries of an
        # event already sent in order do not).
        behind = not delivery.attempts and status_events.earlier_pending(delivery)
        claimed = (
            not behind
            and deliveries.seconds_until_due(delivery) <= 0
            and deliveries.claim(delivery, settings.status_timeout_seconds + 5)
        )
    if not claimed:
        if behind and _held(delivery, settings, status_change_id):
            return DeliveryStatus.PENDING
        wait = deliveries.seconds_until_due(delivery)
        if wait > 0 or not deliveries.claim(delivery, settings.status_timeout_seconds + 5):
            delivery = WebhookDelivery.get_by_id(delivery.id)
            if delivery.status != DeliveryStatus.PENDING:
                return delivery.status
            raise RetryLater(max(1, int(deliveries.seconds_until_due(delivery) * 1000)))
    return _attempt(
        delivery,
        partner,
        settings,
        partner_endpoints=partner_endpoints,
        environment=environment,
        credential_environment=credential_environment,
    )


def _held(delivery: WebhookDelivery, settings: WebhooksSettings, status_change_id: int) -> bool:
    """Wait behind the earlier pending event ``deliver`` saw (bounded by hold_max_seconds);
    re-check durably."""
    if now() - delivery.created_at > timedelta(seconds=settings.hold_max_seconds):
        log.warning("status event %s sent out of order after waiting %ss", delivery.id, settings.hold_max_seconds)
        return False
    # Decided under the proposal's lock, as _finish releases under it: either the earlier event's
    # end sees this one waiting and releases it, or this check sees the earlier one final. Without
    # the lock both can miss each other and this event waits for the durable re-check.
    with unit_of_work():
        locked_proposal(delivery.proposal_id)
        if not status_events.earlier_pending(delivery):
            # The earlier event ended after this run looked. If its end saw this one waiting it
            # released it, and the release's run sends it: this run would only meet that claim and
            # wait out its lease (``status_timeout_seconds`` + 5 s) to find the event delivered.
            return _released(delivery, status_change_id)
        recheck_at = now() + timedelta(seconds=settings.hold_recheck_seconds)
        enqueue(
            ActorName.DELIVER_STATUS_CHANGE,
            status_change_id,
            deliver_at=recheck_at,
            dedup_key=f"{_hold_key(status_change_id)}{recheck_at.isoformat()}",
        )
    return True


def _release_key(status_change_id: int, delivery: WebhookDelivery) -> str:
    """The dedup key of the release of a held event: one per round (a replay or a re-drive starts
    another, and may be held and released again)."""
    return f"status-release:{status_change_id}:{delivery.replays}:{delivery.redrives}"


def _released(delivery: WebhookDelivery, status_change_id: int) -> bool:
    """Whether this round of the event was released (its release message is in the outbox)."""
    return written(_release_key(status_change_id, delivery))


def _hold_key(status_change_id: int) -> str:
    """The dedup-key prefix of a held event's durable re-checks (one key per re-check instant)."""
    return f"status-hold:{status_change_id}:"


def _attempt(
    delivery: WebhookDelivery,
    partner,
    settings: WebhooksSettings,
    *,
    partner_endpoints: PartnerEndpoints,
    environment: str,
    credential_environment: str,
) -> str:
    body = raw_body(delivery.payload, STATUS_FIELD_ORDER)
    headers = headers_for(delivery, partner, body, credential_environment=credential_environment)
    response = deliveries.post(
        delivery,
        partner.webhook_url,
        body,
        headers,
        settings.status_timeout_seconds,
        partner_endpoints=partner_endpoints,
        environment=environment,
    )
    # One transaction after it: the attempt's log line, the outcome and the release of the next
    # event, under the proposal's lock (see _held).
    schedule = list(settings.status_schedule_seconds)
    error = None if response.ok else deliveries.describe_failure(response)
    with unit_of_work():
        deliveries.record_attempt(delivery, partner.webhook_url, headers["X-Request-Id"], response)
        if response.ok:
            return _finish(delivery, DeliveryStatus.DELIVERED, None)
        exhausted = delivery.attempts >= len(schedule)
        if exhausted:
            _finish(delivery, DeliveryStatus.FAILED, error)
        else:
            delay = next_offset_delay(schedule, delivery.attempts, delivery.round_started_at, now())
            deliveries.reschedule(delivery, now() + timedelta(seconds=delay), error or "")
    if exhausted:
        log.error(
            "status webhook to %s failed after %d attempts (delivery %s, proposal %s): %s",
            partner.code,
            delivery.attempts,
            delivery.id,
            delivery.proposal_id,
            error,
        )
        raise DeliveryExhausted(f"delivery {delivery.id}: {error}")
    raise RetryLater(int(delay * 1000))


def _finish(delivery: WebhookDelivery, status: DeliveryStatus, error: str | None) -> DeliveryStatus:
    """Final status, and release the proposal's next event if it was waiting behind this one
    (inside the caller's unit_of_work, under the proposal's lock: see _held)."""
    locked_proposal(delivery.proposal_id)
    deliveries.finish(delivery, status, error=error)
    waiting = status_events.next_waiting_change(delivery)
    if waiting is not None:
        enqueue(ActorName.DELIVER_STATUS_CHANGE, waiting.id, dedup_key=_release_key(waiting.id, waiting.delivery))
        # Released now: its durable re-check would only find it sent, one actor run and outbox row
        # per held event for nothing (the re-check stays the fallback when no release comes).
        cancel_scheduled_series(ActorName.DELIVER_STATUS_CHANGE, _hold_key(waiting.id))
    return status


def replay(delivery: WebhookDelivery) -> None:
    """Queue a finished status delivery again (call inside unit_of_work)."""
    enqueue(ActorName.DELIVER_STATUS_CHANGE, status_events.change_of(delivery).id)
