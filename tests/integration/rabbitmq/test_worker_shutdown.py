"""A worker process, dramatiq's or gunicorn's, writes its last "published" marks as it stops."""

import importlib.util

import pytest

from models.db.outbox import OutboxMessage
from models.services.platform.unit_of_work import enqueue, unit_of_work
from models.settings import ROOT


@pytest.fixture
def sent_unmarked(monkeypatch):
    """One message sent by the after-commit publish, its mark still queued."""
    from models.services.platform import unit_of_work as uow
    from rabbitmq import published_marks
    from rabbitmq.outbox_relay import publish_after_commit

    monkeypatch.setattr(published_marks, "_marks", published_marks.PublishedMarks(interval_seconds=3600.0))
    monkeypatch.setattr(uow, "_after_commit_publisher", publish_after_commit)
    with unit_of_work():
        enqueue("sweep_lifecycle")
    assert OutboxMessage.get().published_at is None and published_marks.waiting() == 1


def _gunicorn_conf():
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "http" / "gunicorn_conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    return conf


def test_a_dramatiq_worker_writes_its_last_marks_once_its_threads_stopped(sent_unmarked, drain):
    from rabbitmq.worker_middleware import OutboxSweeperMiddleware

    OutboxSweeperMiddleware().after_worker_shutdown(broker=None, worker=None)
    assert OutboxMessage.get().published_at is not None
    drain()


def test_a_gunicorn_worker_writes_its_last_marks_as_it_exits(sent_unmarked, drain):
    _gunicorn_conf().worker_exit(server=None, worker=None)
    assert OutboxMessage.get().published_at is not None
    drain()
