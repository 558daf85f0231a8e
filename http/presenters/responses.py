"""Bodies answered with another status and schema than the route's main ``@blp.response``.

flask-smorest serializes a route's return value with its main response schema only. A route that
answers another status with another schema (202 acknowledgement, the terminal-status 409, an
error body) hands the view here with the schema it declared for that status, so every body on the
wire still goes through a declared schema.
"""

from __future__ import annotations

from flask import Response, jsonify
from marshmallow import Schema


def serialized(schema: Schema | type[Schema], view, status: int) -> Response:
    """``view`` dumped by ``schema`` as a JSON response with ``status``."""
    instance = schema() if isinstance(schema, type) else schema
    response = jsonify(instance.dump(view))
    response.status_code = status
    return response
