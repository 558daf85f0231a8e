"""Bearer-token check on every versioned route, and the origin scope that follows from it."""
from __future__ import annotations

from flask import Flask, g, request

from models.db.partners import Partner
from models.db.proposals import Proposal
from models.services.partners.tokens import InvalidToken, verify_token
from models.settings import current

from .errors import ApiError, error_response

# Versioned paths anyone may read: the API description and its docs page.
PUBLIC_SUFFIXES = ("/openapi.json", "/docs", "/docs/")


def _unauthorized(message: str):
    response = error_response(401, message, error_code="UNAUTHORIZED")
    response.headers["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def install(app: Flask) -> None:
    base_path = current().base_path

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
            claims = verify_token(current(), value.strip())
        except InvalidToken:
            return _unauthorized("Invalid or expired access token; request a new one")
        partner = Partner.get_or_none(Partner.code == claims.origin)
        if partner is None:
            return _unauthorized("The token's partner no longer exists")
        g.partner = partner
        g.token_claims = claims
        return None


def current_partner() -> Partner:
    return g.partner


def current_origin() -> str:
    return g.partner.code


def owned_proposal(proposal_id: str, *, for_update: bool = False) -> Proposal:
    """The proposal if it belongs to the token's origin: 404 when missing, 403 when another's."""
    query = Proposal.select().where(Proposal.id == str(proposal_id))
    if for_update:
        from models.db.database import is_postgres

        if is_postgres():
            query = query.for_update()
    proposal = query.first()
    if proposal is None:
        raise ApiError(404, "Proposal not found", error_code="PROPOSAL_NOT_FOUND")
    if proposal.origin != current_origin():
        raise ApiError(403, "This token is not permitted to access this proposal", error_code="FORBIDDEN")
    return proposal
