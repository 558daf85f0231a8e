"""Worker middleware: one start and one finish log line per message, and the actor metrics.

While an actor runs, its name, queue and proposal id are bound to the log context, so every line
the service code logs from inside it carries them (and the request id, see RequestIdPropagation).
"""

from __future__ import annotations

import logging
import re
import threading
import time

import dramatiq
from dramatiq.middleware import Middleware

from models.services.platform import logs, metrics

log = logging.getLogger("actor")

_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def proposal_id_of(message: dramatiq.Message) -> str | None:
    """The proposal a message is about: ``proposal_id`` keyword or option, else a UUID first argument.

    Actors receive ids (team rule), proposal-scoped ones the proposal id first.
    """
    for source in (message.kwargs or {}, message.options):
        value = source.get("proposal_id")
        if value:
            return str(value)
    if message.args and isinstance(message.args[0], str) and _UUID.match(message.args[0]):
        return message.args[0]
    return None


def _outcome(exception: BaseException | None) -> str:
    """``ok``; ``retry`` when the actor itself asked to run again later (``dramatiq.Retry``: a status
    webhook's next attempt on its schedule, or a run that came before its attempt was due), which
    is not a fault; ``error`` for anything else raised."""
    if exception is None:
        return "ok"
    return "retry" if isinstance(exception, dramatiq.Retry) else "error"


class ActorObservability(Middleware):
    """Logs ``actor start``/``actor finish`` with actor, queue, duration and proposal id; counts them."""

    def __init__(self) -> None:
        self._state: dict[str, tuple[float, object]] = {}
        self._lock = threading.Lock()

    def before_process_message(self, broker, message) -> None:
        token = logs.bind_fields(
            actor=message.actor_name, queue=message.queue_name, proposal_id=proposal_id_of(message)
        )
        with self._lock:
            self._state[message.message_id] = (time.perf_counter(), token)
        metrics.actor_in_progress.labels(message.actor_name, message.queue_name).inc()
        log.info("actor start %s", message.actor_name, extra={"retries": message.options.get("retries", 0)})

    def after_process_message(self, broker, message, *, result=None, exception=None) -> None:
        self._finish(message, _outcome(exception), exception)

    def after_skip_message(self, broker, message) -> None:
        self._finish(message, "skipped", None)

    def _finish(self, message, outcome: str, exception) -> None:
        with self._lock:
            started, token = self._state.pop(message.message_id, (None, None))
        labels = (message.actor_name, message.queue_name)
        duration = time.perf_counter() - started if started is not None else 0.0
        metrics.actor_in_progress.labels(*labels).dec()
        metrics.actor_messages.labels(*labels, outcome).inc()
        metrics.actor_duration.labels(*labels).observe(duration)
        extra = {"duration_ms": round(duration * 1000, 2), "outcome": outcome}
        if exception is None:
            log.info("actor finish %s", message.actor_name, extra=extra)
        elif outcome == "retry":  # planned: the actor asked to run again later (dramatiq logs no error either)
            log.info("actor finish %s: runs again later: %s", message.actor_name, exception, extra=extra)
        else:  # the type and (redacted) text; dramatiq logs the traceback itself
            log.warning(
                "actor finish %s failed: %s: %s",
                message.actor_name,
                exception.__class__.__name__,
                exception,
                extra=extra,
            )
        if token is not None:
            try:
                logs.unbind_fields(token)
            except ValueError:  # bound in another context: nothing to undo here
                pass

    def after_enqueue(self, broker, message, delay) -> None:
        if message.options.get("retries"):  # the Retries middleware re-enqueues with a count
            metrics.actor_retries.labels(message.actor_name, message.queue_name).inc()

    def after_worker_shutdown(self, broker, worker) -> None:
        import os

        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # its live gauges stop counting
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(os.getpid())

    def after_nack(self, broker, message) -> None:
        metrics.actor_dead_lettered.labels(message.actor_name, message.queue_name).inc()
