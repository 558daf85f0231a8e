"""One database transaction plus the messages it causes, published only after commit.

Inside ``unit_of_work()`` call :func:`enqueue` instead of ``actor.send``: the message is written to
the outbox in the same transaction, so a rolled-back change sends nothing and a committed change
is never lost (the sweeper re-sends what the after-commit publish missed).
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from models.db import simple_statements
from models.db.compiled import Compiled
from models.db.database import db
from models.db.outbox import OutboxMessage
from models.domain.clock import now
from models.services.platform.actor_names import ActorName
from models.services.platform.request_context import current_request_id

log = logging.getLogger(__name__)

_pending: contextvars.ContextVar[list | None] = contextvars.ContextVar("outbox_pending", default=None)

# Called after commit with the due outbox rows the transaction wrote (leased: see enqueue) and the
# ids of existing rows it made due (set at start-up to the relay's fast path; tests may leave it
# unset and drain the outbox themselves).
AfterCommitPublisher = Callable[[list[OutboxMessage], list[str]], None]
_after_commit_publisher: AfterCommitPublisher | None = None
# How long the sweeper leaves a due row to the after-commit publish of the process that wrote it.
_lease_seconds: float = 5.0
# Called after commit with the keys passed to notify(), to wake hybrid waits (see wakeups).
_after_commit_notifier: Callable[[list[str]], None] | None = None


def set_after_commit_publisher(publisher: AfterCommitPublisher | None, *, lease_seconds: float | None = None) -> None:
    global _lease_seconds
    if lease_seconds is not None:
        _lease_seconds = lease_seconds
    swap_after_commit_publisher(publisher)


def swap_after_commit_publisher(publisher: AfterCommitPublisher | None) -> AfterCommitPublisher | None:
    """Install ``publisher`` and return the one it replaces (to put it back afterwards)."""
    global _after_commit_publisher
    previous, _after_commit_publisher = _after_commit_publisher, publisher
    return previous


def set_after_commit_notifier(notifier: Callable[[list[str]], None] | None) -> None:
    global _after_commit_notifier
    _after_commit_notifier = notifier


class _Pending:
    def __init__(self) -> None:
        self.leased: list[OutboxMessage] = []  # rows this transaction wrote, due now
        self.message_ids: list[str] = []  # existing rows it made due
        self.wake_keys: list[str] = []
        self.row_locks: set[str] = set()  # see note_row_locked


@contextmanager
def unit_of_work() -> Iterator[None]:
    """A transaction whose outbox messages and wake-ups go out only once it has committed."""
    outer = _pending.get()
    if outer is not None:  # nested: the outermost unit publishes everything
        with db.atomic():
            yield
        return
    pending = _Pending()
    token = _pending.set(pending)
    try:
        with db.atomic():
            yield
    finally:
        _pending.reset(token)
    if pending.wake_keys and _after_commit_notifier is not None:
        _after_commit_notifier(pending.wake_keys)
    if (pending.leased or pending.message_ids) and _after_commit_publisher is not None:
        try:
            _after_commit_publisher(pending.leased, pending.message_ids)
        except Exception:  # the sweeper will publish them; the change itself is committed
            log.warning("after-commit publish failed; the outbox sweeper will retry", exc_info=True)


def _current() -> _Pending:
    pending = _pending.get()
    if pending is None:
        raise RuntimeError("enqueue() and notify() must run inside unit_of_work()")
    return pending


def enqueue(
    actor: ActorName, *args, deliver_at: datetime | None = None, dedup_key: str | None = None, **kwargs
) -> OutboxMessage | None:
    """Write a message for ``actor`` to the outbox of the current transaction.

    ``deliver_at`` schedules it (durable across restarts); ``dedup_key`` keeps a single row for the
    same job, returning None when it already exists.

    A row due now is written *leased* to this process's after-commit publish (``claimed_until``):
    the publish then needs no transaction of its own to claim it, only one statement to mark it
    published, and the sweeper leaves it alone until the lease lapses (a process that died between
    commit and publish: the sweeper sends it then).
    """
    pending = _current()
    fields = {
        "actor_name": str(actor),
        "args": list(args),
        "kwargs": kwargs,
        "deliver_at": deliver_at or now(),
        "request_id": current_request_id(),
    }
    due = fields["deliver_at"] <= now()
    if due and _after_commit_publisher is not None:
        fields["claimed_until"] = now() + timedelta(seconds=_lease_seconds)
    if dedup_key is None:
        # A fresh uuid id collides with nothing: no savepoint (two statements fewer per message).
        row = OutboxMessage.create(**fields)
    else:
        # INSERT ... ON CONFLICT DO NOTHING: one statement, no savepoint, and a concurrent writer of
        # the same key is waited for rather than failing this transaction.
        row = OutboxMessage(dedup_key=dedup_key, **fields)
        if not simple_statements.insert_unless_present(OutboxMessage, row.__data__):
            return None
    if due:
        if row.claimed_until is not None:
            pending.leased.append(row)
        else:
            pending.message_ids.append(row.id)
    return row


def publish_after_commit(message_id: str) -> None:
    """Publish an existing outbox row once this transaction commits (a scheduled row just made due,
    e.g. by the sandbox test clock); the sweeper still covers it if that publish fails."""
    _current().message_ids.append(message_id)


def cancel_scheduled(dedup_key: str) -> int:
    """Cancel a scheduled, not yet published message (e.g. a signature expiry once signed)."""
    _current()
    return _CANCEL_SCHEDULED.execute(now(), dedup_key)


# Every step that ends a deadline cancels its message: rendered once (models/db/compiled.py).
_CANCEL_SCHEDULED: Compiled[OutboxMessage] = Compiled(
    lambda at, dedup_key: OutboxMessage.update(canceled_at=at).where(
        OutboxMessage.dedup_key == dedup_key,
        OutboxMessage.published_at.is_null(),
        OutboxMessage.canceled_at.is_null(),
    ),
    OutboxMessage.canceled_at,
    str,
)


def cancel_scheduled_series(actor: ActorName, key_prefix: str) -> int:
    """Cancel ``actor``'s scheduled, not yet published messages whose dedup key starts with
    ``key_prefix`` (a series of re-checks keyed ``<prefix><instant>``). Read through the
    unpublished rows' index, so the cost is that of the few rows still scheduled."""
    _current()
    ids = [
        row.id
        for row in OutboxMessage.select(OutboxMessage.id, OutboxMessage.dedup_key).where(
            OutboxMessage.published_at.is_null(),
            OutboxMessage.deliver_at > now(),
            OutboxMessage.canceled_at.is_null(),
            OutboxMessage.actor_name == str(actor),
        )
        if row.dedup_key and row.dedup_key.startswith(key_prefix)
    ]
    if not ids:
        return 0
    return OutboxMessage.update(canceled_at=now()).where(OutboxMessage.id.in_(ids)).execute()


def note_row_locked(key: str) -> None:
    """Remember that this transaction holds the row lock named ``key`` until it ends.

    Only a lock taken at the transaction's top level counts: one taken inside a savepoint is
    released if that savepoint rolls back, so it is not remembered (``holds_row_lock`` then says
    no, and the caller takes the longer, always correct way)."""
    pending = _pending.get()
    open_savepoints = getattr(db.obj, "open_savepoints", None)  # the PostgreSQL pool counts them
    if pending is not None and db.transaction_depth() == 1 and open_savepoints is not None and not open_savepoints():
        pending.row_locks.add(key)


def holds_row_lock(key: str) -> bool:
    """Whether ``note_row_locked(key)`` was called at this transaction's top level."""
    pending = _pending.get()
    return pending is not None and key in pending.row_locks


def notify(key: str) -> None:
    """Wake whoever waits on ``key`` (a hybrid request) once this transaction has committed."""
    _current().wake_keys.append(key)
