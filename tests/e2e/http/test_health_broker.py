"""The RabbitMQ readiness check: one kept connection, a real round trip, a short cache."""

import copy

import dramatiq
import pytest

from tests import backends

pytestmark = pytest.mark.skipif(backends.BACKEND != "services", reason="RabbitMQ readiness needs RabbitMQ")


@pytest.fixture
def check():
    health = __import__("httpapi.health", fromlist=["BrokerCheck"])
    probe = health.BrokerCheck()
    yield probe
    probe.reset()


class _Broker:
    def __init__(self, parameters):
        self.parameters = parameters


def test_broker_answering_is_ready_and_the_connection_is_reused(app, check):
    broker = dramatiq.get_broker()
    assert check._probe(broker, 2.0) == (True, None)
    first = check._connection
    assert check._probe(broker, 2.0) == (True, None) and check._connection is first


def test_unreachable_broker_is_reported(app, check):
    parameters = copy.deepcopy(dramatiq.get_broker().parameters)
    parameters.port = 1
    assert check._probe(_Broker(parameters), 1.0) == (False, "unreachable (AMQPConnectionError)")


def test_answer_is_cached_between_probes(app, check, monkeypatch):
    broker = dramatiq.get_broker()
    assert check(broker) == (True, None)
    monkeypatch.setattr(check, "_probe", lambda *args: (False, "should not be called"))
    assert check(broker) == (True, None)


def test_ready_route_is_503_when_the_broker_is_unreachable(client, monkeypatch):
    health = __import__("httpapi.health", fromlist=["broker_check"])
    monkeypatch.setattr(health, "broker_check", lambda broker: (False, "unreachable (AMQPConnectionError)"))
    response = client.get("/health/ready")
    assert response.status_code == 503
    assert response.get_json()["checks"] == {"database": "ok", "broker": "unreachable (AMQPConnectionError)"}
