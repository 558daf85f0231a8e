"""`deliveries list|show|replay|counts`: the webhook delivery log and manual resends."""

from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from models.services.webhooks import deliveries as service
from models.services.webhooks.delivery_replay import ReplayRefused, replay, replay_failed

group = AppGroup("deliveries", help="Webhook deliveries (status and auction): log, failures, replay.")


def _line(d) -> str:
    return (
        f"{d.id}\t{d.kind}\t{d.partner_code}\t{d.status}\tattempts={d.attempts}\treplays={d.replays}"
        f"\tproposal={d.proposal_id}\tseq={d.sequence}\tcreated={d.created_at.isoformat()}"
        f"\terror={d.last_error or '-'}"
    )


@group.command("list")
@click.option("--failed", is_flag=True, help="Only deliveries that exhausted their schedule.")
@click.option("--partner", help="Partner code.")
@click.option("--kind", type=click.Choice(["status", "auction"]))
@click.option("--limit", default=100, show_default=True)
def list_deliveries(failed, partner, kind, limit):
    """One line per delivery, most recent first."""
    for delivery in service.list_deliveries(failed_only=failed, partner=partner, kind=kind, limit=limit):
        click.echo(_line(delivery))


@group.command("show")
@click.argument("delivery_id")
def show(delivery_id):
    """A delivery, its body and every attempt (time, URL, status or error, latency, snippet)."""
    delivery = service.find_delivery(delivery_id)
    if delivery is None:
        raise click.ClickException(f"no delivery {delivery_id}")
    attempts = [
        {
            "number": a.number,
            "at": a.attempted_at.isoformat(),
            "url": a.url,
            "request_id": a.request_id,
            "status_code": a.status_code,
            "error": a.error,
            "latency_ms": a.latency_ms,
            "response_snippet": a.response_snippet,
        }
        for a in service.attempts_of(delivery)
    ]
    click.echo(
        json.dumps(
            {
                "id": delivery.id,
                "kind": delivery.kind,
                "partner": delivery.partner_code,
                "status": delivery.status,
                "idempotency_key": delivery.idempotency_key,
                "sequence": delivery.sequence,
                "payload": delivery.payload,
                "replays": delivery.replays,
                "attempts": attempts,
            },
            indent=2,
            default=str,
        )
    )


@group.command("replay")
@click.argument("delivery_id", required=False)
@click.option("--partner", help="With --all-failed: the partner whose failures to resend.")
@click.option("--all-failed", is_flag=True, help="Resend every FAILED delivery of --partner.")
def replay_command(delivery_id, partner, all_failed):
    """Resend one delivery, or all FAILED ones of a partner (same idempotency key, fresh signature)."""
    if all_failed:
        if not partner or delivery_id:
            raise click.UsageError("use either DELIVERY_ID or --partner X --all-failed")
        replayed = replay_failed(partner)
        for delivery in replayed:
            click.echo(f"replaying {delivery.id} ({delivery.kind})")
        click.echo(f"{len(replayed)} deliveries queued again")
        return
    if not delivery_id:
        raise click.UsageError("give a DELIVERY_ID, or --partner X --all-failed")
    try:
        delivery = replay(delivery_id)
    except ReplayRefused as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"replaying {delivery.id} ({delivery.kind})")


@group.command("counts")
def counts():
    """FAILED deliveries per kind (what the metrics expose as the operator alert counter)."""
    click.echo(json.dumps(service.failed_counts()))
