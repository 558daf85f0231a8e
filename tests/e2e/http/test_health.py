"""Liveness and readiness probes: no token, 503 naming the failing dependency."""

import peewee
import pytest

from models.db.database import db


def test_live_answers_without_a_token(client):
    response = client.get("/health/live")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


def test_ready_when_database_and_broker_answer(client):
    response = client.get("/health/ready")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}


@pytest.fixture
def database_down():
    """Point the database handle at a closed port, as if PostgreSQL were unreachable."""
    original = db.obj
    if not db.is_closed():
        db.close()
    db.initialize(peewee.PostgresqlDatabase("loans", host="127.0.0.1", port=1, connect_timeout=1))
    yield
    db.initialize(original)


def test_ready_is_503_naming_the_database_when_it_is_unreachable(client, database_down):
    response = client.get("/health/ready")
    assert response.status_code == 503
    assert response.get_json() == {
        "status": "unavailable",
        "checks": {"database": "unreachable (OperationalError)", "broker": "ok"},
    }


def test_live_still_answers_when_the_database_is_unreachable(client, database_down):
    assert client.get("/health/live").status_code == 200
