"""A status move is one statement on PostgreSQL, after the proposal's lock (taken first when the
transaction does not hold it yet), and records what SQLite's four statements record
(proposal_status.move)."""

from __future__ import annotations

import pytest

from models.db.database import db, is_postgres
from models.db.events import StatusEvent
from models.db.outbox import OutboxMessage
from models.db.proposals import Proposal, StatusChange
from models.domain.lifecycles import DeliveryStatus
from models.domain.status_machine import Trigger
from models.services.platform.actor_names import ActorName
from models.services.platform.locks import locked_proposal, proposal_lock_key
from models.services.platform.proposal_status import ConcurrentChange, move
from models.services.platform.unit_of_work import holds_row_lock, unit_of_work
from models.services.webhooks import deliveries, status_events
from tests import builders
from tests.support.sent_statements import SentStatements


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("SQLite serialises writers: it takes no row lock and moves in four statements")


def _messages_for(change_id: int) -> int:
    messages = OutboxMessage.select().where(OutboxMessage.actor_name == str(ActorName.DELIVER_STATUS_CHANGE))
    return sum(1 for message in messages if message.args == [change_id])


def _recorded(proposal_id: str, sequence: int) -> tuple:
    change = StatusChange.get(StatusChange.proposal == proposal_id, StatusChange.sequence == sequence)
    event = StatusEvent.get(StatusEvent.status_change == change.id)
    return change, event


def _finish_event(proposal_id: str, sequence: int) -> None:
    change = StatusChange.get(StatusChange.proposal == proposal_id, StatusChange.sequence == sequence)
    with unit_of_work():
        deliveries.finish(status_events.record_event(change.id), DeliveryStatus.DELIVERED)


@pytest.mark.parametrize("locked", [True, False], ids=["locked", "not-locked-yet"])
def test_a_move_records_the_change_its_feed_event_and_its_message(app, monkeypatch, locked):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    _finish_event(proposal.id, 1)  # the previous event ended: this change gets a message of its own
    statements = SentStatements(monkeypatch)
    with unit_of_work():
        current = locked_proposal(proposal.id) if locked else Proposal.get_by_id(proposal.id)
        del statements.sql[:]
        returned = move(current, Trigger.VALIDATE_TOKEN, source="actor", details={"why": "test"})
        # PostgreSQL: the lock when not held yet, the move and the message's outbox row. SQLite:
        # UPDATE, two INSERTs, the order check and the outbox row.
        assert len(statements.sql) == ((2 if locked else 3) if is_postgres() else 5), statements.sql
    change, event = _recorded(proposal.id, 2)
    assert returned.id == change.id
    assert (change.old_status, change.new_status, change.trigger, change.source, change.details) == (
        "TOKEN_SENT",
        "TOKEN_VALIDATED",
        Trigger.VALIDATE_TOKEN.value,
        "actor",
        {"why": "test"},
    )
    assert change.changed_at == returned.changed_at
    assert event.origin == "PARTNER_A" and event.position is None
    stored = Proposal.get_by_id(proposal.id)
    assert (stored.status, stored.status_sequence, stored.updated_at) == ("TOKEN_VALIDATED", 2, change.changed_at)
    assert (current.status, current.status_sequence) == ("TOKEN_VALIDATED", 2)
    assert _messages_for(change.id) == 1


def test_a_locked_move_behind_an_unfinished_event_sends_no_message(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))  # the event of sequence 1 has not ended
    with unit_of_work():
        move(locked_proposal(proposal.id), Trigger.VALIDATE_TOKEN)
    change, _ = _recorded(proposal.id, 2)
    assert _messages_for(change.id) == 0
    # The end of sequence 1 hands it over.
    previous = StatusChange.get(StatusChange.proposal == proposal.id, StatusChange.sequence == 1)
    assert status_events.next_waiting_change(status_events.record_event(previous.id)).id == change.id


def test_the_first_move_of_a_transaction_takes_the_lock_and_the_second_is_one_statement(postgres, monkeypatch):
    proposal = builders.proposal(path=("TOKEN_SENT", "TOKEN_VALIDATED"))
    _finish_event(proposal.id, 2)
    statements = SentStatements(monkeypatch)
    with unit_of_work():
        current = Proposal.get_by_id(proposal.id)
        del statements.sql[:]
        move(current, Trigger.START_ANALYSIS, promotional_eligible=False)  # lock, move, message
        first = len(statements.sql)
        move(current, Trigger.CREDIT_CHECK_DONE)
        assert first == 3 and len(statements.sql) - first == 1  # behind the first: no message
    changes = StatusChange.select().where(StatusChange.proposal == proposal.id).order_by(StatusChange.sequence)
    assert [(c.sequence, c.new_status) for c in changes][-2:] == [
        (3, "CREDIT_ANALYSIS_IN_PROGRESS"),
        (4, "CREDIT_CHECK_COMPLETED"),
    ]
    assert StatusEvent.select().join(StatusChange).where(StatusChange.proposal == proposal.id).count() == 2


def test_a_stale_proposal_moved_under_the_lock_is_a_409_and_records_nothing(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    stale = Proposal.get_by_id(proposal.id)
    with unit_of_work():
        move(locked_proposal(proposal.id), Trigger.VALIDATE_TOKEN)
    with pytest.raises(ConcurrentChange), unit_of_work():
        locked_proposal(proposal.id)
        move(stale, Trigger.VALIDATE_TOKEN)
    assert StatusChange.select().where(StatusChange.proposal == proposal.id).count() == 3  # 0, 1, 2
    assert StatusEvent.select().join(StatusChange).where(StatusChange.proposal == proposal.id).count() == 1


def test_only_a_lock_taken_outside_any_savepoint_is_remembered_and_only_until_the_transaction_ends(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    key = proposal_lock_key(proposal.id)
    with unit_of_work():
        with unit_of_work():  # a savepoint: its rollback would release the lock
            locked_proposal(proposal.id)
        assert not holds_row_lock(key)
        locked_proposal(proposal.id)
        assert holds_row_lock(key)
        with unit_of_work():
            assert holds_row_lock(key)  # a savepoint inside keeps the transaction's lock
    assert not holds_row_lock(key)
    with unit_of_work():
        assert not holds_row_lock(key)


def test_the_pool_counts_a_savepoint_until_it_ends_however_it_ends(postgres):
    proposal = builders.proposal(path=("TOKEN_SENT",))
    assert db.obj.open_savepoints() == 0
    with unit_of_work():
        with pytest.raises(ZeroDivisionError), db.atomic():  # rolled back: its lock is released
            assert db.obj.open_savepoints() == 1
            locked_proposal(proposal.id)
            raise ZeroDivisionError
        assert db.obj.open_savepoints() == 0
        assert not holds_row_lock(proposal_lock_key(proposal.id))
        with db.atomic():
            assert db.obj.open_savepoints() == 1
        assert db.obj.open_savepoints() == 0


def test_only_a_move_out_of_a_status_a_hybrid_request_waits_in_wakes_the_proposals_waiters(app, monkeypatch):
    """POST contract waits for the proposal to leave CONTRACT_GENERATION_IN_PROGRESS: that move
    wakes it (after the commit). Other moves wake nobody: no request waits on them, and each wake
    costs every API process a round trip (the other hybrid waits are woken by their outcomes)."""
    from models.services.platform import unit_of_work as uow
    from models.services.platform.proposal_status import wake_key

    woken: list[list[str]] = []
    monkeypatch.setattr(uow, "_after_commit_notifier", woken.append)
    moving_on = builders.proposal(path=("TOKEN_SENT",))
    with unit_of_work():
        move(locked_proposal(moving_on.id), Trigger.VALIDATE_TOKEN)
    assert woken == []
    generating = builders.proposal(status="CONTRACT_GENERATION_IN_PROGRESS")
    with unit_of_work():
        move(locked_proposal(generating.id), Trigger.CONTRACT_FAILED, source="scheduler")
        assert woken == []  # not before the commit
    assert woken == [[wake_key(generating.id)]]
