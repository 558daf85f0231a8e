"""A token stops working on the next request after its credential is rotated or its partner is
disabled, and the token route answers an unknown client id exactly as a wrong secret."""

import base64
import json

import pytest

from tests.e2e.conftest import basic_auth

TOKEN_URL = "/oauth2/token"
PROBE = "/v1/proposals"
B = {"grant_type": "client_credentials", "client_id": "sandbox-partner-b", "client_secret": "sandbox-secret-b"}


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()

    def run(*args):
        result = runner.invoke(args=["partners", *args])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)

    return run


def _token(client, data=B) -> str:
    response = client.post(TOKEN_URL, data=data)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["access_token"]


def _get(client, token):
    return client.get(PROBE, headers={"Authorization": f"Bearer {token}"})


def test_a_rotated_secret_stops_its_tokens_on_the_next_request(client, cli):
    token = _token(client)
    assert _get(client, token).status_code == 200
    rotated = cli("rotate-secret", "PARTNER_B")
    response = _get(client, token)
    assert response.status_code == 401 and response.get_json()["errorCode"] == "UNAUTHORIZED"
    fresh = _token(client, {**B, "client_id": rotated["client_id"], "client_secret": rotated["client_secret"]})
    assert _get(client, fresh).status_code == 200


def test_a_disabled_partner_gets_no_token_and_its_tokens_stop(client, cli):
    token = _token(client)
    shown = cli("disable", "PARTNER_B")
    assert shown["enabled"] is False
    assert _get(client, token).status_code == 401
    refused = client.post(TOKEN_URL, data=B)
    unknown = client.post(TOKEN_URL, data={**B, "client_id": "nobody"})
    assert (refused.status_code, refused.get_json()) == (unknown.status_code, unknown.get_json())


def test_enabling_again_does_not_revive_tokens_issued_before_the_disable(client, cli):
    before = _token(client)
    cli("disable", "PARTNER_B")
    assert cli("enable", "PARTNER_B")["enabled"] is True
    assert _get(client, before).status_code == 401
    assert _get(client, _token(client)).status_code == 200


def test_the_other_partner_is_not_affected(client, cli, auth):
    cli("disable", "PARTNER_B")
    assert client.get(PROBE, headers=auth("PARTNER_A")).status_code == 200


def test_a_token_that_names_no_credential_is_refused(client, app):
    # A token of the earlier format (no cid/gen claims), correctly signed, is no longer accepted
    from joserfc import jwt
    from joserfc.jwk import OctKey

    from models import runtime

    claims = json.loads(base64.urlsafe_b64decode(_token(client).split(".")[1] + "=="))
    del claims["cid"], claims["gen"]
    key = OctKey.import_key(runtime.current().settings.jwt_signing_key)
    legacy = jwt.encode({"alg": "HS256"}, claims, key)
    assert _get(client, legacy).status_code == 401


@pytest.mark.parametrize("tampered", [{"cid": 999999}, {"origin": "PARTNER_A"}, {"cid": "1"}, {"gen": True}])
def test_a_token_whose_claims_do_not_match_the_credential_is_refused(client, tampered):
    # Re-signed with the service key (as if the key leaked): the credential check still holds
    from joserfc import jwt
    from joserfc.jwk import OctKey

    from models import runtime

    claims = json.loads(base64.urlsafe_b64decode(_token(client).split(".")[1] + "=="))
    key = OctKey.import_key(runtime.current().settings.jwt_signing_key)
    assert _get(client, jwt.encode({"alg": "HS256"}, {**claims, **tampered}, key)).status_code == 401


def _answer(response) -> tuple:
    return response.status_code, response.get_json(), response.headers.get("WWW-Authenticate")


@pytest.mark.parametrize("client_id", ["nobody", "no\x00body", "x" * 5000, "sandbox-partner-a\n"])
def test_an_unknown_id_gets_the_answer_of_a_wrong_secret_in_the_form(client, client_id):
    wrong_secret = client.post(TOKEN_URL, data={**B, "client_secret": "wrong"})
    unknown = client.post(TOKEN_URL, data={**B, "client_id": client_id})
    assert _answer(unknown) == _answer(wrong_secret)
    assert wrong_secret.status_code == 401 and wrong_secret.get_json()["error"] == "invalid_client"


@pytest.mark.parametrize("client_id", ["nobody", "x" * 5000])
def test_an_unknown_id_gets_the_answer_of_a_wrong_secret_with_basic_auth(client, client_id):
    form = {"grant_type": "client_credentials"}
    wrong_secret = client.post(TOKEN_URL, data=form, headers=basic_auth("sandbox-partner-b", "wrong"))
    unknown = client.post(TOKEN_URL, data=form, headers=basic_auth(client_id, "wrong"))
    assert _answer(unknown) == _answer(wrong_secret)
    assert wrong_secret.status_code == 401
