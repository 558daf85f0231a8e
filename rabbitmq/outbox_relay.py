"""Publishes committed outbox rows to the broker: right after commit, and from the sweeper.

Publishing happens before the row is marked, so a crash in between re-sends the message rather
than losing it; actors are idempotent, which makes the duplicate harmless.
"""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from datetime import timedelta

import dramatiq

from models.db.database import db, is_postgres
from models.db.outbox import OutboxMessage
from models.domain.clock import now
from models.settings import current

log = logging.getLogger(__name__)


def _message_for(row: OutboxMessage, broker: dramatiq.Broker) -> dramatiq.Message:
    actor = broker.get_actor(row.actor_name)
    message = actor.message_with_options(args=tuple(row.args or ()), kwargs=row.kwargs or {})
    options = dict(message.options)
    if row.request_id:
        options["request_id"] = row.request_id
    options["outbox_id"] = row.id
    return message.copy(message_id=row.id, options=options)


def relay_due(ids: list[str] | None = None, limit: int | None = None) -> int:
    """Publish unpublished rows that are due (optionally only ``ids``); returns how many."""
    broker = dramatiq.get_broker()
    limit = limit or current().outbox.batch_size
    published = 0
    # Two statements: a connection is opened only when none is, the transaction always.
    with (db.connection_context() if db.is_closed() else contextlib.nullcontext()):  # noqa: SIM117
        # On SQLite every transaction begins IMMEDIATE (models/db/database.py), so reading the rows
        # and marking them published cannot fail half-way on a lock upgrade.
        with db.atomic():
            query = (OutboxMessage.select()
                     .where(OutboxMessage.published_at.is_null(), OutboxMessage.canceled_at.is_null(),
                            OutboxMessage.deliver_at <= now())
                     .order_by(OutboxMessage.deliver_at, OutboxMessage.created_at)
                     .limit(limit))
            if ids is not None:
                query = query.where(OutboxMessage.id.in_(ids))
            if is_postgres():  # several relays (API, pools) share the table without double work
                query = query.for_update(skip_locked=True)
            for row in query:
                try:
                    broker.enqueue(_message_for(row, broker))
                except Exception as error:
                    (OutboxMessage.update(publish_attempts=OutboxMessage.publish_attempts + 1,
                                          last_error=repr(error)[:500])
                     .where(OutboxMessage.id == row.id).execute())
                    log.warning("outbox publish failed for %s (%s); will retry", row.id, row.actor_name)
                    break  # the broker is down: keep order, retry on the next sweep
                (OutboxMessage.update(published_at=now(), publish_attempts=OutboxMessage.publish_attempts + 1)
                 .where(OutboxMessage.id == row.id).execute())
                published += 1
    return published


def pending_count() -> int:
    """Rows due and not yet published (health and metrics)."""
    return (OutboxMessage.select()
            .where(OutboxMessage.published_at.is_null(), OutboxMessage.canceled_at.is_null(),
                   OutboxMessage.deliver_at <= now())
            .count())


def purge_finished(older_than: timedelta) -> int:
    """Delete rows published or canceled more than ``older_than`` ago; returns how many."""
    limit = now() - older_than
    return (OutboxMessage.delete()
            .where((OutboxMessage.published_at < limit) | (OutboxMessage.canceled_at < limit))
            .execute())


PURGE_EVERY_SECONDS = 3600


class OutboxSweeper(threading.Thread):
    """Re-sends what the after-commit publish missed and releases scheduled messages when due."""

    def __init__(self, interval: float | None = None) -> None:
        super().__init__(name="outbox-sweeper", daemon=True)
        self.interval = interval if interval is not None else current().outbox.sweep_interval_seconds
        self.stopping = threading.Event()

    def run(self) -> None:
        last_purge = float("-inf")
        while not self.stopping.wait(self.interval):
            try:
                while relay_due() >= current().outbox.batch_size:
                    pass
                if time.monotonic() - last_purge >= PURGE_EVERY_SECONDS:
                    purge_finished(timedelta(days=current().outbox.retention_days))
                    last_purge = time.monotonic()
            except Exception:
                log.exception("outbox sweep failed; retrying next interval")
            finally:
                if not db.is_closed():
                    db.close()

    def stop(self) -> None:
        self.stopping.set()
