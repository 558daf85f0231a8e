"""`auctions inject|poll|list`: auction proposals from the payroll system.

Sandbox: ``make cli ARGS="auctions inject --document 12345678901 --name 'MARIA SILVA' --balance 1500.00
--installments 24"`` publishes one proposal as the payroll system would; every partner with an
auction URL then receives the auction webhook.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import click
from flask.cli import AppGroup

from models import runtime
from models.external.auctions import AuctionSourceError
from models.external.auctions.sandbox import make_offer
from models.services.webhooks.auction_delivery import ingest, recent_auctions
from models.services.webhooks.deliveries import deliveries_of

group = AppGroup("auctions", help="Auction proposals and their delivery to partners.")


@group.command("inject")
@click.option("--document", required=True, help="CPF, 11 digits.")
@click.option("--name", required=True)
@click.option("--balance", required=True, help="Available balance in reais, e.g. 1500.00.")
@click.option("--installments", required=True, type=int)
@click.option("--external-id", help="Payroll system id (default: generated).")
def inject(document, name, balance, installments, external_id):
    """Sandbox only: publish an auction proposal and queue its deliveries."""
    if runtime.current().settings.external_mode != "sandbox":
        raise click.ClickException("auctions inject is a sandbox command (external_mode is not sandbox)")
    try:
        amount = Decimal(balance)
    except InvalidOperation:
        raise click.ClickException("--balance must be a decimal number such as 1500.00") from None
    auction = ingest(make_offer(document, name, amount, installments, external_id=external_id))
    _report(auction)


@group.command("poll")
def poll():
    """Read new auction proposals from the payroll system now and queue their deliveries."""
    try:
        offers = runtime.current().ports.auction_source.fetch_new()
    except AuctionSourceError as error:
        raise click.ClickException(str(error)) from error
    for offer in offers:
        _report(ingest(offer))
    click.echo(f"{len(offers)} auction proposals read")


@group.command("list")
@click.option("--limit", default=50, show_default=True)
def list_auctions(limit):
    """Most recent auction proposals."""
    for auction in recent_auctions(limit):
        _report(auction)


def _report(auction) -> None:
    deliveries = deliveries_of("auction", auction.id)
    states = ", ".join(f"{d.partner_code}:{d.status}:{d.id}" for d in deliveries) or "no partner with an auction URL"
    click.echo(
        f"{auction.id}\t{auction.document}\t{auction.name}\t{auction.available_balance}"
        f"\t{auction.installment_quantity}\teligible={auction.eligible}\t{states}"
    )
