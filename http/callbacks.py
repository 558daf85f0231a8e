"""Provider callbacks outside /v1: the raw body must carry the provider's HMAC signature."""

from __future__ import annotations

from flask import Response, request

from models.services.partners import callback_auth

from .errors import error_response


def signed_json(secret: str) -> tuple[dict | None, Response | None]:
    """The callback's JSON object, or the error response to send (401 bad signature, 400 not JSON).
    ``secret``: the provider's shared secret (its ``callback_secret`` setting)."""
    raw = request.get_data()
    if not callback_auth.verify(raw, request.headers.get("X-Signature"), secret):
        return None, error_response(401, "Invalid callback signature", error_code="INVALID_SIGNATURE")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return None, error_response(400, "The body must be a JSON object", error_code="INVALID_JSON")
    return body, None
