"""The outbox guarantee: a committed change's messages are never lost, a rolled-back one sends none."""

from datetime import timedelta

import pytest
from freezegun import freeze_time

from models.db.outbox import OutboxMessage
from models.domain.clock import now
from models.services.platform.unit_of_work import cancel_scheduled, enqueue, unit_of_work

RECEIVED: list = []


@pytest.fixture(scope="module")
def echo_actor(broker):
    import dramatiq

    from rabbitmq.queues import SCHEDULER, queue_name

    if "outbox_test_echo" in broker.actors:
        return broker.get_actor("outbox_test_echo")

    @dramatiq.actor(actor_name="outbox_test_echo", queue_name=queue_name(SCHEDULER), max_retries=0)
    def outbox_test_echo(value):
        RECEIVED.append(value)

    return outbox_test_echo


@pytest.fixture(autouse=True)
def _reset():
    RECEIVED.clear()


def test_message_is_published_after_commit(echo_actor, drain):
    with unit_of_work():
        enqueue("outbox_test_echo", "committed")
    drain()
    assert RECEIVED == ["committed"]
    assert OutboxMessage.get().published_at is not None


def test_rolled_back_change_sends_nothing(echo_actor, drain):
    with pytest.raises(ZeroDivisionError), unit_of_work():
        enqueue("outbox_test_echo", "rolled back")
        1 / 0  # noqa: B018  (the error rolls the unit back)
    drain()
    assert RECEIVED == [] and OutboxMessage.select().count() == 0


def test_broker_outage_during_the_request_loses_nothing(echo_actor, broker, drain, monkeypatch):
    def broker_down(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    with monkeypatch.context() as patch:
        patch.setattr(broker, "enqueue", broker_down)
        with unit_of_work():  # the request commits although publishing fails
            enqueue("outbox_test_echo", "survives the outage")
        row = OutboxMessage.get()
        assert row.published_at is None and row.publish_attempts == 1 and "unreachable" in row.last_error
    # broker back: the sweeper's pass publishes it
    drain()
    assert RECEIVED == ["survives the outage"]


def test_sweeper_thread_publishes_missed_rows(echo_actor, broker, worker, monkeypatch):
    from models.services.platform import unit_of_work as uow
    from rabbitmq.outbox_relay import OutboxSweeper

    monkeypatch.setattr(uow, "_after_commit_publisher", None)  # as if the process died after commit
    with unit_of_work():
        enqueue("outbox_test_echo", "swept")
    sweeper = OutboxSweeper(interval=0.05)
    sweeper.start()
    try:
        import time

        deadline = time.monotonic() + 10
        while "swept" not in RECEIVED and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        sweeper.stop()
        sweeper.join(5)
    assert RECEIVED == ["swept"]


def test_scheduled_message_waits_until_due(echo_actor, drain):
    with freeze_time("2026-11-21T12:00:00Z") as frozen:
        with unit_of_work():
            enqueue("outbox_test_echo", "later", deliver_at=now() + timedelta(hours=30), dedup_key="job-1")
        frozen.move_to("2026-11-22T17:59:59Z")
        drain()
        assert RECEIVED == []
        frozen.move_to("2026-11-22T18:00:00Z")
        drain()
        assert RECEIVED == ["later"]


def test_dedup_key_keeps_one_scheduled_job():
    with unit_of_work():
        first = enqueue("outbox_test_echo", "a", deliver_at=now() + timedelta(days=1), dedup_key="same")
        second = enqueue("outbox_test_echo", "b", deliver_at=now() + timedelta(days=1), dedup_key="same")
    assert first is not None and second is None
    assert OutboxMessage.select().count() == 1


def test_canceled_schedule_is_never_sent(echo_actor, drain):
    with freeze_time("2026-11-21T12:00:00Z") as frozen:
        with unit_of_work():
            enqueue("outbox_test_echo", "canceled", deliver_at=now() + timedelta(minutes=5), dedup_key="exp")
        with unit_of_work():
            assert cancel_scheduled("exp") == 1
        frozen.tick(timedelta(minutes=10))
        drain()
    assert RECEIVED == []


def test_enqueue_outside_a_unit_of_work_is_refused():
    with pytest.raises(RuntimeError):
        enqueue("outbox_test_echo", "nowhere")


def test_finished_rows_are_purged_after_the_retention(echo_actor, drain):
    from models.services.platform.outbox import purge_finished

    with freeze_time("2026-11-01T12:00:00Z") as frozen:
        with unit_of_work():
            enqueue("outbox_test_echo", "old")
            enqueue("outbox_test_echo", "future", deliver_at=now() + timedelta(days=30))
        drain()
        frozen.move_to("2026-11-08T11:59:59Z")
        assert purge_finished(timedelta(days=7)) == 0
        frozen.move_to("2026-11-08T12:00:01Z")
        assert purge_finished(timedelta(days=7)) == 1
        assert [row.args for row in OutboxMessage.select()] == [["future"]]  # not yet sent: kept


def _due_rows(*rows):
    """Write rows straight to the outbox, as an older release or a mistyped name would have."""
    with unit_of_work():
        for actor_name, args in rows:
            OutboxMessage.create(actor_name=actor_name, args=args)


def test_a_row_naming_no_actor_is_parked_and_the_rows_behind_it_go_out(echo_actor, drain, caplog):
    from rabbitmq.outbox_relay import relay_due

    _due_rows(("no_such_actor", ["lost"]), ("outbox_test_echo", ["after the bad row"]))
    assert relay_due() == 1
    drain()
    assert RECEIVED == ["after the bad row"]
    bad = OutboxMessage.get(OutboxMessage.actor_name == "no_such_actor")
    assert bad.parked_at is not None and bad.published_at is None
    assert "no actor named 'no_such_actor'" in bad.last_error
    assert any("ALERT outbox row" in record.getMessage() for record in caplog.records)


def test_a_row_with_arguments_its_actor_does_not_take_is_parked(echo_actor, drain):
    from models.services.platform.outbox import pending_count
    from rabbitmq.outbox_relay import relay_due

    _due_rows(("outbox_test_echo", ["one", "two too many"]))
    assert relay_due() == 0 and pending_count() == 0
    row = OutboxMessage.get()
    assert row.parked_at is not None and "arguments do not fit outbox_test_echo" in row.last_error
    drain()
    assert RECEIVED == []


def test_parked_rows_are_listed_and_requeued_once_the_cause_is_fixed(echo_actor, drain):
    from models.services.platform import outbox
    from rabbitmq.outbox_relay import relay_due

    _due_rows(("outbox_test_echo_v2", ["waiting for the deploy"]))
    relay_due()
    assert [row.actor_name for row in outbox.parked()] == ["outbox_test_echo_v2"] and outbox.parked_count() == 1
    OutboxMessage.update(actor_name="outbox_test_echo").execute()  # the fix: the actor now exists
    assert outbox.requeue() == 1 and outbox.parked_count() == 0
    drain()
    assert RECEIVED == ["waiting for the deploy"]


def test_a_broker_failure_is_not_parked(echo_actor, broker, monkeypatch):
    from rabbitmq.outbox_relay import relay_due

    monkeypatch.setattr(broker, "enqueue", lambda *a, **k: (_ for _ in ()).throw(ConnectionError("down")))
    _due_rows(("outbox_test_echo", ["kept for the next sweep"]))
    assert relay_due() == 0
    row = OutboxMessage.get()
    assert row.parked_at is None and row.publish_attempts == 1


def test_the_after_commit_publish_sends_the_rows_it_wrote_and_marks_them_published(echo_actor, drain):
    from models.services.platform import unit_of_work as uow

    if uow._after_commit_publisher is None:
        pytest.skip("this backend's fixtures install no after-commit publisher")
    with unit_of_work():
        enqueue("outbox_test_echo", "fast path")
    row = OutboxMessage.get()
    assert row.published_at is not None and row.publish_attempts == 1
    drain()
    assert RECEIVED == ["fast path"]


def test_a_row_whose_writer_died_before_publishing_waits_for_its_lease_then_goes_out(echo_actor, drain, monkeypatch):
    from models.services.platform import unit_of_work as uow
    from rabbitmq.outbox_relay import relay_due

    # The writing process dies between commit and publish: its publisher never runs.
    monkeypatch.setattr(uow, "_after_commit_publisher", lambda leased, ids: None)
    monkeypatch.setattr(uow, "_lease_seconds", 5.0)
    with freeze_time("2026-11-26T12:00:00Z") as frozen:
        with unit_of_work():
            enqueue("outbox_test_echo", "after the lease")
        row = OutboxMessage.get()
        assert row.claimed_until == row.deliver_at + timedelta(seconds=5) and row.published_at is None
        frozen.move_to("2026-11-26T12:00:04.999Z")
        assert relay_due() == 0  # still the writer's
        frozen.move_to("2026-11-26T12:00:05Z")
        assert relay_due() == 1  # the sweeper takes it over
    drain()
    assert RECEIVED == ["after the lease"]


def test_a_broker_failure_on_the_fast_path_hands_the_rows_to_the_sweeper_at_once(
    echo_actor, broker, drain, monkeypatch
):
    from models.services.platform import unit_of_work as uow
    from rabbitmq.outbox_relay import publish_after_commit, relay_due

    monkeypatch.setattr(uow, "_after_commit_publisher", publish_after_commit)
    with monkeypatch.context() as patch:
        patch.setattr(broker, "enqueue", lambda *a, **k: (_ for _ in ()).throw(ConnectionError("down")))
        with unit_of_work():
            enqueue("outbox_test_echo", "first")
            enqueue("outbox_test_echo", "second")
        rows = list(OutboxMessage.select().order_by(OutboxMessage.created_at))
        assert all(row.claimed_until is None and row.published_at is None for row in rows)
        assert sorted(row.publish_attempts for row in rows) == [0, 1]
    assert relay_due() == 2  # no lease to wait for
    drain()
    assert sorted(RECEIVED) == ["first", "second"]


@pytest.fixture
def batched_marks(monkeypatch):
    """The after-commit publish with its marks batched (the test profile writes them at once)."""
    from models.services.platform import unit_of_work as uow
    from rabbitmq import published_marks
    from rabbitmq.outbox_relay import publish_after_commit

    marks = published_marks.PublishedMarks(interval_seconds=3600.0)  # written when a test says
    monkeypatch.setattr(published_marks, "_marks", marks)
    monkeypatch.setattr(uow, "_after_commit_publisher", publish_after_commit)
    monkeypatch.setattr(uow, "_lease_seconds", 5.0)
    yield marks
    marks.flush()


def test_a_sent_row_is_marked_published_by_the_next_batch_and_not_sent_twice_before(echo_actor, drain, batched_marks):
    from rabbitmq.outbox_relay import relay_due

    with freeze_time("2026-11-26T12:00:00Z") as frozen:
        with unit_of_work():
            enqueue("outbox_test_echo", "batched")
        row = OutboxMessage.get()
        assert row.published_at is None and batched_marks.waiting() == 1
        frozen.move_to("2026-11-26T12:00:04.999Z")
        assert relay_due() == 0  # sent and still leased: the sweeper leaves it alone
        assert batched_marks.flush() == 1
        row = OutboxMessage.get()
        assert row.published_at is not None and row.publish_attempts == 1 and batched_marks.waiting() == 0
        frozen.move_to("2026-11-26T12:00:05Z")
        assert relay_due() == 0  # marked: never the sweeper's
    drain()
    assert RECEIVED == ["batched"]


def test_a_mark_missing_when_the_lease_lapses_means_one_more_send_never_a_loss(echo_actor, drain, batched_marks):
    from rabbitmq.outbox_relay import relay_due

    with freeze_time("2026-11-26T12:00:00Z") as frozen:
        with unit_of_work():
            enqueue("outbox_test_echo", "sent twice")
        frozen.move_to("2026-11-26T12:00:05Z")  # e.g. the process died before its batch
        assert relay_due() == 1
    batched_marks.flush()  # a late mark of a row the sweeper already marked changes nothing wrong
    drain()
    assert RECEIVED == ["sent twice", "sent twice"]  # the actors' idempotency absorbs it
    assert OutboxMessage.get().published_at is not None


def test_the_writer_thread_writes_the_marks_within_its_interval(echo_actor, drain, batched_marks):
    import time

    batched_marks.interval_seconds = 0.05
    batched_marks._full.set()  # wake it from the fixture's long wait
    with unit_of_work():
        enqueue("outbox_test_echo", "by the thread")
    deadline = time.monotonic() + 5
    while OutboxMessage.get().published_at is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert OutboxMessage.get().published_at is not None and batched_marks.waiting() == 0
    batched_marks.interval_seconds = 3600.0
    drain()


def test_a_full_batch_is_written_without_waiting_for_the_interval(echo_actor, drain, batched_marks, monkeypatch):
    import time

    from rabbitmq import published_marks

    monkeypatch.setattr(published_marks, "MAX_BATCH", 2)
    with unit_of_work():
        enqueue("outbox_test_echo", "one")
    time.sleep(0.1)
    assert batched_marks.waiting() == 1  # the interval is an hour: nothing written yet
    with unit_of_work():
        enqueue("outbox_test_echo", "two")
    deadline = time.monotonic() + 5
    while batched_marks.waiting() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert OutboxMessage.select().where(OutboxMessage.published_at.is_null()).count() == 0
    drain()


def test_a_failed_write_keeps_the_marks_for_the_next_one_and_warns_once(
    echo_actor, drain, batched_marks, monkeypatch, caplog
):
    from rabbitmq import published_marks

    with unit_of_work():
        enqueue("outbox_test_echo", "kept")
    with monkeypatch.context() as patch, caplog.at_level("INFO", logger="rabbitmq.published_marks"):
        patch.setattr(published_marks, "write", lambda ids: (_ for _ in ()).throw(ConnectionError("db away")))
        assert [batched_marks.flush() for _ in range(3)] == [0, 0, 0]
        assert batched_marks.waiting() == 1 and OutboxMessage.get().published_at is None
        patch.undo()
        assert batched_marks.flush() == 1
    assert OutboxMessage.get().published_at is not None
    warnings = [record for record in caplog.records if record.levelname == "WARNING"]
    assert len(warnings) == 1 and "db away" in caplog.text  # one warning per outage, with its cause
    assert "written again after 3 failed tries" in caplog.text
    drain()


def test_a_forked_child_leaves_its_parents_marks_to_the_parent(monkeypatch):
    import os

    from rabbitmq import published_marks

    monkeypatch.setattr(published_marks._marks, "_ids", ["parent-row"])
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(write, str(published_marks.waiting()).encode())
        os._exit(0)
    os.close(write)
    assert os.read(read, 100) == b"0"
    os.waitpid(pid, 0)


def test_an_idle_writer_borrows_no_connection(batched_marks, monkeypatch):
    from models.db.database import db

    borrowed = []
    monkeypatch.setattr(db.obj, "is_closed", lambda: True)  # as in the writer's own thread
    monkeypatch.setattr(db.obj, "connect", lambda *args, **kwargs: borrowed.append(1))
    monkeypatch.setattr(db.obj, "close", lambda *args, **kwargs: None)
    assert batched_marks.flush() == 0
    assert borrowed == []
