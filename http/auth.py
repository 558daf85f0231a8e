"""Bearer-token check on every versioned route, and the origin (partner) the token speaks for."""

from __future__ import annotations

from flask import Flask, g, request

from models import runtime
from models.services.partners.accounts import find_partner
from models.services.partners.tokens import InvalidToken, verify_token

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
        partner = find_partner(claims.origin)
        if partner is None:
            return _unauthorized("The token's partner no longer exists")
        g.origin = partner.code
        g.token_claims = claims
        return None


def current_origin() -> str:
    """The token's origin (partner code): every use case an origin may call takes it, and the
    services answer 404/403 for a proposal that is missing or another origin's."""
    return g.origin
