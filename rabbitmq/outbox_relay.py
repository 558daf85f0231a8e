"""Publishes committed outbox rows to the broker: right after commit, and from the sweeper.

Publishing happens before the row is marked, so a crash in between re-sends the message rather
than losing it; actors are idempotent, which makes the duplicate harmless.

Two kinds of failure are told apart. The broker being away stops the batch (order is kept, the
next sweep retries). A row that can never be published (no such actor, arguments the actor does
not take) is *parked*: marked with its error, logged as an ALERT, counted in
``consignado_outbox_parked`` and shown by ``make cli ARGS="outbox parked"``; the rows behind it,
scheduled deadlines included, go on being published.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import NamedTuple

import dramatiq

from models import runtime
from models.db.database import db, is_postgres
from models.db.outbox import OutboxMessage
from models.domain.clock import now
from models.services.events import feed as events_feed
from models.services.platform import idempotency
from models.services.platform.outbox import due_messages, park, purge_finished
from rabbitmq import published_marks

log = logging.getLogger(__name__)


class Unpublishable(Exception):
    """The row names no declared actor, or arguments its actor does not take: retrying cannot help."""


# The arguments check needs the actor's function signature; building it costs more than the rest
# of the publish, and a function's signature never changes (a redeclared actor is a new function).
_signatures: dict[object, inspect.Signature] = {}


def _actor_for(row: OutboxMessage, broker: dramatiq.Broker) -> dramatiq.Actor:
    try:
        actor = broker.get_actor(row.actor_name)
    except dramatiq.errors.ActorNotFound:
        raise Unpublishable(f"no actor named {row.actor_name!r} is declared") from None
    signature = _signatures.get(actor.fn)
    if signature is None:
        signature = _signatures[actor.fn] = inspect.signature(actor.fn)
    try:
        signature.bind(*(row.args or ()), **(row.kwargs or {}))
    except TypeError as error:
        raise Unpublishable(f"arguments do not fit {row.actor_name}: {error}") from None
    return actor


def _message_for(row: OutboxMessage, broker: dramatiq.Broker) -> dramatiq.Message:
    actor = _actor_for(row, broker)
    message = actor.message_with_options(args=tuple(row.args or ()), kwargs=row.kwargs or {})
    options = dict(message.options)
    if row.request_id:
        options["request_id"] = row.request_id
    options["outbox_id"] = row.id
    return message.copy(message_id=row.id, options=options)


def publish_after_commit(leased: list[OutboxMessage], claim_ids: list[str]) -> int:
    """The fast path, right after a transaction committed: publish the rows it wrote (leased to
    this call, so no claim is needed) and the existing rows it made due; returns how many went out.

    The leased rows are marked published in batches, outside any transaction, before their lease
    lapses (rabbitmq/published_marks.py). A crash before that mark re-sends them once the lease
    lapses (actors are idempotent); a broker failure hands the rest back to the sweeper at once,
    in order."""
    published = 0
    with db.connection_context() if db.is_closed() else contextlib.nullcontext():
        if leased:
            published += _publish_leased(leased, dramatiq.get_broker())
        if claim_ids:
            published += relay_due(ids=claim_ids)
    return published


def _publish_leased(rows: list[OutboxMessage], broker: dramatiq.Broker) -> int:
    """Rows leased to this call (not marked yet): the sent ones are marked within their lease
    (rabbitmq/published_marks.py); a refusal hands the refused row and those behind it back to the
    sweeper at once."""
    walk = _send_in_order(rows, broker, before_park=lambda row: None)
    if walk.refusal is not None:
        _release(walk.refusal.row.id, walk.refusal.behind, walk.refusal.error)
    if walk.sent:
        published_marks.mark(walk.sent)
    return len(walk.sent)


class _Refusal(NamedTuple):
    """The row the broker refused, its error, and the rows behind it (not tried)."""

    row: OutboxMessage
    error: Exception
    behind: list[OutboxMessage]


class _Walk(NamedTuple):
    """What publishing rows in order did: the ids sent, and where the broker stopped it."""

    sent: list[str]
    refusal: _Refusal | None = None


def _send_in_order(
    rows: list[OutboxMessage], broker: dramatiq.Broker, *, before_park: Callable[[OutboxMessage], None]
) -> _Walk:
    """Publish ``rows`` in order: a row that cannot become a message is parked (after
    ``before_park``) and the walk goes on; the first broker failure stops it, keeping the order for
    the next try."""
    sent: list[str] = []
    for index, row in enumerate(rows):
        try:
            message = _message_for(row, broker)
        except Unpublishable as error:
            before_park(row)
            _park(row, str(error))
            continue
        try:
            broker.enqueue(message)
        except Exception as error:
            log.warning("outbox publish failed for %s (%s); will retry", row.id, row.actor_name)
            return _Walk(sent, _Refusal(row, error, rows[index + 1 :]))
        sent.append(row.id)
    return _Walk(sent)


def _release(failed_id: str, rest: list[OutboxMessage], error: Exception) -> None:
    """Hand a failed row and the rows behind it to the sweeper now rather than at their lease's end."""
    with db.atomic():
        OutboxMessage.update(
            claimed_until=None, publish_attempts=OutboxMessage.publish_attempts + 1, last_error=repr(error)[:500]
        ).where(OutboxMessage.id == failed_id).execute()
        if rest:
            OutboxMessage.update(claimed_until=None).where(OutboxMessage.id.in_([row.id for row in rest])).execute()


def relay_due(ids: list[str] | None = None, limit: int | None = None) -> int:
    """Publish unpublished rows that are due (optionally only ``ids``); returns how many."""
    broker = dramatiq.get_broker()
    limit = limit or runtime.current().settings.outbox.batch_size
    # Two statements: a connection is opened only when none is, the transaction always.
    with db.connection_context() if db.is_closed() else contextlib.nullcontext():  # noqa: SIM117
        # On SQLite every transaction begins IMMEDIATE (models/db/database.py), so claiming the rows
        # cannot fail half-way on a lock upgrade.
        with db.atomic():
            rows = _claim(ids, limit)
            return _publish(rows, broker)


def _claim(ids: list[str] | None, limit: int) -> list[OutboxMessage]:
    """Mark the due rows published and read them back, in one statement, in publishing order.

    The mark is undone below for a row that cannot go out; until the transaction commits the rows
    stay locked, so another relay (API, pools) neither sees them published nor takes them."""
    due = (
        due_messages()
        .where(OutboxMessage.claimed_until.is_null() | (OutboxMessage.claimed_until <= now()))
        .order_by(OutboxMessage.deliver_at, OutboxMessage.created_at)
        .limit(limit)
    )
    if ids is not None:
        due = due.where(OutboxMessage.id.in_(ids))
    if is_postgres():  # several relays share the table without double work
        due = due.for_update(skip_locked=True)
    claimed = list(
        OutboxMessage.update(published_at=now(), publish_attempts=OutboxMessage.publish_attempts + 1)
        .where(OutboxMessage.id.in_(due.select(OutboxMessage.id)))
        .returning(OutboxMessage)
        .execute()
    )
    if ids is not None:  # the order they were written in by the transaction
        position = {message_id: index for index, message_id in enumerate(ids)}
        return sorted(claimed, key=lambda row: position.get(row.id, len(position)))
    return sorted(claimed, key=lambda row: (row.deliver_at, row.created_at))


def _publish(rows: list[OutboxMessage], broker: dramatiq.Broker) -> int:
    """Rows the claim marked published: the mark is undone for a row parked or refused and for
    the rows behind a refusal."""
    walk = _send_in_order(rows, broker, before_park=lambda row: _unclaim([row.id], attempted=True))
    if walk.refusal is not None:  # the broker is down: the sweeper tries again, in order
        refused, error, behind = walk.refusal
        _unclaim([refused.id], attempted=True, error=repr(error)[:500])
        _unclaim([later.id for later in behind], attempted=False)
    return len(walk.sent)


def _unclaim(ids: list[str], *, attempted: bool, error: str | None = None) -> None:
    """Give rows the claim marked published back to the relay (``attempted``: keep the attempt)."""
    if not ids:
        return
    fields: dict = {OutboxMessage.published_at: None}
    if not attempted:
        fields[OutboxMessage.publish_attempts] = OutboxMessage.publish_attempts - 1
    if error is not None:
        fields[OutboxMessage.last_error] = error
    OutboxMessage.update(fields).where(OutboxMessage.id.in_(ids)).execute()


def _park(row: OutboxMessage, error: str) -> None:
    park(row.id, error)
    log.error('ALERT outbox row %s parked: %s; see `make cli ARGS="outbox parked"`', row.id, error)


PURGE_EVERY_SECONDS = 3600
# The periodic jobs (lifecycle and money-path sweeps, the auction poll) each schedule their next
# slot; an outage longer than a job's retries can break that chain, so the sweeper schedules the
# next slots again this often (one row per slot whoever schedules it: no duplicates).
RESCHEDULE_EVERY_SECONDS = 60


def schedule_periodic_jobs() -> None:
    """Schedule the next slot of every periodic job (idempotent per slot)."""
    from models.services.lifecycle.sweep import schedule_next_sweep
    from models.services.money_path.redrive import schedule_next_sweep as schedule_next_money_path_sweep
    from models.services.webhooks.auction_polling import schedule_next_poll

    settings = runtime.current().settings
    schedule_next_poll(auctions_settings=settings.auctions)
    schedule_next_sweep(lifecycle_settings=settings.lifecycle)
    schedule_next_money_path_sweep(money_path_settings=settings.money_path)


def purge_kept_records() -> None:
    """Records kept for a while beyond the outbox: Idempotency-Keys past their retention and feed
    events past theirs (README, "Idempotency-Key" and "Events feed")."""
    idempotency.purge_expired()
    events_feed.purge_expired(events_settings=runtime.current().settings.events)


class OutboxSweeper(threading.Thread):
    """Re-sends what the after-commit publish missed and releases scheduled messages when due."""

    def __init__(self, interval: float | None = None) -> None:
        super().__init__(name="outbox-sweeper", daemon=True)
        self.interval = interval if interval is not None else runtime.current().settings.outbox.sweep_interval_seconds
        self.stopping = threading.Event()

    def run(self) -> None:
        last_purge = float("-inf")
        last_schedule = time.monotonic()  # the process scheduled them at start-up (app.bootstrap)
        while not self.stopping.wait(self.interval):
            try:
                while relay_due() >= runtime.current().settings.outbox.batch_size:
                    pass
                if time.monotonic() - last_purge >= PURGE_EVERY_SECONDS:
                    purge_finished(timedelta(days=runtime.current().settings.outbox.retention_days))
                    purge_kept_records()
                    last_purge = time.monotonic()
                if time.monotonic() - last_schedule >= RESCHEDULE_EVERY_SECONDS:
                    schedule_periodic_jobs()
                    last_schedule = time.monotonic()
            except Exception:
                log.exception("outbox sweep failed; retrying next interval")
            finally:
                if not db.is_closed():
                    db.close()

    def stop(self) -> None:
        self.stopping.set()
