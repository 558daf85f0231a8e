"""`partners create|list|show|update|rotate-secret` as ops run them."""

import json

import pytest

from models.db.partners import Partner


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()

    def run(*args):
        result = runner.invoke(args=["partners", *args])
        return result

    return run


def _json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_create_prints_the_secret_once_and_stores_a_hash(cli, client):
    created = _json(cli("create", "PARTNER_C", "--name", "Partner C", "--insurance"))
    assert created["client_secret"] and created["environment"] == "staging"
    shown = _json(cli("show", "PARTNER_C"))
    assert created["client_secret"] not in json.dumps(shown)
    token = client.post(
        "/oauth2/token",
        data={
            "grant_type": "client_credentials",
            "client_id": created["client_id"],
            "client_secret": created["client_secret"],
        },
    )
    assert token.status_code == 200


def test_create_refuses_a_duplicate_code(cli):
    result = cli("create", "PARTNER_A", "--name", "Again")
    assert result.exit_code != 0 and "already exists" in result.output


def test_list_shows_every_partner(cli):
    result = cli("list")
    assert result.exit_code == 0
    assert "PARTNER_A" in result.output and "PARTNER_B" in result.output


def test_update_applies_without_restart(cli):
    shown = _json(cli("update", "PARTNER_A", "--webhook-url", "http://127.0.0.1:9100/hook", "--webhook-auth", "none"))
    assert shown["webhook_url"] == "http://127.0.0.1:9100/hook"
    assert Partner.get(Partner.code == "PARTNER_A").webhook_url == "http://127.0.0.1:9100/hook"


def test_update_api_key_mode_defaults_the_header(cli):
    shown = _json(cli("update", "PARTNER_B", "--webhook-auth", "api_key", "--webhook-auth-value", "k-123"))
    assert shown["webhook_auth_mode"] == "api_key" and shown["webhook_auth_header"] == "x-api-key"
    assert "k-123" not in json.dumps(shown)


def test_update_unknown_partner(cli):
    result = cli("update", "NOPE", "--name", "x")
    assert result.exit_code != 0 and "no partner" in result.output


def test_rotate_secret_revokes_the_old_one(cli, client):
    rotated = _json(cli("rotate-secret", "PARTNER_B"))
    old = client.post(
        "/oauth2/token",
        data={
            "grant_type": "client_credentials",
            "client_id": "sandbox-partner-b",
            "client_secret": "sandbox-secret-b",
        },
    )
    assert old.status_code == 401
    new = client.post(
        "/oauth2/token",
        data={
            "grant_type": "client_credentials",
            "client_id": rotated["client_id"],
            "client_secret": rotated["client_secret"],
        },
    )
    assert new.status_code == 200


def test_rotate_webhook_signing_secret(cli):
    before = Partner.get(Partner.code == "PARTNER_A").webhook_signing_secret
    rotated = _json(cli("rotate-secret", "PARTNER_A", "--webhook-signing"))
    assert rotated["webhook_signing_secret"] != before
    assert Partner.get(Partner.code == "PARTNER_A").webhook_signing_secret == rotated["webhook_signing_secret"]
