"""Bearer-token check on every versioned route, and the origin (partner) the token speaks for.

The token's signature, issuer, environment and validity (with ``jwt_leeway_seconds`` of skew) are
checked, then the credential it names against the partner's current one: a rotated secret or a
disabled partner answers 401 from the next request on."""

from __future__ import annotations

from flask import Flask, g, request

from models import runtime
from models.services.partners.accounts import token_holder
from models.services.partners.tokens import InvalidToken, verify_token
from models.services.platform.logs import bind_fields

from .errors import error_response

# Versioned paths anyone may read: the API description and its docs page.
PUBLIC_SUFFIXES = ("/openapi.json", "/docs", "/docs/")


def _unauthorized(message: str):
    response = error_response(401, message, error_code="UNAUTHORIZED")
    response.headers["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def install(app: Flask) -> None:
    base_path = runtime.current().settings.base_path

    @app.before_request
    def _authenticate():
        path = request.path
        if not path.startswith(base_path + "/") or request.method == "OPTIONS":
            return None
        if path.endswith(PUBLIC_SUFFIXES) or path.startswith(base_path + "/docs/"):
            return None
        header = request.headers.get("Authorization", "")
        scheme, _, value = header.partition(" ")
        if not header:
            return _unauthorized("Missing Authorization header; send 'Authorization: Bearer <ACCESS_TOKEN>'")
        if scheme.lower() != "bearer" or not value.strip():
            return _unauthorized("Authorization header must be 'Bearer <ACCESS_TOKEN>'")
        try:
            claims = verify_token(runtime.current().settings, value.strip())
        except InvalidToken:
            return _unauthorized("Invalid or expired access token; request a new one")
        partner = token_holder(claims)
        if partner is None:
            return _unauthorized("The token's credential is no longer valid; request a new token")
        g.origin = partner.code
        g.partner = partner
        g.token_claims = claims
        # Every log line of the request names the origin (unbound when the request ends, app.py).
        g.log_fields_token = bind_fields(origin=partner.code)
        return None


def current_origin() -> str:
    """The token's origin (partner code): every use case an origin may call takes it, and the
    services answer 404/403 for a proposal that is missing or another origin's."""
    return g.origin


def current_partner():
    """The token's partner (its whole ``Partner`` row) as this request's bearer check read it: a use
    case that needs the origin's settings takes it instead of reading the partner again."""
    return g.partner
