"""The database away during a request: 503 with the spec's error body and Retry-After on every kind
of route (a GET, a POST, the token route, a provider callback), never a 500 and never the driver's
text; and the next request after it is back is served (models/services/platform/unavailable.py, models/db/database.py).

The shared PostgreSQL is never stopped: the runtime database is swapped for an unreachable one (a
closed port on 127.0.0.1, or a SQLite file in a folder that does not exist) and put back after."""

from __future__ import annotations

import json
import socket
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

import peewee
import pytest
from playhouse.db_url import connect

from models import runtime
from models.db.database import db, is_postgres
from models.db.pool import PING_AFTER_IDLE_SECONDS
from models.services.partners import callback_auth
from tests.e2e.conftest import basic_auth

START = {"cpf": "52998224725", "full_name": "Maria da Silva", "birth_date": "1985-04-12"}
TOKEN_FORM = {"grant_type": "client_credentials", "client_id": "sandbox-partner-a", "client_secret": "sandbox-secret-a"}


def _closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _unreachable(folder: Path) -> peewee.Database:
    if is_postgres():
        return connect(f"postgresql+pool://postgres@127.0.0.1:{_closed_port()}/loans", connect_timeout=2)
    return peewee.SqliteDatabase(str(folder / "no-such-folder" / "loans.sqlite3"))


@contextmanager
def _down():
    """The service's database unreachable inside the block; the real one back after it."""
    real = db.obj
    if not db.is_closed():
        db.close()
    db.initialize(_unreachable(Path(tempfile.mkdtemp(prefix="unreachable-"))))
    try:
        yield
    finally:
        db.initialize(real)


def _assert_unavailable(response) -> None:
    assert response.status_code == 503
    assert response.headers["Retry-After"] == str(runtime.current().settings.unavailable_retry_after_seconds)
    body = response.get_json()
    assert body["statusCode"] == 503 and body["error"] == "Service Unavailable"
    assert body["errorCode"] == "SERVICE_UNAVAILABLE"
    text = json.dumps(body).lower()
    for leak in ("operationalerror", "connection", "sqlite", "psycopg", "127.0.0.1", "traceback"):
        assert leak not in text, f"the 503 body leaks {leak!r}: {body}"


def _signed_callback(client, path: str, event: dict, secret: str):
    raw = json.dumps(event).encode()
    return client.post(
        path, data=raw, content_type="application/json", headers={"X-Signature": callback_auth.sign(raw, secret)}
    )


def test_a_get_is_503_while_the_database_is_away(client, auth):
    headers = auth()  # the token is issued while the database is up
    with _down():
        _assert_unavailable(client.get("/v1/proposals", headers=headers))
    assert client.get("/v1/proposals", headers=headers).status_code == 200


def test_a_post_is_503_while_the_database_is_away(client, auth):
    headers = auth()
    with _down():
        _assert_unavailable(client.post("/v1/proposals/start", json=START, headers=headers))
    assert client.post("/v1/proposals/start", json=START, headers=headers).status_code == 201


def test_the_token_route_is_503_while_the_database_is_away(client):
    with _down():
        _assert_unavailable(client.post("/oauth2/token", data=TOKEN_FORM))
        _assert_unavailable(
            client.post(
                "/oauth2/token",
                data={"grant_type": "client_credentials"},
                headers=basic_auth("sandbox-partner-b", "sandbox-secret-b"),
            )
        )
    assert client.post("/oauth2/token", data=TOKEN_FORM).status_code == 200


def test_a_provider_callback_is_503_while_the_database_is_away(client):
    secret = runtime.current().settings.esignature.callback_secret
    event = {"process_id": "process-that-waits", "event": "FINISHED"}
    with _down():
        _assert_unavailable(_signed_callback(client, "/callbacks/esignature", event, secret))


def test_readiness_is_503_with_retry_after_while_the_database_is_away(client):
    with _down():
        response = client.get("/health/ready")
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert response.get_json()["checks"]["database"].startswith("unreachable")


@pytest.fixture
def postgres(app):
    if not is_postgres():
        pytest.skip("server-side connection loss and the connection pool: PostgreSQL only")


def _terminate(pids: list[int]) -> None:
    """End those server sessions from another connection, as a PostgreSQL restart does."""
    import psycopg2

    from tests import backends

    admin = psycopg2.connect(backends.POSTGRES_ADMIN_URL)
    admin.autocommit = True
    with admin.cursor() as cursor:
        for pid in pids:
            cursor.execute("SELECT pg_terminate_backend(%s)", (pid,))
    admin.close()


def test_a_connection_lost_in_hand_is_503_then_dropped_not_reused(client, auth, postgres):
    headers = auth()
    db.connect(reuse_if_open=True)  # the connection this thread's next request will use
    _terminate([db.connection().get_backend_pid()])
    _assert_unavailable(client.get("/v1/proposals", headers=headers))
    assert client.get("/v1/proposals", headers=headers).status_code == 200
    assert client.get("/v1/proposals", headers=headers).status_code == 200


def test_idle_pooled_connections_killed_by_a_restart_are_replaced_on_checkout(client, auth, postgres):
    headers = auth()
    assert client.get("/v1/proposals", headers=headers).status_code == 200  # leaves idle ones pooled
    idle = [connection.get_backend_pid() for _, _, connection in db.obj._connections]
    assert idle
    _age_checked_in_connections(db.obj, seconds=PING_AFTER_IDLE_SECONDS + 1)
    _terminate(idle)
    assert client.get("/v1/proposals", headers=headers).status_code == 200
    assert client.post("/oauth2/token", data=TOKEN_FORM).status_code == 200


def _age_checked_in_connections(pool, *, seconds: float) -> None:
    """As if every pooled connection had been given back ``seconds`` ago (models/db/pool.py)."""
    for key in pool._checked_in_at:
        pool._checked_in_at[key] -= seconds


def test_a_connection_given_back_just_now_is_handed_out_without_a_ping(client, auth, postgres, monkeypatch):
    headers = auth()
    assert client.get("/v1/proposals", headers=headers).status_code == 200
    pings = []
    adapter = db.obj._adapter
    real = adapter.is_connection_closed
    monkeypatch.setattr(adapter, "is_connection_closed", lambda conn: pings.append(conn) or real(conn))
    assert client.get("/v1/proposals", headers=headers).status_code == 200
    assert pings == []
    _age_checked_in_connections(db.obj, seconds=PING_AFTER_IDLE_SECONDS + 1)
    assert client.get("/v1/proposals", headers=headers).status_code == 200
    assert len(pings) == 1


def test_a_connection_killed_right_after_its_check_in_is_503_once_then_replaced(client, auth, postgres):
    headers = auth()
    assert client.get("/v1/proposals", headers=headers).status_code == 200
    _terminate([connection.get_backend_pid() for _, _, connection in db.obj._connections])
    responses = [client.get("/v1/proposals", headers=headers) for _ in range(len(db.obj._connections) + 1)]
    assert responses[-1].status_code == 200
    for response in responses[:-1]:
        assert response.status_code in (200, 503)
        if response.status_code == 503:
            _assert_unavailable(response)
    assert client.get("/v1/proposals", headers=headers).status_code == 200


def test_an_exhausted_connection_pool_is_503(client, auth, postgres):
    headers = auth()
    if not db.is_closed():
        db.close()
    held, release = threading.Event(), threading.Event()

    def hold_one():
        with db.connection_context():
            held.set()
            release.wait(10)

    pool, limit = db.obj, db.obj._max_connections
    holder = threading.Thread(target=hold_one, daemon=True)
    pool._max_connections = 1
    try:
        holder.start()
        assert held.wait(10)
        _assert_unavailable(client.get("/v1/proposals", headers=headers))
    finally:
        pool._max_connections = limit
        release.set()
        holder.join(10)
    assert client.get("/v1/proposals", headers=headers).status_code == 200


@pytest.mark.parametrize(
    "error, unavailable",
    [
        (peewee.OperationalError("could not connect to server: Connection refused"), True),
        (peewee.InterfaceError("connection already closed"), True),
        (peewee.OperationalError("no such table: proposal"), True),  # no driver error: PostgreSQL's
        (peewee.IntegrityError("duplicate key"), False),
        (peewee.ProgrammingError("syntax error"), False),
        (ValueError("a bug"), False),
    ],
)
def test_which_errors_mean_a_dependency_is_away(error, unavailable):
    from models.services.platform.unavailable import is_unavailable

    assert is_unavailable(error) is unavailable


@pytest.mark.parametrize(
    "message, unavailable",
    [
        ("database is locked", True),
        ("unable to open database file", True),
        ("no such table: proposal", False),
        ('near "SELEC": syntax error', False),
    ],
)
def test_sqlite_errors_count_only_when_the_file_cannot_be_used_now(message, unavailable):
    import sqlite3

    from models.services.platform.unavailable import is_unavailable

    assert is_unavailable(peewee.OperationalError(sqlite3.OperationalError(message))) is unavailable


def test_broker_and_pool_errors_count():
    import dramatiq.errors
    import pika.exceptions
    from playhouse.pool import MaxConnectionsExceeded

    from models.services.platform.unavailable import is_unavailable

    assert is_unavailable(dramatiq.errors.BrokerConnectionError("broker away"))
    assert is_unavailable(pika.exceptions.AMQPConnectionError("refused"))
    assert is_unavailable(MaxConnectionsExceeded("Exceeded maximum connections."))


def test_an_error_raised_while_handling_a_lost_connection_counts():
    from models.services.platform.unavailable import is_unavailable

    try:
        try:
            raise peewee.OperationalError("server closed the connection unexpectedly")
        except peewee.OperationalError:
            raise RuntimeError("the use case gave up") from None
    except RuntimeError as error:
        assert not is_unavailable(error)  # "from None": the cause was hidden on purpose

    try:
        try:
            raise peewee.OperationalError("server closed the connection unexpectedly")
        except peewee.OperationalError as cause:
            raise RuntimeError("the use case gave up") from cause
    except RuntimeError as error:
        assert is_unavailable(error)
