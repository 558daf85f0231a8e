"""POST /oauth2/token and the bearer check on /v1 routes."""

import base64
import json

import pytest
from freezegun import freeze_time

from tests.e2e.conftest import basic_auth

TOKEN_URL = "/oauth2/token"
GOOD = {"grant_type": "client_credentials", "client_id": "sandbox-partner-a", "client_secret": "sandbox-secret-a"}
# A versioned route that exists for every partner (404 for a proposal nobody has).
PROBE = "/v1/openapi-probe-does-not-exist"


def test_token_with_form_credentials(client):
    response = client.post(TOKEN_URL, data=GOOD)
    assert response.status_code == 200
    body = response.get_json()
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert body["access_token"].count(".") == 2


def test_token_with_http_basic_credentials(client):
    response = client.post(
        TOKEN_URL,
        data={"grant_type": "client_credentials"},
        headers=basic_auth("sandbox-partner-b", "sandbox-secret-b"),
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    "change, status, error",
    [
        ({"client_secret": "wrong"}, 401, "invalid_client"),
        ({"client_id": "nobody"}, 401, "invalid_client"),
        ({"grant_type": "password"}, 400, "unsupported_grant_type"),
        ({"grant_type": None}, 400, "unsupported_grant_type"),
        ({"client_secret": None}, 401, "invalid_client"),
    ],
)
def test_token_failures_use_rfc6749_bodies(client, change, status, error):
    data = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    response = client.post(TOKEN_URL, data=data)
    assert response.status_code == status
    assert response.get_json()["error"] == error


def test_production_credentials_are_refused_by_a_staging_instance(client):
    from models.db.partners import Partner
    from models.services.partners.accounts import add_credential

    issued = add_credential(Partner.get(Partner.code == "PARTNER_A"), "production")
    response = client.post(
        TOKEN_URL,
        data={"grant_type": "client_credentials", "client_id": issued.client_id, "client_secret": issued.client_secret},
    )
    assert response.status_code == 401 and response.get_json()["error"] == "invalid_client"


def test_secrets_are_stored_hashed():
    from models.db.partners import PartnerCredential

    for credential in PartnerCredential.select():
        assert "sandbox-secret" not in credential.secret_hash
        assert credential.secret_hash.startswith("scrypt$")


def _token(client) -> str:
    return client.post(TOKEN_URL, data=GOOD).get_json()["access_token"]


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def _assert_401(response):
    assert response.status_code == 401
    body = response.get_json()
    assert body["statusCode"] == 401 and body["error"] == "Unauthorized" and body["message"]


def test_valid_token_passes_the_bearer_check(client):
    response = client.get(PROBE, headers={"Authorization": f"Bearer {_token(client)}"})
    assert response.status_code == 404  # authenticated, then the route is unknown


def test_missing_token(client):
    _assert_401(client.get(PROBE))


@pytest.mark.parametrize("header", ["Bearer", "Bearer ", "Basic abc", "Token xyz", "Bearer not-a-jwt"])
def test_malformed_authorization(client, header):
    _assert_401(client.get(PROBE, headers={"Authorization": header}))


def test_expired_token(client):
    # A token issued at 10:00 expires at 11:00 (exp is the first instant it is refused); 30 s of
    # clock skew between hosts are tolerated
    with freeze_time("2026-11-21T10:00:00Z"):
        token = _token(client)
    with freeze_time("2026-11-21T11:00:29Z"):
        assert client.get(PROBE, headers={"Authorization": f"Bearer {token}"}).status_code == 404
    with freeze_time("2026-11-21T11:00:30Z"):
        _assert_401(client.get(PROBE, headers={"Authorization": f"Bearer {token}"}))


def test_a_token_from_a_host_whose_clock_runs_ahead(client):
    # The issuing host is up to 30 s ahead of this one: its token is not yet valid here (nbf, iat)
    with freeze_time("2026-11-21T10:00:30Z"):
        token = _token(client)
    with freeze_time("2026-11-21T10:00:00Z"):
        assert client.get(PROBE, headers={"Authorization": f"Bearer {token}"}).status_code == 404
    with freeze_time("2026-11-21T10:00:31Z"):
        ahead = _token(client)
    with freeze_time("2026-11-21T10:00:00Z"):
        _assert_401(client.get(PROBE, headers={"Authorization": f"Bearer {ahead}"}))


def test_wrongly_signed_token(client):
    header, payload, signature = _token(client).split(".")
    forged = ".".join([header, payload, signature[:-4] + ("AAAA" if not signature.endswith("AAAA") else "BBBB")])
    _assert_401(client.get(PROBE, headers={"Authorization": f"Bearer {forged}"}))


def test_token_signed_with_another_key(client):
    from joserfc import jwt
    from joserfc.jwk import OctKey

    claims = json.loads(base64.urlsafe_b64decode(_token(client).split(".")[1] + "=="))
    forged = jwt.encode({"alg": "HS256"}, claims, OctKey.import_key("another-key-0123456789abcdef0123"))
    _assert_401(client.get(PROBE, headers={"Authorization": f"Bearer {forged}"}))


def test_alg_none_token(client):
    claims = json.loads(base64.urlsafe_b64decode(_token(client).split(".")[1] + "=="))
    unsigned = f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}."
    _assert_401(client.get(PROBE, headers={"Authorization": f"Bearer {unsigned}"}))


def test_token_of_other_environment_is_refused(client, app):
    from models.db.partners import PartnerCredential
    from models.services.partners.tokens import issue_token
    from models.settings import load_settings

    production = load_settings("test", overrides={"credential_environment": "production"})
    credential = PartnerCredential.get(PartnerCredential.client_id == "sandbox-partner-a")
    token = issue_token(
        production, origin="PARTNER_A", client_id="sandbox-partner-a", credential_id=credential.id, generation=0
    )["access_token"]
    _assert_401(client.get(PROBE, headers={"Authorization": f"Bearer {token}"}))


def test_docs_and_openapi_are_public(client):
    assert client.get("/v1/openapi.json").status_code == 200
    page = client.get("/v1/docs/")
    assert page.status_code == 200 and b"swagger-ui" in page.data
    assert b"cdn" not in page.data.lower()
    assert client.get("/v1/docs/assets/swagger-ui-bundle.js").status_code == 200


def test_openapi_declares_bearer_security_and_error_schema(client):
    spec = client.get("/v1/openapi.json").get_json()
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    assert spec["security"] == [{"bearerAuth": []}]
    assert "Error" in spec["components"]["schemas"]


def test_openapi_documents_the_token_route_without_bearer(client):
    spec = client.get("/v1/openapi.json").get_json()
    operation = spec["paths"]["/oauth2/token"]["post"]
    assert operation["security"] == []
    assert "application/x-www-form-urlencoded" in operation["requestBody"]["content"]
