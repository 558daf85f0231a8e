"""Liveness and readiness for orchestrators and load balancers (no token needed)."""
from __future__ import annotations

import dramatiq
from flask import Blueprint, jsonify

from models.db.database import db

blp = Blueprint("health", __name__)


@blp.route("/health/live")
def live():
    return jsonify(status="ok")


def _database_ok() -> tuple[bool, str | None]:
    try:
        db.execute_sql("SELECT 1")
        return True, None
    except Exception as error:  # reported, not raised: readiness answers either way
        return False, error.__class__.__name__


def _broker_ok() -> tuple[bool, str | None]:
    broker = dramatiq.get_broker()
    if not hasattr(broker, "connection"):
        return True, None  # in-process broker
    try:
        connection = broker.connection  # opens one when this thread has none
        return (True, None) if connection.is_open else (False, "closed")
    except Exception as error:
        return False, error.__class__.__name__


@blp.route("/health/ready")
def ready():
    database_ok, database_error = _database_ok()
    broker_ok, broker_error = _broker_ok()
    body = {"status": "ok" if database_ok and broker_ok else "unavailable",
            "checks": {"database": database_error or "ok", "broker": broker_error or "ok"}}
    return jsonify(body), (200 if database_ok and broker_ok else 503)
