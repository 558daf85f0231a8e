"""Suite fixtures: one backend per run (see tests/backends.py), a clean database per test, the
Flask test client, tokens for the sandbox partners, and ``drain`` to run queued work to the end."""
from __future__ import annotations

import base64
import tempfile
import time

import freezegun
import pytest

from tests import backends

# dramatiq's and pika's own timers must keep real time while a test freezes the service clock.
freezegun.configure(extend_ignore_list=["dramatiq", "pika", "threading", "queue", "selectors", "socket"])

_TMP = tempfile.mkdtemp(prefix="loans-tests-")
_MISSING = backends.services_missing() if backends.BACKEND == "services" else []
if not _MISSING:
    backends.configure_environment(_TMP)


def pytest_report_header(config):
    if backends.BACKEND == "services":
        state = f"MISSING {', '.join(_MISSING)}" if _MISSING else "PostgreSQL + RabbitMQ"
        return f"backend: services ({state})"
    return "backend: SQLite file + in-process broker"


def pytest_collection_modifyitems(config, items):
    if not _MISSING:
        return
    message = ("real-service tests need " + " and ".join(_MISSING) +
               "; start them (see README) or run the SQLite suite with TEST_BACKEND=sqlite")
    if backends.IN_CI:
        pytest.exit(f"CI=true but {message}", returncode=3)
    for item in items:
        item.add_marker(pytest.mark.skip(reason=message))


@pytest.fixture(scope="session")
def app():
    if _MISSING:
        pytest.skip("services missing")
    import app as composition

    application = composition.create_app()
    application.config["TESTING"] = True
    yield application
    if backends.BACKEND == "services":
        from models.db.database import db

        db.close()
        backends.drop_postgres_database()


@pytest.fixture(scope="session")
def _partner_snapshot(app):
    from models.db.database import db
    from models.db.partners import Partner, PartnerCredential

    with db.connection_context():
        return (list(Partner.select().dicts()), list(PartnerCredential.select().dicts()))


@pytest.fixture(autouse=True)
def clean_database(request, _partner_snapshot):
    """Every test starts from empty tables plus the seeded sandbox partners."""
    from models.db.database import db
    from models.db.partners import Partner, PartnerCredential
    from models.db.tables import ALL_TABLES

    partners, credentials = _partner_snapshot
    with db.connection_context():
        with db.atomic():
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

    worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=50)
    worker.start()
    yield worker
    worker.stop()


@pytest.fixture
def drain(broker, worker):
    """Publish due outbox rows and wait until every queue is empty, repeatedly, until idle."""
    from models.db.outbox import OutboxMessage
    from models.domain.clock import now
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
        return not (OutboxMessage.select().where(OutboxMessage.published_at.is_null(),
                                                 OutboxMessage.canceled_at.is_null(), OutboxMessage.parked_at.is_null(),
                                                 OutboxMessage.deliver_at <= now()).exists())

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
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def _token_cache():
    return {}


SANDBOX_CREDENTIALS = {"PARTNER_A": ("sandbox-partner-a", "sandbox-secret-a"),
                       "PARTNER_B": ("sandbox-partner-b", "sandbox-secret-b")}


@pytest.fixture
def token_for(app, _token_cache):
    """An access token for a sandbox partner, reused while valid at the current (maybe frozen) time,
    as partners are told to; re-issued when the clock has moved outside its validity."""
    from models.domain.clock import now
    from models.services.partners.tokens import issue_token
    from models.settings import current

    def get(code: str = "PARTNER_A") -> str:
        at = int(now().timestamp())
        cached = _token_cache.get(code)
        if cached is None or not (cached[1] <= at < cached[2] - 60):
            client_id, _ = SANDBOX_CREDENTIALS[code]
            issued = issue_token(current(), origin=code, client_id=client_id)
            _token_cache[code] = (issued["access_token"], at, at + issued["expires_in"])
        return _token_cache[code][0]

    return get


@pytest.fixture
def auth(token_for):
    """Headers for a partner: ``client.get(url, headers=auth("PARTNER_B"))``."""
    def headers(code: str = "PARTNER_A") -> dict:
        return {"Authorization": f"Bearer {token_for(code)}", "Accept": "application/json"}

    return headers


def basic_auth(client_id: str, secret: str) -> dict:
    raw = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    return {"Authorization": f"Basic {raw}"}
