"""The floor for bench/full_flow.py: a bare dramatiq chain, each hop one UPDATE on the same database.

Worker entry point: `dramatiq bench.floor --queues <prefix>floor` with AMQP_URL, DATABASE_URL and
QUEUE_PREFIX set. Same broker settings as the service (RabbitMQ, publisher confirms), no outbox,
no ORM, no service code: what any design pays for that many hops on this machine.
"""

from __future__ import annotations

import os
import threading

import dramatiq
import psycopg2
from dramatiq.brokers.rabbitmq import RabbitmqBroker

broker = RabbitmqBroker(url=os.environ["AMQP_URL"], confirm_delivery=True)
dramatiq.set_broker(broker)
QUEUE = os.environ.get("QUEUE_PREFIX", "") + "floor"
_local = threading.local()

CREATE = """CREATE TABLE IF NOT EXISTS bench_floor (
    id integer PRIMARY KEY, hops integer NOT NULL DEFAULT 0,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(), finished_at timestamptz)"""


def _cursor():
    connection = getattr(_local, "connection", None)
    if connection is None or connection.closed:
        connection = _local.connection = psycopg2.connect(os.environ["DATABASE_URL"])
        connection.autocommit = True
    return connection.cursor()


@dramatiq.actor(actor_name="floor_hop", queue_name=QUEUE, max_retries=0)
def floor_hop(chain_id: int, remaining: int) -> None:
    """One hop: one UPDATE, then the next hop (the last one stamps finished_at)."""
    with _cursor() as cursor:
        cursor.execute(
            "UPDATE bench_floor SET hops = hops + 1, finished_at = CASE WHEN %s = 0 "
            "THEN clock_timestamp() ELSE finished_at END WHERE id = %s",
            (remaining, chain_id),
        )
    if remaining:
        floor_hop.send(chain_id, remaining - 1)
