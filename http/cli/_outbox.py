"""Ops commands queue work from their own short-lived process."""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import contextmanager

from models import runtime
from models.services.platform import unit_of_work


@contextmanager
def leave_for_sweeper():
    """With the in-process broker a CLI process has no worker: publishing there would lose the
    message when the command exits. Leave the outbox rows for the running service's sweeper.
    With RabbitMQ, publish at once as everywhere else."""
    if runtime.current().settings.uses_rabbitmq:
        yield
        return
    previous = unit_of_work.swap_after_commit_publisher(None)
    try:
        yield
    finally:
        unit_of_work.swap_after_commit_publisher(previous)


def leaving_for_sweeper(callback: Callable) -> Callable:
    """``callback`` run inside :func:`leave_for_sweeper` (every ops command is: commands.install)."""

    @functools.wraps(callback)
    def run(*args, **kwargs):
        with leave_for_sweeper():
            return callback(*args, **kwargs)

    return run
