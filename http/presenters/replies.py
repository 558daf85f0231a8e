"""Small helpers shared by the credit-path routes."""

from __future__ import annotations

from flask import jsonify


def reply(body: dict | list, status: int):
    """A JSON response with ``status`` (the route's schema documents the body)."""
    response = jsonify(body)
    response.status_code = status
    return response
