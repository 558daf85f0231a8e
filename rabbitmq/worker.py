"""Worker entry point for the dramatiq CLI: `dramatiq rabbitmq.worker --queues ...`.

Bootstraps settings, database and broker before the actors are imported, and runs an outbox
sweeper in every worker process (several sweepers are safe: rows are claimed with SKIP LOCKED).
Without AMQP_URL it refuses to start (a worker on an in-memory broker would consume nothing).
Each worker process dies with its dramatiq main and its pool supervisor (rabbitmq/parent_watch.py).
"""

import dramatiq

from app import bootstrap

bootstrap(role="worker")

from rabbitmq.worker_middleware import OutboxSweeperMiddleware, ParentWatchMiddleware  # noqa: E402

dramatiq.get_broker().add_middleware(ParentWatchMiddleware())
dramatiq.get_broker().add_middleware(OutboxSweeperMiddleware())
