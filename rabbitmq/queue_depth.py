"""How many messages wait in each queue of this environment (metrics; cached by the caller).

RabbitMQ: one passive declare per queue on a connection kept by this module (a round trip each,
no new connection per scrape). In-process broker: the size of its in-memory queues.
"""

from __future__ import annotations

import threading

import dramatiq

from rabbitmq.queues import ALL_QUEUES, queue_name

_lock = threading.Lock()
_connection = None


def _rabbitmq_depths(broker) -> dict[str, int]:
    import pika

    global _connection
    with _lock:  # pika connections are not thread-safe
        try:
            if _connection is None or not _connection.is_open:
                _connection = pika.BlockingConnection(broker.parameters)
            channel = _connection.channel()
            depths = {}
            for family in ALL_QUEUES:
                name = queue_name(family)
                try:
                    depths[name] = channel.queue_declare(name, passive=True).method.message_count
                except pika.exceptions.ChannelClosedByBroker:  # not declared yet: nothing waits
                    depths[name] = 0
                    channel = _connection.channel()
            if channel.is_open:
                channel.close()
            return depths
        except Exception:
            _connection = None
            raise


def queue_depths() -> dict[str, int]:
    """Queue name (with this environment's prefix) -> messages ready in it."""
    broker = dramatiq.get_broker()
    if hasattr(broker, "parameters"):
        return _rabbitmq_depths(broker)
    queues = getattr(broker, "queues", {})
    return {
        queue_name(family): queues[queue_name(family)].qsize() if queue_name(family) in queues else 0
        for family in ALL_QUEUES
    }
