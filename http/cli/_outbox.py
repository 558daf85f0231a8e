"""Helper for ops commands that queue work from their own short-lived process."""

from __future__ import annotations

from contextlib import contextmanager

from models import runtime
from models.services.platform import unit_of_work


@contextmanager
def leave_for_sweeper():
    """With the in-process broker a CLI process has no worker: publishing there would lose the
    message when the command exits. Leave the outbox rows for the running service's sweeper."""
    if runtime.current().settings.uses_rabbitmq:
        yield
        return
    unit_of_work.set_after_commit_publisher(None)
    try:
        yield
    finally:
        from rabbitmq.outbox_relay import relay_due

        unit_of_work.set_after_commit_publisher(lambda ids: relay_due(ids=ids))
