"""Cost of the outbox's after-commit publish, in one process, on PostgreSQL and RabbitMQ:

    .venv/bin/python -m bench.outbox_costs [--units 2000] [--messages 2]

Runs ``--units`` transactions (``unit_of_work``), each writing ``--messages`` outbox rows for a
declared actor that no worker consumes (its queue is deleted at the end), and prints the SQL
statements and the CPU milliseconds of this process per transaction, the publish included. Uses a
throw-away database and queue prefix (BENCH_POSTGRES_URL, BENCH_AMQP_URL). Not a test.
"""

from __future__ import annotations

import argparse
import os
import time

from bench.statement_count import counting_statements


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", type=int, default=2000)
    parser.add_argument("--messages", type=int, default=2)
    args = parser.parse_args()
    from bench.services import BenchEnvironment

    with BenchEnvironment(tag="outbox") as env:
        for key in ("APP_ENV", "DATABASE_URL", "AMQP_URL", "QUEUE_PREFIX", "LOG_LEVEL"):
            os.environ[key] = env.env[key]
        measure(args.units, args.messages)


def measure(units: int, messages: int) -> None:
    from app import bootstrap

    bootstrap(role="worker")
    import dramatiq

    from models.db.database import db
    from models.services.platform.actor_names import ActorName
    from models.services.platform.unit_of_work import enqueue, unit_of_work

    # A real actor name (the relay checks it is declared); nothing consumes the bench prefix's queue.
    actor = ActorName.DELIVER_STATUS_CHANGE
    with db.connection_context():
        for warmup in range(20):
            with unit_of_work():
                for _ in range(messages):
                    enqueue(actor, warmup)
        with counting_statements() as counter:
            cpu, wall = time.process_time(), time.perf_counter()
            for unit in range(units):
                with unit_of_work():
                    for _ in range(messages):
                        enqueue(actor, unit)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    from rabbitmq import published_marks

    published_marks.flush()  # now, not at exit: the bench's database is dropped before that
    dramatiq.get_broker().close()
    print(
        f"outbox: {units} transactions x {messages} messages: {counter.count / units:.1f} statements, "
        f"{cpu * 1000 / units:.2f} ms CPU, {wall * 1000 / units:.2f} ms wall per transaction"
    )


if __name__ == "__main__":
    main()
