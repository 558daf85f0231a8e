"""Worker entry point for the dramatiq CLI: `dramatiq rabbitmq.worker --queues ...`.

Bootstraps settings, database and broker before the actors are imported, and runs an outbox
sweeper in every worker process (several sweepers are safe: rows are claimed with SKIP LOCKED).
Without AMQP_URL it refuses to start (a worker on an in-memory broker would consume nothing).
Each worker process dies with its dramatiq main and its pool supervisor (rabbitmq/parent_watch.py).
"""

import dramatiq
from dramatiq.middleware import Middleware

from app import bootstrap

bootstrap(role="worker")


class ParentWatchMiddleware(Middleware):
    def after_process_boot(self, broker):
        from rabbitmq.parent_watch import watch_parents

        self.watch = watch_parents()

    def before_worker_shutdown(self, broker, worker):
        watch = getattr(self, "watch", None)
        if watch is not None:
            watch.stop()


class OutboxSweeperMiddleware(Middleware):
    def after_worker_boot(self, broker, worker):
        from rabbitmq.outbox_relay import OutboxSweeper

        self.sweeper = OutboxSweeper()
        self.sweeper.start()

    def before_worker_shutdown(self, broker, worker):
        sweeper = getattr(self, "sweeper", None)
        if sweeper is not None:
            sweeper.stop()


dramatiq.get_broker().add_middleware(ParentWatchMiddleware())
dramatiq.get_broker().add_middleware(OutboxSweeperMiddleware())
