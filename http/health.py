"""Liveness and readiness for orchestrators and load balancers (no token needed).

``/health/live``: the process answers. ``/health/ready``: the database answers ``SELECT 1`` and
the broker answers a channel open on a connection this module keeps (reconnecting once when it
has died), so a probe is one round trip each, and the broker's answer is cached briefly (config
``[default.health]``). 503 with the failing check named when either is down.
"""

from __future__ import annotations

import copy
import threading
import time

import dramatiq
from flask import Blueprint, jsonify

from models import runtime
from models.services.platform.health import database_ok

blp = Blueprint("health", __name__)


@blp.route("/health/live")
def live():
    return jsonify(status="ok")


class BrokerCheck:
    """One long-lived connection for readiness probes; its last answer cached for ``ttl`` seconds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # pika connections are not thread-safe
        self._connection = None
        self._answer: tuple[bool, str | None] | None = None
        self._at = 0.0

    def __call__(self, broker) -> tuple[bool, str | None]:
        settings = runtime.current().settings.health
        with self._lock:
            if self._answer is not None and time.monotonic() - self._at < settings.broker_check_cache_seconds:
                return self._answer
            self._answer = self._probe(broker, settings.broker_connect_timeout_seconds)
            self._at = time.monotonic()
            return self._answer

    def _probe(self, broker, timeout: float) -> tuple[bool, str | None]:
        import pika

        for attempt in (1, 2):  # a connection closed by the broker earlier: reconnect once
            try:
                if self._connection is None or not self._connection.is_open:
                    parameters = copy.deepcopy(broker.parameters)
                    parameters.socket_timeout = timeout
                    parameters.blocked_connection_timeout = timeout
                    self._connection = pika.BlockingConnection(parameters)
                self._connection.process_data_events(time_limit=0)  # raises if the socket died
                self._connection.channel().close()  # a round trip the broker must answer
                return True, None
            except Exception as error:
                self.reset()
                if attempt == 2:
                    return False, f"unreachable ({error.__class__.__name__})"
        return False, "unreachable"

    def reset(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:  # already gone
                pass


broker_check = BrokerCheck()


def _broker_ok() -> tuple[bool, str | None]:
    broker = dramatiq.get_broker()
    if not hasattr(broker, "parameters"):
        return True, None  # in-process broker: up whenever this process is
    return broker_check(broker)


@blp.route("/health/ready")
def ready():
    database_up, database_error = database_ok()
    broker_ok, broker_error = _broker_ok()
    healthy = database_up and broker_ok
    body = {
        "status": "ok" if healthy else "unavailable",
        "checks": {"database": database_error or "ok", "broker": broker_error or "ok"},
    }
    return jsonify(body), (200 if healthy else 503)
