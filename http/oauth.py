"""POST /oauth2/token: OAuth 2.0 client credentials (RFC 6749 §4.4) issuing signed JWTs.

An unknown, revoked or disabled client id and a wrong secret get the same answer in about the same
time: the unknown case checks the secret against a dummy hash (the same scrypt cost), so neither
the body nor the timing tells which client ids exist."""

from __future__ import annotations

from typing import ClassVar

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc6749.authenticate_client import authenticate_client_secret_basic
from flask import Blueprint, Flask
from werkzeug.routing import Rule

from models import runtime
from models.services.partners.accounts import (
    find_active_credential,
    record_credential_use,
    secret_matches,
    spend_secret_check,
)
from models.services.partners.tokens import issue_token

from .blueprint import RETRY_AFTER_HEADER, TOO_LARGE, UNAVAILABLE

blp = Blueprint("oauth", __name__)
# The request guard's 413 uses the service's error body (schemas.errors.ErrorSchema), here too.
ERROR_SCHEMA = "#/components/schemas/Error"
# The client_id column's length: a longer id names no credential (and is never looked up).
CLIENT_ID_MAX = 100
server = AuthorizationServer()


class CredentialClient(ClientMixin):
    """authlib's view of a partner credential (as ``find_active_credential`` returns it)."""

    def __init__(self, credential) -> None:
        self.credential = credential
        self.client_id = credential.client_id

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        return ""

    def check_redirect_uri(self, redirect_uri):
        return False

    def check_client_secret(self, client_secret):
        return secret_matches(client_secret, self.credential.secret_hash)

    def check_endpoint_auth_method(self, method, endpoint):
        return endpoint == "token" and method in ("client_secret_basic", "client_secret_post")

    def check_response_type(self, response_type):
        return False

    def check_grant_type(self, grant_type):
        return grant_type == "client_credentials"


class UnknownClient(CredentialClient):
    """Stands for a client id with no usable credential: its secret check costs what a real one does
    and always fails, so authlib answers exactly as for a wrong secret."""

    def __init__(self, client_id: str) -> None:
        self.credential = None
        self.client_id = client_id

    def check_client_secret(self, client_secret):
        return spend_secret_check(client_secret)

    def check_grant_type(self, grant_type):
        return False


class ClientCredentialsGrant(grants.ClientCredentialsGrant):
    TOKEN_ENDPOINT_AUTH_METHODS: ClassVar[list[str]] = ["client_secret_basic", "client_secret_post"]


def _client_secret_basic(query_client, request):
    """authlib's HTTP Basic client authentication, with credentials that do not decode (not ASCII,
    not base64, not UTF-8) taken as no credentials: authlib raises a ValueError on them (a 500)."""
    try:
        return authenticate_client_secret_basic(query_client, request)
    except ValueError:  # UnicodeDecodeError included
        return None


def _query_client(client_id: str):
    # An id longer than the column or with control characters names no credential (PostgreSQL
    # refuses NUL in a query): it is answered as any unknown id.
    usable = len(client_id) <= CLIENT_ID_MAX and client_id.isprintable()
    credential = find_active_credential(client_id) if usable else None
    # An instance serves one environment: the other environment's credentials do not exist here.
    if credential is None or credential.environment != runtime.current().settings.credential_environment:
        return UnknownClient(client_id)
    return CredentialClient(credential)


def _save_token(token: dict, request) -> None:
    record_credential_use(request.client.credential.id)


def _generate_token(grant_type, client, user=None, scope=None, expires_in=None, include_refresh_token=True):
    credential = client.credential
    return issue_token(
        runtime.current().settings,
        origin=credential.partner.code,
        client_id=client.client_id,
        credential_id=credential.id,
        generation=credential.partner.token_generation,
    )


OAUTH_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {"type": "string", "example": "invalid_client"},
        "error_description": {"type": "string"},
    },
}


def _oauth_error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": OAUTH_ERROR}}}


TOKEN_OPERATION = {
    "post": {
        "operationId": "issue_access_token",
        "tags": ["auth"],
        "summary": "Issue an access token (OAuth 2.0 client credentials)",
        "security": [],
        "servers": [{"url": "/", "description": "the auth address (service root in the embedded default)"}],
        "requestBody": {
            "required": True,
            "content": {
                "application/x-www-form-urlencoded": {
                    "schema": {
                        "type": "object",
                        "required": ["grant_type", "client_id", "client_secret"],
                        "properties": {
                            "grant_type": {"type": "string", "enum": ["client_credentials"]},
                            "client_id": {"type": "string"},
                            "client_secret": {"type": "string"},
                        },
                    }
                }
            },
            "description": "client_id/client_secret in the form, or as HTTP Basic credentials",
        },
        "responses": {
            "200": {
                "description": "token issued",
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["access_token", "expires_in", "token_type"],
                            "properties": {
                                "access_token": {"type": "string", "description": "JWT"},
                                "expires_in": {"type": "integer", "example": 3600},
                                "token_type": {"type": "string", "example": "Bearer"},
                            },
                        }
                    }
                },
            },
            "400": _oauth_error("RFC 6749 error body (invalid_request, unsupported_grant_type)"),
            "401": _oauth_error("RFC 6749 error body (invalid_client)"),
            "413": {"description": TOO_LARGE, "content": {"application/json": {"schema": {"$ref": ERROR_SCHEMA}}}},
            # The credential lookup needs the database: away, the answer is the service's 503.
            "503": {
                "description": UNAVAILABLE,
                "headers": RETRY_AFTER_HEADER,
                "content": {"application/json": {"schema": {"$ref": ERROR_SCHEMA}}},
            },
        },
    }
}


def document(api) -> None:
    """Describe the token route in the OpenAPI document (it lives outside the versioned API)."""
    api.spec.path(rule=Rule("/oauth2/token"), operations=TOKEN_OPERATION)


def install(app: Flask) -> None:
    server.init_app(app, query_client=_query_client, save_token=_save_token)
    server.register_client_auth_method("client_secret_basic", _client_secret_basic)
    server.register_grant(ClientCredentialsGrant)
    server.register_token_generator("client_credentials", _generate_token)
    app.register_blueprint(blp)
    spend_secret_check("")  # makes the dummy hash now: the first unknown id is not slower than the next


@blp.route("/oauth2/token", methods=["POST"])
def issue_access_token():
    response = server.create_token_response()
    # RFC 6749 §5.2 lets invalid_client be 400 or 401; answer 401 always, as for a bad bearer token.
    if response.status_code == 400 and (response.get_json(silent=True) or {}).get("error") == "invalid_client":
        response.status_code = 401
        response.headers["WWW-Authenticate"] = 'Basic realm="oauth2"'
    return response
