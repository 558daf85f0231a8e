"""Registers every ops command group found in this package on the Flask CLI."""

from __future__ import annotations

import importlib
import pkgutil

import click
from flask import Flask

from ._outbox import leaving_for_sweeper


def install(app: Flask) -> None:
    package = importlib.import_module(__package__)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name == "commands":
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        group = getattr(module, "group", None)
        if group is not None:
            _leave_queued_work_for_sweeper(group)
            app.cli.add_command(group)


def _leave_queued_work_for_sweeper(command: click.Command) -> None:
    """Whatever a command queues survives the command's exit, whichever command it is: without
    RabbitMQ the rows wait for the running service's sweeper (``_outbox.leave_for_sweeper``)."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _leave_queued_work_for_sweeper(sub)
    elif command.callback is not None:
        command.callback = leaving_for_sweeper(command.callback)
