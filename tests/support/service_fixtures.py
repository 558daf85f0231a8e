"""Fixtures of the layers that run the service (tests/integration, tests/e2e): the app booted on the
chosen backend, a clean database per test, the broker and one worker, ``drain`` to run queued work
to the end, ``use_runtime`` to run a test with fake adapters or other settings, and the
partner-side helpers (a local webhook receiver, partner settings, proposals).

Each of those layers' conftest.py imports these fixtures (pytest finds fixtures by name in a
conftest), so each layer declares what it uses and the unit layer sees none of them. A run of both
layers shares one app and one worker: they are booted once per process here, whichever layer asks
first, and the first teardown shuts them down (session teardown runs after every test).
"""

from __future__ import annotations

import time

import freezegun
import pytest

from tests import backends, builders
from tests.builders import BUSINESS_NOON
from tests.support.receiver import LocalReceiver

# dramatiq's and pika's own timers must keep real time while a test freezes the service clock.
freezegun.configure(extend_ignore_list=["dramatiq", "pika", "threading", "queue", "selectors", "socket"])

_stack: dict[str, object] = {}


def _boot():
    """The Flask app (database, schema, seed data, broker, actors) and the seeded partners, once."""
    if "app" not in _stack:
        if backends.BACKEND == "services":
            backends.create_postgres_database()
        import app as composition
        from models.db.database import db
        from models.db.partners import Partner, PartnerCredential

        application = composition.create_app()
        application.config["TESTING"] = True
        with db.connection_context():
            # Taken before any test runs, so a test that changes a partner cannot leak the change.
            _stack["partners"] = (list(Partner.select().dicts()), list(PartnerCredential.select().dicts()))
        _stack["app"] = application
    return _stack["app"]


def _stop_worker() -> None:
    worker = _stack.pop("worker", None)
    if worker is not None:
        worker.stop()


def _shutdown() -> None:
    _stop_worker()
    if _stack.pop("app", None) is not None and backends.BACKEND == "services":
        import app as composition_root
        from models.db.database import db

        composition_root.stop_wakeup_listener()  # else it reconnects, and logs, once the database is dropped
        db.close()
        backends.drop_postgres_database()


@pytest.fixture(scope="session")
def app():
    if backends.services_missing():
        pytest.skip("services missing")
    yield _boot()
    _shutdown()


@pytest.fixture(autouse=True)
def clean_database(app):
    """Every test starts from empty tables plus the seeded sandbox partners."""
    from models.db.database import db
    from models.db.partners import Partner, PartnerCredential
    from models.db.tables import ALL_TABLES

    partners, credentials = _stack["partners"]
    with db.connection_context(), db.atomic():
        for table in reversed(ALL_TABLES):
            table.delete().execute()
        Partner.insert_many(partners).execute()
        PartnerCredential.insert_many(credentials).execute()
    db.connect(reuse_if_open=True)
    yield
    if not db.is_closed():
        db.close()


@pytest.fixture(scope="session")
def broker(app):
    import dramatiq

    return dramatiq.get_broker()


@pytest.fixture(scope="session")
def worker(broker):
    import dramatiq

    if "worker" not in _stack:
        worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=50)
        worker.start()
        _stack["worker"] = worker
    yield _stack["worker"]
    _stop_worker()


@pytest.fixture
def drain(broker, worker):
    """Publish due outbox rows and wait until every queue is empty, repeatedly, until idle."""
    from models.services.platform.outbox import pending_count
    from rabbitmq.outbox_relay import relay_due

    def _queues():
        return [q for q in broker.get_declared_queues() if not q.endswith((".DQ", ".XQ"))]

    def _idle_round(timeout: float) -> bool:
        relay_due()
        for queue in _queues():
            if backends.BACKEND == "services":
                # RabbitMQ counts exclude unacked messages; worker.join() below covers those.
                broker.join(queue, min_successes=2, idle_time=10, timeout=int(timeout * 1000))
            else:
                broker.join(queue, fail_fast=True, timeout=int(timeout * 1000))
        worker.join()
        if backends.BACKEND != "services" and any(queue.unfinished_tasks for queue in broker.queues.values()):
            return False  # an actor enqueued more after its queue was joined
        return pending_count() == 0

    def run(max_rounds: int = 50, timeout: float = 30.0) -> None:
        started = time.monotonic()
        # Two idle rounds in a row on RabbitMQ: a message between the socket and the worker's
        # queue is visible to neither count for a moment.
        needed = 2 if backends.BACKEND == "services" else 1
        idle = 0
        for _ in range(max_rounds):
            idle = idle + 1 if _idle_round(timeout) else 0
            if idle >= needed:
                return
            if time.monotonic() - started > timeout:
                break
        raise AssertionError("queued work did not settle")

    return run


@pytest.fixture
def settle(drain, broker):
    """drain() that tolerates dead-lettered messages (the stub broker re-raises their error on join)
    and counts them: ``settle.dead_lettered(STATUS_WEBHOOK)``, on either backend."""
    from rabbitmq.queues import queue_name

    captured: list = []

    def _xq(family: str) -> int:
        return broker.get_queue_message_counts(queue_name(family))[2]

    def run() -> None:
        for _ in range(10):
            try:
                drain()
                return
            except Exception:
                if backends.BACKEND == "services" or not broker.dead_letters:
                    raise
                captured.extend(broker.dead_letters)
                for messages in broker.dead_letters_by_queue.values():
                    messages.clear()
        raise AssertionError("work did not settle")

    families = ("status_webhook", "auction_webhook")
    baseline = {f: _xq(f) for f in families} if backends.BACKEND == "services" else {}

    def dead_lettered(family: str) -> int:
        if backends.BACKEND == "services":
            return _xq(family) - baseline[family]
        return sum(1 for m in captured if m.queue_name == queue_name(family))

    run.dead_lettered = dead_lettered
    yield run
    if backends.BACKEND != "services":  # leave no stub dead letter behind for other tests' drain()
        for messages in broker.dead_letters_by_queue.values():
            messages.clear()


@pytest.fixture
def use_runtime(app):
    """Run routes and actors with fakes or other settings: ``use_runtime(ports={"funding": fake},
    settings={"disbursement": section})`` installs the booted runtime with those fields replaced
    (models.runtime; nothing is patched) and returns it; the booted runtime is back after the test."""
    from dataclasses import replace

    from models import runtime

    booted = runtime.current()

    def install(*, ports: dict | None = None, settings: dict | None = None):
        return runtime.install(
            replace(
                booted,
                ports=replace(booted.ports, **(ports or {})),
                settings=replace(booted.settings, **(settings or {})),
            )
        )

    yield install
    runtime.install(booted)


@pytest.fixture
def held_outbox(monkeypatch):
    """Nothing is published after commit: queued work stays in the outbox (a stalled worker), so
    the test plays the deliveries itself; ``drain`` still publishes and runs what is due."""
    from models.services.platform import unit_of_work

    monkeypatch.setattr(unit_of_work, "_after_commit_publisher", None)


@pytest.fixture
def receiver():
    """``receiver(script=[500, 200])`` starts a local endpoint; all are stopped after the test."""
    started: list[LocalReceiver] = []

    def start(script=None, default=200, delay=0.0) -> LocalReceiver:
        server = LocalReceiver(script, default, delay).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def configure_partner():
    """Set partner fields the way ops would (`partners update`)."""
    from models.db.partners import Partner
    from models.services.partners.accounts import update_partner

    def apply(code: str = "PARTNER_A", **fields):
        return update_partner(Partner.get(Partner.code == code), **fields)

    return apply


@pytest.fixture
def new_proposal():
    """``new_proposal(origin=..., cpf=..., phone=...)``: builders.contacted_proposal, a new proposal
    whose first status event (CREATED → TOKEN_SENT, sequence 1) is on its way."""
    return builders.contacted_proposal


@pytest.fixture
def business_day(app):
    """Run the test at BUSINESS_NOON (a Tuesday, 12:00 in São Paulo) with the clock ticking, so the
    worker sees the same clock."""
    with freezegun.freeze_time(BUSINESS_NOON, tick=True) as frozen:
        yield frozen
