"""Runs the floor (bench/floor.py) on the bench database and queue prefix and measures it."""

from __future__ import annotations

import contextlib
import os
import sys
import time

import psycopg2

from bench.stats import percentile
from rabbitmq.pools import LAYOUTS


def outbox_messages(database_url: str) -> int:
    """Actor messages the flow caused (every enqueue is an outbox row): the flow's hop count."""
    connection = psycopg2.connect(database_url)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM outbox_message")
            return cursor.fetchone()[0]
    except psycopg2.Error:
        return 0
    finally:
        connection.close()


def outbox_messages_by_actor(database_url: str) -> list[tuple[str, int, int]]:
    """Per actor: the messages the flow caused, and how many of them were cancelled before they
    were due (a scheduled deadline the flow made moot), most first."""
    connection = psycopg2.connect(database_url)
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT actor_name, count(*), count(canceled_at) FROM outbox_message"
                " GROUP BY actor_name ORDER BY count(*) DESC, actor_name"
            )
            return [(name, total, canceled) for name, total, canceled in cursor.fetchall()]
    except psycopg2.Error:
        return []
    finally:
        connection.close()


def layout(name: str = "production") -> tuple[int, int]:
    """As many worker processes as the pools of the layout, about as many threads in total."""
    pools = LAYOUTS[name]
    processes = sum(pool.processes for pool in pools)
    threads = round(sum(pool.processes * pool.threads for pool in pools) / processes)
    return processes, threads


def run(env, n: int, hops: int, pools: str = "production", around_chains=contextlib.nullcontext) -> dict:
    """N chains of ``hops`` hops, all started at once; wall time and chain latency.
    ``around_chains()``: a context manager entered once the workers are up and left when the last
    chain ends (bench/element_bound.py measures the machine's CPU of the chains alone with it)."""
    processes, threads = layout(pools)
    for key in ("AMQP_URL", "DATABASE_URL", "QUEUE_PREFIX"):  # bench.floor reads them at import
        os.environ[key] = env.env[key]
    from bench import floor

    connection = psycopg2.connect(env.database_url)
    connection.autocommit = True
    cursor = connection.cursor()
    cursor.execute(floor.CREATE)
    cursor.execute("TRUNCATE bench_floor")
    env.spawn(
        os.path.join(os.path.dirname(sys.executable), "dramatiq"),
        "bench.floor",
        "--processes",
        str(processes),
        "--threads",
        str(threads),
        "--queues",
        env.prefix + "floor",
        log_name="floor",
    )
    floor.broker.declare_queue(floor.QUEUE)
    time.sleep(3.0)  # worker processes boot and start consuming
    cursor.execute("INSERT INTO bench_floor (id) SELECT generate_series(1, %s)", (n,))
    with around_chains():
        cursor.execute("UPDATE bench_floor SET started_at = clock_timestamp()")
        for chain_id in range(1, n + 1):
            floor.floor_hop.send(chain_id, hops - 1)
        while True:
            cursor.execute("SELECT count(*) FROM bench_floor WHERE finished_at IS NOT NULL")
            if cursor.fetchone()[0] >= n:
                break
            time.sleep(0.05)
    cursor.execute(
        "SELECT extract(epoch FROM max(finished_at) - min(started_at)), "
        "array_agg(extract(epoch FROM finished_at - started_at)) FROM bench_floor"
    )
    wall, latencies = cursor.fetchone()
    connection.close()
    env.stop()
    latencies = [float(value) for value in latencies]
    return {
        "wall": float(wall),
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "layout": f"{processes} processes x {threads} threads",
    }
