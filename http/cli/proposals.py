"""`proposals stuck|reconcile`: the money path's stalled steps, and forcing them on now."""

from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from models import runtime
from models.services.money_path import reads, redrive

from ._outbox import leave_for_sweeper

group = AppGroup("proposals", help="Proposals on the money path: what is stuck, and re-driving it.")


@group.command("stuck")
@click.option("--limit", default=100, show_default=True)
def stuck(limit):
    """One JSON line per proposal past its expected time: step, attempts, next attempt, last error."""
    rule = redrive.policy(runtime.current().settings.money_path)
    for row in reads.stuck_steps(rule, limit=limit):
        click.echo(
            json.dumps(
                {
                    "proposal_id": row.proposal_id,
                    "contract_id": row.contract_id,
                    "step": row.step,
                    "step_since": row.step_since.isoformat(),
                    "due_at": row.due_at.isoformat(),
                    "attempts": row.attempts,
                    "next_attempt_at": redrive.next_attempt(row, rule).isoformat(),
                    "last_error": row.last_error,
                }
            )
        )


@group.command("reconcile")
@click.argument("proposal_ids", nargs=-1)
@click.option("--all", "every", is_flag=True, help="Every proposal with an open money-path step.")
@click.option("--limit", default=1000, show_default=True, help="At most this many with --all.")
def reconcile(proposal_ids, every, limit):
    """Send each proposal's step again now (idempotent: a step already done changes nothing)."""
    if bool(proposal_ids) == every:
        raise click.UsageError("give PROPOSAL_ID... or --all")
    settings = runtime.current().settings.money_path
    ids = reads.open_proposal_ids(limit) if every else list(proposal_ids)
    for proposal_id in ids:
        with leave_for_sweeper():
            step = redrive.redrive(proposal_id, money_path_settings=settings, forced=True)
        click.echo(json.dumps({"proposal_id": proposal_id, "redriven": step.value if step else None}))
