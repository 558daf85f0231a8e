"""Bodies answered with another status and schema than the route's main ``@blp.response``.

flask-smorest serializes a route's return value with its main response schema only. A route that
answers another status with another schema (202 acknowledgement, the terminal-status 409, an
error body) hands the view here with the schema it declared for that status, so every body on the
wire still goes through a declared schema.
"""

from __future__ import annotations

from flask import Response, jsonify
from marshmallow import Schema

# One instance per schema class, made on first use, for every body the API parses or dumps itself
# (the blueprint's arguments, the alternative responses, the sandbox signing page): constructing
# a schema deep-copies its declared fields (and a nested schema's, on its first dump), about 3 % of
# the API's CPU when each request built its own. A schema instance holds no state between loads
# or dumps, so threads share it (as they share the instances flask-smorest keeps for every
# route's main response).
_INSTANCES: dict[type[Schema], Schema] = {}


def instance_of(schema: Schema | type[Schema]) -> Schema:
    """``schema`` itself, or this process's one instance of the class ``schema``."""
    if not isinstance(schema, type):
        return schema
    instance = _INSTANCES.get(schema)
    if instance is None:  # two threads may both build one; either serves
        instance = _INSTANCES.setdefault(schema, schema())
    return instance


def serialized(schema: Schema | type[Schema], view, status: int) -> Response:
    """``view`` dumped by ``schema`` as a JSON response with ``status``."""
    instance = instance_of(schema)
    response = jsonify(instance.dump(view))
    response.status_code = status
    return response
