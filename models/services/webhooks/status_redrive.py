"""Status events are never lost: the durable re-drive of every pending status delivery.

A change's event is enqueued in the transaction of the change (``proposal_status.move``), but
its message can still be lost for good: its retries spent while the database or the broker was
away, then dead-lettered, leaving the delivery PENDING (or never recorded). The money-path sweep
calls :func:`redrive_pending` each pass: a change with no delivery row gets one (PENDING) and its
message; a PENDING delivery nobody carries (its next attempt is ``redrive_first_seconds`` past)
gets its message again, on the money path's backoff. Each ends DELIVERED, SKIPPED (no URL) or
FAILED (the webhook schedule's own give-up: every attempt answered with a failure).

A delivery held behind an earlier pending event of its proposal is left alone while the hold
lasts: the earlier one's end hands it over (``status_delivery._finish``). A change committed behind
an unfinished event has no message and no delivery row until that hand-over; should the earlier
event stall, this sweep records it after ``redrive_first_seconds`` and its message waits as held.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import peewee

from models.db.proposals import StatusChange
from models.db.webhooks import WebhookDelivery
from models.domain.clock import now
from models.domain.lifecycles import DeliveryStatus
from models.domain.money_path import alarming, next_attempt_at
from models.services.money_path.redrive import policy
from models.services.platform.actor_names import ActorName
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.services.webhooks import status_events
from models.settings import MoneyPathSettings, WebhooksSettings

log = logging.getLogger(__name__)


def _unrecorded(settings: MoneyPathSettings, at) -> list[int]:
    """Announced changes past the first delay that have no delivery row."""
    delivery = WebhookDelivery.select(WebhookDelivery.id).where(
        WebhookDelivery.kind == "status",
        WebhookDelivery.proposal_id == StatusChange.proposal,
        WebhookDelivery.sequence == StatusChange.sequence,
    )
    query = (
        StatusChange.select(StatusChange.id)
        .where(
            status_events.ANNOUNCED,
            StatusChange.changed_at <= at - timedelta(seconds=settings.redrive_first_seconds),
            StatusChange.changed_at >= at - timedelta(hours=settings.status_event_horizon_hours),
            ~peewee.fn.EXISTS(delivery),
        )
        .order_by(StatusChange.changed_at)
        .limit(settings.sweep_batch_size)
    )
    return [row[0] for row in query.tuples()]


def _stalled(settings: MoneyPathSettings, at) -> list[WebhookDelivery]:
    """PENDING status deliveries nobody carries: the first re-drive ``redrive_first_seconds`` after
    their next attempt was due, the later ones when the backoff says."""
    overdue = at - timedelta(seconds=settings.redrive_first_seconds)
    return list(
        WebhookDelivery.select()
        .where(
            WebhookDelivery.kind == "status",
            WebhookDelivery.status == DeliveryStatus.PENDING,
            (
                WebhookDelivery.redrive_at.is_null()
                & (peewee.fn.COALESCE(WebhookDelivery.next_attempt_at, WebhookDelivery.created_at) <= overdue)
            )
            | (WebhookDelivery.redrive_at <= at),
        )
        .order_by(WebhookDelivery.created_at)
        .limit(settings.sweep_batch_size)
    )


def _held(delivery: WebhookDelivery, webhooks_settings: WebhooksSettings, at) -> bool:
    """Still waiting behind an earlier pending event, within the hold (that event's end hands it over)."""
    within_hold = at - delivery.created_at <= timedelta(seconds=webhooks_settings.hold_max_seconds)
    return delivery.attempts == 0 and within_hold and status_events.earlier_pending(delivery)


def _redrive(delivery: WebhookDelivery, settings: MoneyPathSettings, at) -> None:
    rule = policy(settings)
    redrives = delivery.redrives + 1
    with unit_of_work():
        updated = (
            WebhookDelivery.update(redrives=redrives, redrive_at=next_attempt_at(at, redrives, rule))
            .where(
                WebhookDelivery.id == delivery.id,
                WebhookDelivery.status == DeliveryStatus.PENDING,
                WebhookDelivery.redrives == delivery.redrives,
            )
            .execute()
        )
        if not updated:
            return  # finished or re-driven meanwhile
        enqueue(ActorName.DELIVER_STATUS_CHANGE, status_events.change_of(delivery).id)
    line = "ALERT status event stuck: " if alarming(redrives, rule) else "status event: "
    log.log(
        logging.ERROR if alarming(redrives, rule) else logging.WARNING,
        "%sdelivery %s of proposal %s (sequence %d) re-driven (re-drive %d, last error: %s)",
        line,
        delivery.id,
        delivery.proposal_id,
        delivery.sequence,
        redrives,
        delivery.last_error,
    )


def redrive_pending(*, money_path_settings: MoneyPathSettings, webhooks_settings: WebhooksSettings) -> int:
    """One pass: record the missing deliveries and re-drive the stalled ones; returns how many
    messages were sent again. One event's failure is logged and the others go on."""
    at = now()
    sent = 0
    for change_id in _unrecorded(money_path_settings, at):
        try:
            with unit_of_work():
                recorded = status_events.record_event(change_id)
                if recorded is not None:
                    enqueue(ActorName.DELIVER_STATUS_CHANGE, change_id)
                    sent += 1
        except Exception:
            log.exception("status event: change %s could not be recorded; the next sweep tries again", change_id)
    for delivery in _stalled(money_path_settings, at):
        if _held(delivery, webhooks_settings, at):
            continue
        try:
            _redrive(delivery, money_path_settings, at)
            sent += 1
        except Exception:
            log.exception("status event: delivery %s could not be re-driven; the next sweep tries again", delivery.id)
    return sent
