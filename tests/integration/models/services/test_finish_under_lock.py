"""The end of a status event on PostgreSQL: the proposal's lock, the attempt and the final status in
one statement (webhooks.deliveries.finish_under_proposal_lock, status_delivery._finish); on either
backend, the read of the event waiting behind it only when the proposal moved on."""

from __future__ import annotations

import threading

import pytest

from models import runtime
from models.db.database import db, is_postgres
from models.db.proposals import StatusChange
from models.db.webhooks import DeliveryAttempt, WebhookDelivery
from models.domain.lifecycles import DeliveryStatus
from models.domain.status_machine import Trigger
from models.external.partner_endpoints import EndpointResponse
from models.services.platform.locks import locked_proposal
from models.services.platform.proposal_status import move
from models.services.platform.unit_of_work import unit_of_work
from models.services.webhooks import deliveries, status_delivery, status_events
from tests import builders
from tests.support.sent_statements import SentStatements


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("PostgreSQL only: SQLite takes no row lock and runs the three statements")


def _delivery(proposal) -> WebhookDelivery:
    change = StatusChange.get(StatusChange.proposal == proposal.id, StatusChange.sequence == 1)
    return status_events.record_event(change.id)


def _attempt(status_code=200, error=None) -> deliveries.Attempt:
    return deliveries.Attempt("https://partner.example/hook", "req-1", EndpointResponse(status_code, error, 12))


def test_the_attempt_and_the_final_status_are_written_numbered_after_the_earlier_attempts(postgres):
    delivery = _delivery(builders.proposal(path=("TOKEN_SENT",)))
    with unit_of_work():
        deliveries.record_attempt(
            delivery, "https://partner.example/hook", "req-0", EndpointResponse(None, "timeout", 0)
        )
    with unit_of_work():
        assert deliveries.finish_under_proposal_lock(delivery, DeliveryStatus.DELIVERED, attempt=_attempt()) == 1
    stored = WebhookDelivery.get_by_id(delivery.id)
    assert (stored.status, stored.next_attempt_at, stored.last_error) == ("DELIVERED", None, None)
    assert stored.delivered_at is not None and stored.delivered_at == delivery.delivered_at
    attempts = list(
        DeliveryAttempt.select().where(DeliveryAttempt.delivery == delivery.id).order_by(DeliveryAttempt.number)
    )
    assert [(a.number, a.request_id, a.status_code, a.error) for a in attempts] == [
        (1, "req-0", None, "timeout"),
        (2, "req-1", 200, None),
    ]
    assert attempts[1].latency_ms == 12 and attempts[1].url == "https://partner.example/hook"


def test_a_skip_records_no_attempt_and_a_failure_its_error(postgres):
    skipped = _delivery(builders.proposal(path=("TOKEN_SENT",)))
    failed = _delivery(builders.proposal(path=("TOKEN_SENT",)))
    with unit_of_work():
        deliveries.finish_under_proposal_lock(skipped, DeliveryStatus.SKIPPED, error="no URL")
        deliveries.finish_under_proposal_lock(failed, DeliveryStatus.FAILED, error="HTTP 500", attempt=_attempt(500))
    assert (WebhookDelivery.get_by_id(skipped.id).status, WebhookDelivery.get_by_id(skipped.id).last_error) == (
        "SKIPPED",
        "no URL",
    )
    assert not DeliveryAttempt.select().where(DeliveryAttempt.delivery == skipped.id).exists()
    stored = WebhookDelivery.get_by_id(failed.id)
    assert (stored.status, stored.last_error, stored.failed_at is not None) == ("FAILED", "HTTP 500", True)
    assert DeliveryAttempt.get(DeliveryAttempt.delivery == failed.id).status_code == 500


def test_no_locked_row_is_none(postgres):
    delivery = _delivery(builders.proposal(path=("TOKEN_SENT",)))
    delivery.proposal_id = "no-such-proposal"  # its proposal removed since it was read
    with unit_of_work():
        assert deliveries.finish_under_proposal_lock(delivery, DeliveryStatus.DELIVERED, attempt=_attempt()) is None


def test_the_statement_waits_for_the_holder_of_the_proposals_lock(postgres):
    """The lock is really taken: an end waits while a status move holds the proposal, and returns
    the sequence that move committed (so status_delivery reads the change it waits behind)."""
    proposal = builders.proposal(path=("TOKEN_SENT",))
    delivery = _delivery(proposal)
    holding, release, ended = threading.Event(), threading.Event(), threading.Event()
    returned: list[int | None] = []

    def hold_the_lock():
        with db.connection_context(), unit_of_work():
            move(locked_proposal(proposal.id), Trigger.VALIDATE_TOKEN)
            holding.set()
            release.wait(10)

    def end_the_event():
        with db.connection_context(), unit_of_work():
            returned.append(
                deliveries.finish_under_proposal_lock(delivery, DeliveryStatus.DELIVERED, attempt=_attempt())
            )
        ended.set()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    assert holding.wait(10)
    ender = threading.Thread(target=end_the_event)
    ender.start()
    try:
        assert not ended.wait(0.5)  # waiting on the holder's lock
    finally:
        release.set()
        holder.join(10)
    assert ended.wait(10)
    ender.join(10)
    assert WebhookDelivery.get_by_id(delivery.id).status == "DELIVERED"
    assert returned == [2]  # the holder's move, committed while the end waited


def test_an_end_with_no_later_change_skips_the_read_of_the_waiting_event(app, monkeypatch):
    """The proposal has not moved on since the event's change: nothing can wait behind it, so the
    end skips the read of the waiting event, on either backend (PostgreSQL: one statement; SQLite:
    the attempt, the lock's read and the final status)."""
    delivery = _delivery(builders.proposal(path=("TOKEN_SENT",)))
    settings = runtime.current().settings.webhooks
    with unit_of_work():
        statements = SentStatements(monkeypatch)
        assert status_delivery._finish(delivery, DeliveryStatus.DELIVERED, None, settings, _attempt()) is None
        sent = list(statements.sql)
    assert len(sent) == (1 if is_postgres() else 3), sent  # a read of the waiting event would be one more
    assert WebhookDelivery.get_by_id(delivery.id).status == "DELIVERED"


def test_an_end_with_a_later_change_reads_and_hands_it_over(app, monkeypatch):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    delivery = _delivery(proposal)
    with unit_of_work():
        move(locked_proposal(proposal.id), Trigger.VALIDATE_TOKEN)
    settings = runtime.current().settings.webhooks
    with unit_of_work():
        statements = SentStatements(monkeypatch)
        handed = status_delivery._finish(delivery, DeliveryStatus.DELIVERED, None, settings, _attempt())
        sent = list(statements.sql)
    assert handed is not None
    assert handed.change_id == StatusChange.get(StatusChange.proposal == proposal.id, StatusChange.sequence == 2).id
    assert len(sent) >= 2  # the end, then the read that found the waiting change (and its recording)
