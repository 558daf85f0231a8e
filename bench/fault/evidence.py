"""What the run's database, broker and partner endpoints hold: read with plain SQL and AMQP, apart
from the service's code, so a bug in the service cannot hide itself from the check."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timezone
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.receiver import LocalReceiver

# How long a due outbox row may stay unpublished before it counts as left behind: the relay
# publishes after commit and its sweeper every second (outbox.sweep_interval_seconds).
LEFT_BEHIND_SECONDS = 10.0
MONEY_PATH = ("SIGNED", "PENDING_ANALYSIS", "ANALYSIS_APPROVED", "ERROR")


@dataclass(frozen=True)
class Change:
    proposal_id: str
    sequence: int
    old_status: str | None
    new_status: str
    at: float = 0.0  # seconds since the run's start


@dataclass(frozen=True)
class Payment:
    proposal_id: str | None
    contract_id: str | None
    idempotency_key: str
    status: str


@dataclass(frozen=True)
class Received:
    partner: str
    proposal_id: str
    sequence: int | None
    new_status: str | None


@dataclass
class Evidence:
    """Everything the verdict judges (plain values: the verdict stays pure)."""

    proposals: dict[str, str] = field(default_factory=dict)  # id -> status
    origins: dict[str, str] = field(default_factory=dict)  # id -> origin
    changes: list[Change] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    contracts: dict[str, list[str]] = field(default_factory=dict)  # proposal id -> contract ids
    received: list[Received] = field(default_factory=list)
    outbox_due: int = 0
    outbox_parked: int = 0
    outbox_due_actors: dict[str, int] = field(default_factory=dict)
    deliveries: dict[str, int] = field(default_factory=dict)  # webhook delivery status -> count
    # (proposal id, sequence) -> status of its status-event delivery row (none: never recorded)
    delivery_of: dict[tuple[str, int], str] = field(default_factory=dict)
    dead_letters: dict[str, dict[str, int]] = field(default_factory=dict)  # queue -> actor -> count


class Database:
    """The run's database, read by the harness; every read survives an outage (None while down)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._connection = None

    def rows(self, sql: str, *params) -> list[tuple] | None:
        import psycopg2

        try:
            if self._connection is None or self._connection.closed:
                self._connection = psycopg2.connect(self.url, connect_timeout=3)
                self._connection.autocommit = True
            with self._connection.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall()
        except psycopg2.Error:
            self.close()
            return None

    def close(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            except Exception:  # already broken by the outage: nothing left to close
                pass
            self._connection = None

    def status_counts(self) -> dict[str, int] | None:
        rows = self.rows("SELECT status, count(*) FROM proposal GROUP BY status")
        return None if rows is None else dict(rows)

    def outbox_counts(self, grace_seconds: float = 0.0) -> tuple[int, int] | None:
        """(due at least ``grace_seconds`` ago and unpublished, parked)."""
        rows = self.rows(
            "SELECT count(*) FILTER (WHERE parked_at IS NULL"
            " AND deliver_at <= (now() AT TIME ZONE 'UTC') - make_interval(secs => %s)),"
            " count(*) FILTER (WHERE parked_at IS NOT NULL)"
            " FROM outbox_message WHERE published_at IS NULL AND canceled_at IS NULL",
            grace_seconds,
        )
        return None if rows is None else rows[0]

    def changes(self, started_wall: float = 0.0) -> list[Change] | None:
        """Every status change that is a status event (the creation is history, not an event: README,
        "Choices where the spec is open"); ``at`` relative to ``started_wall`` (a time.time() value)."""
        rows = self.rows(
            "SELECT proposal_id, sequence, old_status, new_status, changed_at FROM status_change "
            "WHERE old_status IS NOT NULL"
        )
        if rows is None:
            return None
        return [
            Change(pid, seq, old, new, changed_at.replace(tzinfo=timezone.utc).timestamp() - started_wall)
            for pid, seq, old, new, changed_at in rows
        ]


def received_events(receivers: dict[str, LocalReceiver]) -> list[Received]:
    """Every status event the partners' endpoints got (duplicates kept)."""
    events = []
    for partner, receiver in receivers.items():
        for request in list(receiver.received):
            headers = {name.lower(): value for name, value in request.headers.items()}
            try:
                body = json.loads(request.body or b"{}")
            except ValueError:
                body = {}
            sequence = headers.get("x-event-sequence")
            events.append(
                Received(
                    partner,
                    str(body.get("proposal_id")),
                    int(sequence) if sequence and sequence.isdigit() else None,
                    (body.get("status_change") or {}).get("new_status"),
                )
            )
    return events


def dead_letters(amqp_url: str, prefix: str) -> dict[str, dict[str, int]]:
    """Messages in the dead-letter queues (<queue>.XQ), by actor: read and handed back (not acked)."""
    import pika

    from rabbitmq.queues import ALL_QUEUES

    found: dict[str, dict[str, int]] = {}
    connection = pika.BlockingConnection(pika.URLParameters(amqp_url))
    try:
        for family in ALL_QUEUES:
            queue = f"{prefix}{family}.XQ"
            channel = connection.channel()
            try:
                channel.queue_declare(queue, passive=True)
            except pika.exceptions.ChannelClosedByBroker:
                continue  # never declared: nothing was dead-lettered there
            actors: dict[str, int] = {}
            while True:
                method, _, body = channel.basic_get(queue, auto_ack=False)
                if method is None:
                    break
                actor = json.loads(body).get("actor_name", "?")
                actors[actor] = actors.get(actor, 0) + 1
            if actors:
                found[queue] = actors
            channel.close()  # unacknowledged: the messages go back to the queue
    finally:
        connection.close()
    return found


def collect(
    database: Database, receivers: dict[str, LocalReceiver], amqp_url: str, prefix: str, started_wall: float
) -> Evidence:
    """The end state, read once everything settled (or the run's time is up)."""
    evidence = Evidence()
    for proposal_id, origin, status in database.rows("SELECT id, origin, status FROM proposal") or []:
        evidence.proposals[proposal_id] = status
        evidence.origins[proposal_id] = origin
    evidence.changes = database.changes(started_wall) or []
    evidence.payments = [
        Payment(*row)
        for row in database.rows(
            "SELECT c.proposal_id, c.id, p.idempotency_key, p.status FROM sandbox_payment p"
            " LEFT JOIN sandbox_funding_application a ON a.id = p.application_id"
            " LEFT JOIN contract c ON c.id = a.reference"
        )
        or []
    ]
    for proposal_id, contract_id in database.rows("SELECT proposal_id, id FROM contract ORDER BY created_at") or []:
        evidence.contracts.setdefault(proposal_id, []).append(contract_id)
    evidence.received = received_events(receivers)
    # A row that fell due in the last moments (a retry scheduled before the settle) is in the
    # sweeper's hands (it runs every second), not left behind: only rows still unpublished
    # LEFT_BEHIND_SECONDS after they fell due count.
    evidence.outbox_due, evidence.outbox_parked = database.outbox_counts(LEFT_BEHIND_SECONDS) or (-1, -1)
    evidence.outbox_due_actors = dict(
        database.rows(
            "SELECT actor_name, count(*) FROM outbox_message WHERE published_at IS NULL AND canceled_at IS NULL"
            " AND parked_at IS NULL AND deliver_at <= (now() AT TIME ZONE 'UTC') - make_interval(secs => %s)"
            " GROUP BY actor_name",
            LEFT_BEHIND_SECONDS,
        )
        or []
    )
    for proposal_id, sequence, status in (
        database.rows("SELECT proposal_id, sequence, status FROM webhook_delivery WHERE kind = 'status'") or []
    ):
        evidence.delivery_of[(proposal_id, sequence)] = status
        evidence.deliveries[status] = evidence.deliveries.get(status, 0) + 1
    evidence.dead_letters = dead_letters(amqp_url, prefix)
    return evidence
