"""Delivery log shared by both webhooks: claiming an attempt, sending it, recording it, and the
operator views (failed list, counters for metrics, replay).

A delivery is PENDING until it ends DELIVERED, FAILED (schedule exhausted) or SKIPPED (no URL).
``attempts`` counts the current round; every attempt ever made is a DeliveryAttempt row.
"""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from peewee import fn

from models.db.compiled import Compiled
from models.db.partners import Partner
from models.db.webhooks import DeliveryAttempt, WebhookDelivery
from models.domain.clock import now
from models.domain.lifecycles import DeliveryStatus
from models.external.partner_endpoints import EndpointResponse, PartnerEndpoints
from models.services.platform.locks import proposal_lock_query
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


def _finish_update(status: DeliveryStatus, error, delivery_id, at=None):
    """The UPDATE that ends a delivery: its final status, no next attempt, the last error and, for
    DELIVERED and FAILED, when it was reached (``at``)."""
    fields = {WebhookDelivery.status: status.value, WebhookDelivery.next_attempt_at: None}
    fields[WebhookDelivery.last_error] = error
    stamp = _FINAL_STAMP[status]
    if stamp is not None:
        fields[stamp] = at
    return WebhookDelivery.update(fields).where(WebhookDelivery.id == delivery_id)


def _finish_kinds(status: DeliveryStatus) -> tuple:
    """The finishing UPDATE's arguments: the error, the delivery's id and, for DELIVERED and
    FAILED, the time of the final status."""
    stamp = _FINAL_STAMP[status]
    return (WebhookDelivery.last_error, str) + ((stamp,) if stamp is not None else ())


def _finish_query(status: DeliveryStatus) -> Compiled[WebhookDelivery]:
    return Compiled(lambda *args: _finish_update(status, *args), *_finish_kinds(status))


_FINISH = {status: _finish_query(status) for status in _FINAL_STAMP}


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


def _record_attempt_query(delivery_id, url, request_id, status_code, error, latency_ms, snippet, at):
    # One statement: the attempt's number is the delivery's highest so far plus one, taken in the
    # INSERT itself (the claim lets one attempt of a delivery run at a time).
    return DeliveryAttempt.insert_from(
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
    )


# The attempt's arguments after the delivery's id: url, request id and the response's fields.
_ATTEMPT_KINDS = (
    str,
    str,
    DeliveryAttempt.status_code,
    DeliveryAttempt.error,
    DeliveryAttempt.latency_ms,
    DeliveryAttempt.response_snippet,
    DeliveryAttempt.attempted_at,
)
_RECORD_ATTEMPT: Compiled[DeliveryAttempt] = Compiled(
    lambda *args: _record_attempt_query(*args).as_rowcount(), str, *_ATTEMPT_KINDS
)


class Attempt(NamedTuple):
    """An attempt to record: where it went, its request id and what came back."""

    url: str | None
    request_id: str
    response: EndpointResponse

    def values(self) -> tuple:
        """The attempt's arguments (``_ATTEMPT_KINDS``), stamped now."""
        response = self.response
        return (
            self.url or "",
            self.request_id,
            response.status_code,
            response.error,
            response.latency_ms,
            response.snippet,
            now(),
        )


def record_attempt(delivery: WebhookDelivery, url: str | None, request_id: str, response: EndpointResponse) -> None:
    """Store the attempt (time, URL, status or error, latency, response snippet), numbered after
    every attempt the delivery had, in every round."""
    _RECORD_ATTEMPT.execute(delivery.id, *Attempt(url, request_id, response).values())


def describe_failure(response: EndpointResponse) -> str:
    return response.error or f"HTTP {response.status_code}"


def finish(delivery: WebhookDelivery, status: DeliveryStatus, *, error: str | None = None) -> None:
    """Move a delivery to a final status."""
    _FINISH[status].execute(*_finish_values(delivery, status, error))


def _finish_values(delivery: WebhookDelivery, status: DeliveryStatus, error: str | None) -> tuple:
    """Give ``delivery`` its final fields as the finishing UPDATE writes them; that UPDATE's
    arguments (``_finish_kinds``): the error, the id and, for DELIVERED and FAILED, the time."""
    delivery.status, delivery.next_attempt_at, delivery.last_error = status, None, error
    field = _FINAL_STAMP[status]
    if field is None:
        return error, delivery.id
    at = now()
    setattr(delivery, field.name, at)
    return error, delivery.id, at


def _finish_under_proposal_lock_query(status: DeliveryStatus, with_attempt: bool) -> Compiled:
    """The proposal's locking read, the finishing UPDATE and the attempt's INSERT (``with_attempt``)
    as one statement returning the proposal's status sequence. Arguments: the proposal's id,
    then the finishing UPDATE's (``_finish_kinds``), then the attempt's values (``_ATTEMPT_KINDS``)."""
    finish_kinds = _finish_kinds(status)

    def build(proposal_id, *args):
        finish_args, attempt = args[: len(finish_kinds)], args[len(finish_kinds) :]
        locked = proposal_lock_query(proposal_id).cte("locked")
        ctes = [locked, _finish_update(status, *finish_args).cte("finished")]
        if with_attempt:
            ctes.append(_record_attempt_query(finish_args[1], *attempt).cte("attempt"))
        return locked.select_from(locked.c.status_sequence).with_cte(*ctes).tuples()

    return Compiled(build, str, *finish_kinds, *(_ATTEMPT_KINDS if with_attempt else ()))


_FINISH_UNDER_PROPOSAL_LOCK = {
    (status, with_attempt): _finish_under_proposal_lock_query(status, with_attempt)
    for status in _FINAL_STAMP
    for with_attempt in (False, True)
}


def finish_under_proposal_lock(
    delivery: WebhookDelivery, status: DeliveryStatus, *, error: str | None = None, attempt: Attempt | None = None
) -> int | None:
    """``record_attempt`` (when ``attempt`` is given) and ``finish`` of a status delivery, with
    its proposal's row lock taken in the same statement: one round trip instead of three
    (PostgreSQL only). Returns the proposal's latest status sequence, read by the lock; None when
    the proposal is gone: the caller rolls the transaction back, as a failed lock would have.

    Why one statement is enough: what the lock orders with is the commit of this transaction, and
    nothing here reads what another transaction wrote but the locked row itself, which a locking
    read returns as its last writer committed it; the caller's other reads that must see the
    writers the lock waited for come in a later statement."""
    args = (delivery.proposal_id, *_finish_values(delivery, status, error))
    if attempt is not None:
        args += attempt.values()
    row = _FINISH_UNDER_PROPOSAL_LOCK[status, attempt is not None].first(*args)
    return None if row is None else row[0]


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
