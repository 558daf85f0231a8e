"""What each dramatiq worker process runs beside its actors (added by ``rabbitmq/worker.py``):
the watch on its parents, and the outbox sweeper with the last "published" marks at shutdown."""

from dramatiq.middleware import Middleware


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

    def after_worker_shutdown(self, broker, worker):
        # The worker's threads are stopped: nothing publishes any more. A dramatiq worker process
        # ends with os._exit (multiprocessing's fork start, dramatiq's default), so atexit never
        # writes the last marks; without this the sweeper would send that last half second's
        # messages again after a restart.
        from rabbitmq import published_marks

        published_marks.flush()
