"""`outbox parked|requeue`: rows the outbox relay could not publish (unknown actor, bad arguments)."""

from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from models.services.platform import outbox

group = AppGroup("outbox", help="Outbox rows the relay parked; requeue them once the cause is fixed.")


@group.command("parked")
@click.option("--limit", default=100, show_default=True)
def parked(limit):
    """One JSON line per parked row: id, actor, arguments, error and when it was parked."""
    for row in outbox.parked(limit):
        click.echo(
            json.dumps(
                {
                    "id": row.id,
                    "actor": row.actor_name,
                    "args": row.args,
                    "kwargs": row.kwargs,
                    "error": row.last_error,
                    "parked_at": row.parked_at.isoformat(),
                    "created_at": row.created_at.isoformat(),
                    "request_id": row.request_id,
                }
            )
        )


@group.command("requeue")
@click.argument("message_ids", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Requeue every parked row.")
def requeue(message_ids, every):
    """Hand parked rows back to the relay (after deploying the missing actor, for instance)."""
    if bool(message_ids) == every:
        raise click.UsageError("give MESSAGE_ID... or --all")
    count = outbox.requeue(None if every else list(message_ids))
    click.echo(f"requeued {count} row(s)")
