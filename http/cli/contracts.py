"""`contracts withdraw <proposal_id>`: the customer's withdrawal after disbursement (ops)."""

from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from models.domain.errors import DomainError
from models.services.contract.cancellation import withdraw_proposal

group = AppGroup("contracts", help="Operate contracts after disbursement.")


@group.command("withdraw")
@click.argument("proposal_id")
@click.option("--reason", default="customer exercised the withdrawal right", help="Recorded in the history.")
def withdraw_command(proposal_id, reason):
    """Move a DISBURSED proposal to CANCELLED_BY_USER (never possible through the cancel route)."""
    try:
        contract = withdraw_proposal(proposal_id, reason=reason)
    except DomainError as error:
        raise click.ClickException(error.message) from error
    click.echo(json.dumps({"proposal_id": proposal_id, "status": "CANCELLED_BY_USER", "contract_id": contract.id}))
