"""Status-change webhook delivery: one attempt of a change's event per actor run, on the spec's
schedule, then the proposal's events that waited behind it.

Attempts start at the offsets ``webhooks.status_schedule_seconds`` (0, 1, 2, 4 s) from the first
one; each is a POST with a ``status_timeout_seconds`` budget and succeeds on a 2xx. After the last
failure the delivery is FAILED and the message is dead-lettered (dramatiq's XQ). Events of one
proposal go out in order: a change committed while the previous event is unfinished gets no message
(``proposal_status.move``); that event's end hands it over (``_finish``: recorded and claimed under
the proposal's lock) and the same run sends it. A later event whose run finds an earlier one pending
(a re-drive's message) waits, re-checking durably. Every request carries ``X-Event-Sequence`` (the
proposal's status sequence) so partners can order them anyway.

``deliver`` receives the sender (``partner_endpoints``), the ``[default.webhooks]`` section and the
instance's ``environment`` (URL policy) and ``credential_environment`` (``X-Environment``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import NamedTuple

from models.db.database import is_postgres
from models.db.partners import Partner
from models.db.proposals import Proposal
from models.db.webhooks import WebhookDelivery
from models.domain.clock import now
from models.domain.lifecycles import DeliveryStatus
from models.external.partner_endpoints import PartnerEndpoints
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal
from models.services.platform.unit_of_work import cancel_scheduled_series, enqueue, unit_of_work
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


class Sender(NamedTuple):
    """Where and how this process sends (built from the runtime by the actor)."""

    partner_endpoints: PartnerEndpoints
    settings: WebhooksSettings
    environment: str
    credential_environment: str


class HandedOver(NamedTuple):
    """The proposal's next event, which waited behind one that just ended: recorded, and claimed
    for the run that ended its predecessor to send at once (no message of its own)."""

    change_id: int
    delivery: WebhookDelivery
    partner: Partner


NO_URL = "no webhook URL configured"


def deliver(
    status_change_id: int,
    *,
    partner_endpoints: PartnerEndpoints,
    webhooks_settings: WebhooksSettings,
    environment: str,
    credential_environment: str,
) -> str | None:
    """Run one step for a change's event, then send the events of its proposal that waited behind
    it; returns the status of the change's delivery after its step.

    Raises RetryLater (not due yet, or an attempt failed with attempts left) or DeliveryExhausted.
    """
    sender = Sender(partner_endpoints, webhooks_settings, environment, credential_environment)
    settings = webhooks_settings
    # One transaction before the POST: the record, the order check and the claim of the attempt
    # (the usual case, an event whose predecessors are final, costs no other round trip).
    with unit_of_work():
        # The usual first run records the event with its first attempt claimed, in one INSERT.
        recorded = status_events.record(status_change_id, claim_lease_seconds=_lease(settings), check_order=True)
        if recorded is None:
            return None
        delivery, partner = recorded.delivery, recorded.partner
        if delivery.status != DeliveryStatus.PENDING:
            return delivery.status
        if not partner.webhook_url:  # recorded and skipped in one transaction
            handed = _finish(delivery, DeliveryStatus.SKIPPED, NO_URL, settings)
        elif recorded.claimed:
            behind, claimed = False, True
        else:
            # A first attempt waits while an earlier event of the proposal is pending (retries of
            # an event already sent in order do not).
            behind = (
                recorded.behind
                if recorded.behind is not None
                else not delivery.attempts and status_events.earlier_pending(delivery)
            )
            claimed = (
                not behind
                and deliveries.seconds_until_due(delivery) <= 0
                and deliveries.claim(delivery, _lease(settings))
            )
    if not partner.webhook_url:
        _send_handed(handed, sender)
        return DeliveryStatus.SKIPPED
    if not claimed:
        if behind and _held(delivery, settings, status_change_id):
            return DeliveryStatus.PENDING
        wait = deliveries.seconds_until_due(delivery)
        if wait > 0 or not deliveries.claim(delivery, _lease(settings)):
            delivery = WebhookDelivery.get_by_id(delivery.id)
            if delivery.status != DeliveryStatus.PENDING:
                return delivery.status
            raise RetryLater(max(1, int(deliveries.seconds_until_due(delivery) * 1000)))
    status, retry_ms, handed = _attempt(delivery, partner, sender)
    _send_handed(handed, sender)
    if status == DeliveryStatus.FAILED:
        raise DeliveryExhausted(f"delivery {delivery.id}: {delivery.last_error}")
    if retry_ms is not None:
        raise RetryLater(retry_ms)
    return status


def _lease(settings: WebhooksSettings) -> float:
    """How long a claimed attempt keeps redelivered copies away: its timeout and a margin."""
    return settings.status_timeout_seconds + 5


def _send_handed(handed: HandedOver | None, sender: Sender) -> None:
    """Send the events handed over one after the other (each one's end hands over the next).

    A failure here (the database gone mid-chain) is not the run's own event's: that one's outcome
    stands, and the claimed event is re-sent by the sweep once its claim is overdue (status_redrive).
    """
    while handed is not None:
        current = handed
        try:
            if not current.partner.webhook_url:
                with unit_of_work():
                    handed = _finish(current.delivery, DeliveryStatus.SKIPPED, NO_URL, sender.settings)
                continue
            _, _, handed = _attempt(current.delivery, current.partner, sender, retried_by_message_for=current.change_id)
        except Exception:
            log.warning(
                "status event %s (proposal %s) handed over but not sent; the sweep re-sends it",
                current.delivery.id,
                current.delivery.proposal_id,
                exc_info=True,
            )
            return


def _held(delivery: WebhookDelivery, settings: WebhooksSettings, status_change_id: int) -> bool:
    """Wait behind the earlier pending event ``deliver`` saw (bounded by hold_max_seconds);
    re-check durably."""
    if now() - delivery.created_at > timedelta(seconds=settings.hold_max_seconds):
        log.warning("status event %s sent out of order after waiting %ss", delivery.id, settings.hold_max_seconds)
        return False
    # Decided under the proposal's lock, as _finish hands over under it: either the earlier
    # event's end sees this one waiting and takes it, or this check sees the earlier one final.
    # Without the lock both can miss each other and this event waits for the durable re-check.
    with unit_of_work():
        locked_proposal(delivery.proposal_id)
        if not status_events.earlier_pending(delivery):
            # The earlier event ended after this run looked. If its end took this one over (it is
            # being sent), this run would only meet that claim and wait out its lease.
            return _taken(delivery)
        recheck_at = now() + timedelta(seconds=settings.hold_recheck_seconds)
        enqueue(
            ActorName.DELIVER_STATUS_CHANGE,
            status_change_id,
            deliver_at=recheck_at,
            dedup_key=f"{_hold_key(status_change_id)}{recheck_at.isoformat()}",
        )
    return True


def _taken(delivery: WebhookDelivery) -> bool:
    """Whether another run claimed or ended the delivery since ``delivery`` was read."""
    return (
        WebhookDelivery.select()
        .where(
            WebhookDelivery.id == delivery.id,
            (WebhookDelivery.attempts != delivery.attempts) | (WebhookDelivery.status != DeliveryStatus.PENDING),
        )
        .exists()
    )


def _hold_key(status_change_id: int) -> str:
    """The dedup-key prefix of a held event's durable re-checks (one key per re-check instant)."""
    return f"status-hold:{status_change_id}:"


def _attempt(
    delivery: WebhookDelivery, partner: Partner, sender: Sender, *, retried_by_message_for: int | None = None
) -> tuple[DeliveryStatus, int | None, HandedOver | None]:
    """One claimed attempt: the POST, then its outcome in one transaction. Returns the delivery's
    status, the milliseconds until its next attempt (None when it ended) and the next event when
    this one's end handed it over. ``retried_by_message_for``: a handed-over event's change, which
    has no message of its own to retry; one is queued with the failure, and its run waits for the
    next attempt on the schedule."""
    settings = sender.settings
    body = raw_body(delivery.payload, STATUS_FIELD_ORDER)
    headers = headers_for(delivery, partner, body, credential_environment=sender.credential_environment)
    response = deliveries.post(
        delivery,
        partner.webhook_url,
        body,
        headers,
        settings.status_timeout_seconds,
        partner_endpoints=sender.partner_endpoints,
        environment=sender.environment,
    )
    # One transaction after it: the attempt's log line, the outcome and the hand-over of the next
    # event, under the proposal's lock (see _held).
    schedule = list(settings.status_schedule_seconds)
    error = None if response.ok else deliveries.describe_failure(response)
    attempt = deliveries.Attempt(partner.webhook_url, headers["X-Request-Id"], response)
    with unit_of_work():
        if response.ok:
            return DeliveryStatus.DELIVERED, None, _finish(delivery, DeliveryStatus.DELIVERED, None, settings, attempt)
        if delivery.attempts >= len(schedule):
            handed = _finish(delivery, DeliveryStatus.FAILED, error, settings, attempt)
        else:
            deliveries.record_attempt(delivery, *attempt)
            delay = next_offset_delay(schedule, delivery.attempts, delivery.round_started_at, now())
            deliveries.reschedule(delivery, now() + timedelta(seconds=delay), error or "")
            if retried_by_message_for is not None:
                enqueue(ActorName.DELIVER_STATUS_CHANGE, retried_by_message_for)
            # The run ends as a planned retry (outcome "retry", not "error"): the failure is told here.
            log.warning(
                "status webhook to %s failed, attempt %d of %d (delivery %s, proposal %s): %s; next in %.1f s",
                partner.code,
                delivery.attempts,
                len(schedule),
                delivery.id,
                delivery.proposal_id,
                error,
                delay,
            )
            return DeliveryStatus.PENDING, int(delay * 1000), None
    log.error(
        "status webhook to %s failed after %d attempts (delivery %s, proposal %s): %s",
        partner.code,
        delivery.attempts,
        delivery.id,
        delivery.proposal_id,
        error,
    )
    return DeliveryStatus.FAILED, None, handed


def _finish(
    delivery: WebhookDelivery,
    status: DeliveryStatus,
    error: str | None,
    settings: WebhooksSettings,
    attempt: deliveries.Attempt | None = None,
) -> HandedOver | None:
    """Final status, with the attempt that reached it recorded; returns the proposal's next event
    when it waited behind this one, handed over to the caller to send after the commit (inside the
    caller's unit_of_work, under the proposal's lock: see _held)."""
    if is_postgres():
        # The lock, the attempt and the final status in one round trip; the read of the waiting
        # event below is a statement of its own, so it sees every move the lock waited for.
        latest = deliveries.finish_under_proposal_lock(delivery, status, error=error, attempt=attempt)
        if latest is None:
            raise Proposal.DoesNotExist(f"proposal {delivery.proposal_id} not found")
    else:
        if attempt is not None:
            deliveries.record_attempt(delivery, *attempt)
        latest = locked_proposal(delivery.proposal_id).status_sequence
        deliveries.finish(delivery, status, error=error)
    if latest <= delivery.sequence:
        # No change after this one (the locked row is the latest): none can wait behind it, and
        # none can be recorded before this commit (a move takes the lock held here). Most ends
        # (the proposal has not moved on since) skip the read of the waiting event this way.
        return None
    waiting = status_events.next_waiting_change(delivery)
    if waiting is None:
        return None
    # Handed over now: its durable re-check would only find it sent, one actor run and outbox row
    # per held event for nothing (the re-check stays the fallback when no hand-over comes). Only a
    # recorded event can have one: a run of its own recorded it before holding it.
    if waiting.recorded_delivery_id is not None:
        cancel_scheduled_series(ActorName.DELIVER_STATUS_CHANGE, _hold_key(waiting.id))
    recorded = status_events.record_waiting(waiting, claim_lease_seconds=_lease(settings))
    following, partner = recorded.delivery, recorded.partner
    # A partner without a URL: the caller records the skip. Otherwise the attempt is claimed (by
    # the INSERT when this recorded it); a run of the event's own that claimed it meanwhile (a
    # re-drive's message) is sending it already.
    if partner.webhook_url and not recorded.claimed and not deliveries.claim(following, _lease(settings)):
        return None
    return HandedOver(waiting.id, following, partner)


def replay(delivery: WebhookDelivery) -> None:
    """Queue a finished status delivery again (call inside unit_of_work)."""
    enqueue(ActorName.DELIVER_STATUS_CHANGE, status_events.change_of(delivery).id)
