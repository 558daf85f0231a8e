"""`partners create|list|show|update|rotate-secret|disable|enable`: manage origins and their
credentials. A rotation or a disable applies to the partner's next request (its tokens answer 401)."""

from __future__ import annotations

import json

import click
from flask.cli import AppGroup

from models import runtime
from models.services.partners import accounts as service

group = AppGroup("partners", help="Manage partners (origins) and their credentials.")


def _load(code: str):
    partner = service.find_partner(code)
    if partner is None:
        raise click.ClickException(f"no partner with code {code}")
    return partner


def _describe(partner, *, with_secret: bool = False) -> dict:
    credentials = [
        {
            "client_id": c.client_id,
            "environment": c.environment,
            "created_at": c.created_at.isoformat(),
            "revoked": c.revoked_at is not None,
        }
        for c in service.credentials_of(partner)
    ]
    body = {
        "code": partner.code,
        "name": partner.name,
        "enabled": partner.enabled,
        "insurance_enabled": partner.insurance_enabled,
        "recontracting_enabled": partner.recontracting_enabled,
        "webhook_url": partner.webhook_url,
        "webhook_auth_mode": partner.webhook_auth_mode,
        "webhook_auth_header": partner.webhook_auth_header,
        "webhook_auth_value_set": bool(partner.webhook_auth_value),
        "auction_url": partner.auction_url,
        "auction_api_key_set": bool(partner.auction_api_key),
        "technical_contact": partner.technical_contact,
        "credentials": credentials,
    }
    if with_secret:
        body["webhook_signing_secret"] = partner.webhook_signing_secret
    return body


def _echo_new_secret(code: str, credential) -> None:
    """A client secret is shown once, when it is made (create, rotate-secret)."""
    _echo(
        {
            "code": code,
            "client_id": credential.client_id,
            "client_secret": credential.client_secret,
            "environment": credential.environment,
            "note": "store the secret now; it is not shown again",
        }
    )


def _echo(data) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


def _environment_option():
    return click.option(
        "--environment",
        type=click.Choice(["staging", "production"]),
        default=None,
        help="Credential environment (default: this instance's).",
    )


@group.command("create")
@click.argument("code")
@click.option("--name", required=True)
@_environment_option()
@click.option("--insurance/--no-insurance", default=False)
@click.option("--recontracting/--no-recontracting", default=False)
def create(code, name, environment, insurance, recontracting):
    """Create a partner and print its first credential (the secret is shown only now)."""
    if service.find_partner(code) is not None:
        raise click.ClickException(f"partner {code} already exists")
    _, credential = service.create_partner(
        code,
        name,
        environment or runtime.current().settings.credential_environment,
        insurance_enabled=insurance,
        recontracting_enabled=recontracting,
    )
    _echo_new_secret(code, credential)


@group.command("list")
def list_partners():
    """One line per partner."""
    for partner in service.all_partners():
        click.echo(
            f"{partner.code}\t{partner.name}\t{'enabled' if partner.enabled else 'DISABLED'}"
            f"\tinsurance={'on' if partner.insurance_enabled else 'off'}"
            f"\trecontracting={'on' if partner.recontracting_enabled else 'off'}"
            f"\twebhook={partner.webhook_url or '-'}\tauction={partner.auction_url or '-'}"
        )


@group.command("show")
@click.argument("code")
def show(code):
    """A partner's settings, credentials and its webhook signing secret."""
    _echo(_describe(_load(code), with_secret=True))


@group.command("update")
@click.argument("code")
@click.option("--name")
@click.option("--insurance/--no-insurance", default=None)
@click.option("--recontracting/--no-recontracting", default=None)
@click.option("--webhook-url")
@click.option("--webhook-auth", type=click.Choice(service.WEBHOOK_AUTH_MODES))
@click.option("--webhook-auth-header", help="Header name for --webhook-auth api_key (e.g. x-api-key).")
@click.option("--webhook-auth-value", help="API key or bearer token sent to the partner.")
@click.option("--auction-url")
@click.option("--auction-api-key")
@click.option("--technical-contact")
def update(
    code,
    name,
    insurance,
    recontracting,
    webhook_url,
    webhook_auth,
    webhook_auth_header,
    webhook_auth_value,
    auction_url,
    auction_api_key,
    technical_contact,
):
    """Change settings; they apply to the next request or delivery without a restart."""
    from models.services.webhooks.urls import validate_partner_url

    changes = {
        "name": name,
        "insurance_enabled": insurance,
        "recontracting_enabled": recontracting,
        "webhook_url": webhook_url,
        "webhook_auth_mode": webhook_auth,
        "webhook_auth_header": webhook_auth_header,
        "webhook_auth_value": webhook_auth_value,
        "auction_url": auction_url,
        "auction_api_key": auction_api_key,
        "technical_contact": technical_contact,
    }
    changes = {k: v for k, v in changes.items() if v is not None}
    for field in ("webhook_url", "auction_url"):
        if changes.get(field):
            problem = validate_partner_url(changes[field], environment=runtime.current().settings.environment)
            if problem:
                raise click.ClickException(f"{field}: {problem}")
        elif field in changes:
            changes[field] = None  # an empty value removes the URL
    if changes.get("webhook_auth_mode") == "api_key" and not (
        changes.get("webhook_auth_header") or _load(code).webhook_auth_header
    ):
        changes["webhook_auth_header"] = "x-api-key"
    try:
        partner = service.update_partner(_load(code), **changes)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    _echo(_describe(partner))


@group.command("rotate-secret")
@click.argument("code")
@_environment_option()
@click.option("--webhook-signing", is_flag=True, help="Rotate the webhook signing secret instead.")
def rotate_secret(code, environment, webhook_signing):
    """Revoke the current client secret and print a new one (shown only now)."""
    partner = _load(code)
    if webhook_signing:
        service.update_partner(partner, webhook_signing_secret=service.new_signing_secret())
        _echo({"code": code, "webhook_signing_secret": partner.webhook_signing_secret})
        return
    credential = service.rotate_secret(partner, environment or runtime.current().settings.credential_environment)
    _echo_new_secret(code, credential)


@group.command("disable")
@click.argument("code")
def disable(code):
    """Stop a partner: no new token, and its tokens answer 401 from its next request on."""
    _echo(_describe(service.set_enabled(_load(code), False)))


@group.command("enable")
@click.argument("code")
def enable(code):
    """Let a disabled partner obtain tokens again (tokens issued before the disable stay invalid)."""
    _echo(_describe(service.set_enabled(_load(code), True)))
