"""Delivery log shared by both webhooks: claiming an attempt, sending it, recording it, and the
operator views (failed list, counters for metrics, replay).

A delivery is PENDING until it ends DELIVERED, FAILED (schedule exhausted) or SKIPPED (no URL).
``attempts`` counts the current round; every attempt ever made is a DeliveryAttempt row.
"""

from __future__ import annotations

from datetime import timedelta

from peewee import fn

from models.db.compiled import Compiled
from models.db.partners import Partner
from models.db.webhooks import DeliveryAttempt, WebhookDelivery
from models.domain.clock import now
from models.domain.lifecycles import DeliveryStatus
from models.external.partner_endpoints import EndpointResponse, PartnerEndpoints
from models.services.webhooks.urls import static_problem

# Early arrivals within this margin of their due time are sent rather than re-delayed.
DUE_TOLERANCE = timedelta(milliseconds=20)


def seconds_until_due(delivery: WebhookDelivery) -> float:
    """How long before this delivery's next attempt may start (0 when due)."""
    if delivery.next_attempt_at is None:
        return 0.0
    return max(0.0, (delivery.next_attempt_at - DUE_TOLERANCE - now()).total_seconds())


# Every attempt claims, and every end finishes: rendered once (models/db/compiled.py).
_CLAIM: Compiled[WebhookDelivery] = Compiled(
    lambda started, lease_until, delivery_id, attempts: WebhookDelivery.update(
        attempts=WebhookDelivery.attempts + 1, round_started_at=started, next_attempt_at=lease_until
    ).where(
        WebhookDelivery.id == delivery_id,
        WebhookDelivery.status == DeliveryStatus.PENDING.value,
        WebhookDelivery.attempts == attempts,
    ),
    WebhookDelivery.round_started_at,
    WebhookDelivery.next_attempt_at,
    str,
    int,
)
# The final status and, for DELIVERED and FAILED, when it was reached.
_FINAL_STAMP = {
    DeliveryStatus.DELIVERED: WebhookDelivery.delivered_at,
    DeliveryStatus.FAILED: WebhookDelivery.failed_at,
    DeliveryStatus.SKIPPED: None,
}


def _finish_query(status: DeliveryStatus, stamp) -> Compiled[WebhookDelivery]:
    fields = {WebhookDelivery.status: status.value, WebhookDelivery.next_attempt_at: None}
    if stamp is None:
        return Compiled(
            lambda error, delivery_id: WebhookDelivery.update({**fields, WebhookDelivery.last_error: error}).where(
                WebhookDelivery.id == delivery_id
            ),
            WebhookDelivery.last_error,
            str,
        )
    return Compiled(
        lambda error, delivery_id, at: WebhookDelivery.update(
            {**fields, WebhookDelivery.last_error: error, stamp: at}
        ).where(WebhookDelivery.id == delivery_id),
        WebhookDelivery.last_error,
        str,
        stamp,
    )


_FINISH = {status: _finish_query(status, stamp) for status, stamp in _FINAL_STAMP.items()}


def claim_unsaved(delivery: WebhookDelivery, lease_seconds: float) -> None:
    """Give a delivery about to be inserted what ``claim`` would write to it: its first attempt
    taken, the round started now, the lease (one INSERT instead of an INSERT and the claim)."""
    started = now()
    delivery.attempts = 1
    delivery.round_started_at = started
    delivery.next_attempt_at = started + timedelta(seconds=lease_seconds)


def claim(delivery: WebhookDelivery, lease_seconds: float) -> bool:
    """Take the next attempt (compare-and-set on ``attempts``): one worker sends, duplicates don't.

    The lease (``next_attempt_at`` pushed past the attempt's timeout) keeps redelivered copies of
    the message away while this attempt runs.
    """
    started = delivery.round_started_at or now()
    claimed = _CLAIM.execute(started, now() + timedelta(seconds=lease_seconds), delivery.id, delivery.attempts)
    if claimed:
        delivery.attempts += 1
        delivery.round_started_at = started
    return bool(claimed)


def post(
    delivery: WebhookDelivery,
    url: str | None,
    body: bytes,
    headers: dict[str, str],
    timeout: float,
    *,
    partner_endpoints: PartnerEndpoints,
    environment: str,
) -> EndpointResponse:
    """One attempt through ``partner_endpoints``, with the URL policy of ``environment`` enforced at
    send time: HTTPS and no literal internal address here; the sender checks the address the host
    resolves to, once, and connects to it (urls.py)."""
    problem = "no URL configured" if not url else static_problem(url, environment=environment)
    if problem:
        return EndpointResponse(None, f"refused URL: {problem}", 0)
    return partner_endpoints.post(url, body, headers, timeout=timeout)


# One statement: the attempt's number is the delivery's highest so far plus one, taken in the
# INSERT itself (the claim lets one attempt of a delivery run at a time).
_RECORD_ATTEMPT: Compiled[DeliveryAttempt] = Compiled(
    lambda delivery_id, url, request_id, status_code, error, latency_ms, snippet, at: DeliveryAttempt.insert_from(
        DeliveryAttempt.select(
            delivery_id,
            fn.COALESCE(fn.MAX(DeliveryAttempt.number), 0) + 1,
            url,
            request_id,
            status_code,
            error,
            latency_ms,
            snippet,
            at,
        ).where(DeliveryAttempt.delivery == delivery_id),
        [
            DeliveryAttempt.delivery,
            DeliveryAttempt.number,
            DeliveryAttempt.url,
            DeliveryAttempt.request_id,
            DeliveryAttempt.status_code,
            DeliveryAttempt.error,
            DeliveryAttempt.latency_ms,
            DeliveryAttempt.response_snippet,
            DeliveryAttempt.attempted_at,
        ],
    ).as_rowcount(),
    str,
    str,
    str,
    DeliveryAttempt.status_code,
    DeliveryAttempt.error,
    DeliveryAttempt.latency_ms,
    DeliveryAttempt.response_snippet,
    DeliveryAttempt.attempted_at,
)


def record_attempt(delivery: WebhookDelivery, url: str | None, request_id: str, response: EndpointResponse) -> None:
    """Store the attempt (time, URL, status or error, latency, response snippet), numbered after
    every attempt the delivery had, in every round."""
    _RECORD_ATTEMPT.execute(
        delivery.id,
        url or "",
        request_id,
        response.status_code,
        response.error,
        response.latency_ms,
        response.snippet,
        now(),
    )


def describe_failure(response: EndpointResponse) -> str:
    return response.error or f"HTTP {response.status_code}"


def finish(delivery: WebhookDelivery, status: DeliveryStatus, *, error: str | None = None) -> None:
    """Move a delivery to a final status."""
    fields = {"status": status, "next_attempt_at": None, "last_error": error}
    stamp = _FINAL_STAMP[status]
    if stamp is None:
        _FINISH[status].execute(error, delivery.id)
    else:
        fields[stamp.name] = now()
        _FINISH[status].execute(error, delivery.id, fields[stamp.name])
    for name, value in fields.items():
        setattr(delivery, name, value)


def reschedule(delivery: WebhookDelivery, at, error: str) -> None:
    """Record the failure and when the next attempt is due."""
    (
        WebhookDelivery.update(next_attempt_at=at, last_error=error)
        .where(WebhookDelivery.id == delivery.id, WebhookDelivery.status == DeliveryStatus.PENDING)
        .execute()
    )
    delivery.next_attempt_at, delivery.last_error = at, error


def failed_counts() -> dict[str, int]:
    """FAILED deliveries per kind ({"status": n, "auction": m}); the metrics gauge reads this."""
    counts = {"status": 0, "auction": 0}
    query = (
        WebhookDelivery.select(WebhookDelivery.kind, fn.COUNT(WebhookDelivery.id).alias("n"))
        .where(WebhookDelivery.status == DeliveryStatus.FAILED)
        .group_by(WebhookDelivery.kind)
    )
    for row in query:
        counts[row.kind] = row.n
    return counts


def list_deliveries(
    *, failed_only: bool = False, partner: str | None = None, kind: str | None = None, limit: int = 100
) -> list[WebhookDelivery]:
    """Most recent first, optionally only FAILED ones, of one partner or one kind."""
    query = WebhookDelivery.select().order_by(WebhookDelivery.created_at.desc()).limit(limit)
    if failed_only:
        query = query.where(WebhookDelivery.status == DeliveryStatus.FAILED)
    if partner:
        query = query.where(WebhookDelivery.partner_code == partner)
    if kind:
        query = query.where(WebhookDelivery.kind == kind)
    return list(query)


def find_delivery(delivery_id: str) -> WebhookDelivery | None:
    """One delivery of the log, or None."""
    return WebhookDelivery.get_or_none(WebhookDelivery.id == delivery_id)


def attempts_of(delivery: WebhookDelivery) -> list[DeliveryAttempt]:
    """Every attempt ever made for the delivery, in order."""
    return list(delivery.attempt_log.order_by(DeliveryAttempt.number))


def deliveries_of(kind: str, proposal_id: str) -> list[WebhookDelivery]:
    """The deliveries of one kind made for one proposal (an auction proposal's id for auctions)."""
    return list(
        WebhookDelivery.select().where(WebhookDelivery.kind == kind, WebhookDelivery.proposal_id == proposal_id)
    )


def partner_at_send_time(code: str) -> Partner:
    """Read the partner now, so URL, key and secret changes apply to the next attempt."""
    return Partner.get(Partner.code == code)
