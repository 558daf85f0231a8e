"""Choose the broker before any actor is imported (dramatiq binds actors at import time)."""

from __future__ import annotations

import logging

import dramatiq
from dramatiq.brokers.stub import StubBroker

from models.settings import Settings
from rabbitmq.actor_observability import ActorObservability
from rabbitmq.middleware import DatabaseConnection, RequestIdPropagation

log = logging.getLogger(__name__)

_configured: dramatiq.Broker | None = None


def configure_broker(settings: Settings) -> dramatiq.Broker:
    """RabbitMQ with publisher confirms when AMQP_URL is set, else the in-process broker (once per
    process: app.bootstrap calls it before the actors are imported)."""
    global _configured
    if _configured is not None:
        return _configured
    if settings.uses_rabbitmq:
        from dramatiq.brokers.rabbitmq import RabbitmqBroker

        broker: dramatiq.Broker = RabbitmqBroker(url=settings.amqp_url, confirm_delivery=True)
    else:
        broker = StubBroker()
        broker.emit_after("process_boot")
    broker.add_middleware(DatabaseConnection())
    broker.add_middleware(RequestIdPropagation())
    # After RequestIdPropagation: its start/finish lines carry the request id (after_* run reversed).
    broker.add_middleware(ActorObservability())
    dramatiq.set_broker(broker)
    _configured = broker
    return broker


def configured_broker() -> dramatiq.Broker:
    if _configured is None:
        raise RuntimeError("app.bootstrap() must choose the broker before actors are imported or used")
    return _configured
