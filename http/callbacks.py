"""Provider callbacks outside /v1: the raw body must carry the provider's HMAC signature, then it is
validated by its schema (schemas/callbacks.py) like any request body."""

from __future__ import annotations

from flask import Response, request
from marshmallow import Schema, ValidationError

from models.services.partners import callback_auth

from .api import validation_error_response
from .errors import error_response


def signed_json(secret: str, schema: Schema) -> tuple[dict | None, Response | None]:
    """The callback's body loaded by ``schema``, or the error response to send (401 bad signature,
    400 not a JSON object or invalid). ``secret``: the provider's shared secret (its
    ``callback_secret`` setting)."""
    raw = request.get_data()
    if not callback_auth.verify(raw, request.headers.get("X-Signature"), secret):
        return None, error_response(401, "Invalid callback signature", error_code="INVALID_SIGNATURE")
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return None, error_response(400, "The body must be a JSON object", error_code="INVALID_JSON")
    try:
        return schema.load(body), None
    except ValidationError as error:
        return None, validation_error_response(error.normalized_messages())
