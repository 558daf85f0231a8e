"""The blueprint every versioned route module uses: schema violations answer 400 (the spec's code,
422 is business), and each route declares, with the spec's error body, every error status it can
answer and the error codes behind each one.

``@blp.errors({404: NOT_FOUND, 409: "INVALID_STATUS_FOR_PREACCEPT ..."})`` documents the given
statuses plus the ones every authenticated route shares (401, 403 is per route), 500, and the
request guard's answers on every route (``httpapi.guards``): 400 for a control character in the
path or query string or a JSON body it refuses, 413 for a body over the size limit, and 503 with
``Retry-After`` when the database or the broker is away during the request (``models/services/platform/unavailable.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import flask_smorest
from flask_smorest.arguments import ArgumentsMixin

from schemas.errors import ErrorSchema

from .presenters.responses import instance_of

# Shared descriptions (the error codes behind each status); routes add their own.
UNAUTHORIZED = "UNAUTHORIZED: missing, expired or invalid access token; get a new token and repeat"
INTERNAL = "Internal error; retry with backoff (1, 2, 4 seconds), then report the request id"
INVALID_BODY = (
    "VALIDATION_ERROR (details.field names the input, details.errors lists every message), "
    "INVALID_JSON (malformed body), INVALID_CONTENT_TYPE (a body that is not application/json)"
)
INVALID_QUERY = "VALIDATION_ERROR: a query parameter is malformed or outside its range (details.field)"
FORBIDDEN = "FORBIDDEN: the proposal belongs to another origin"
PROPOSAL_NOT_FOUND = "PROPOSAL_NOT_FOUND"
# The request guard answers these on every route, whatever the route reads (httpapi.guards).
GUARDED = (
    "request guard: VALIDATION_ERROR for a control character in the path or the query string, or a "
    "JSON number that is not finite (details.field); INVALID_JSON for a body that does not parse as "
    "UTF-8 JSON or nests deeper than 32 levels"
)
TOO_LARGE = (
    "PAYLOAD_TOO_LARGE: a body over request_body_max_bytes (1 MiB by default), refused from its "
    "Content-Length before it is read, or cut while read"
)

# Any route can meet a dependency that is away (models/services/platform/unavailable.py); every 503 carries Retry-After.
UNAVAILABLE = (
    "SERVICE_UNAVAILABLE: the database or the message broker is unreachable for now and the request "
    "may not have been completed; retry after the seconds in Retry-After"
)
RETRY_AFTER_HEADER = {
    "Retry-After": {
        "description": "seconds to wait before retrying (every 503)",
        "schema": {"type": "integer", "minimum": 0},
    }
}


class _Parser(type(ArgumentsMixin.ARGUMENTS_PARSER)):  # type: ignore[misc]
    DEFAULT_VALIDATION_STATUS = 400


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = _Parser()

    def arguments(self, schema, *args, **kwargs) -> Callable:
        """flask-smorest's, given the process's one instance of a schema class (``instance_of``):
        webargs builds a new instance of a class for every request it parses (deep-copying its
        fields). The document is the same: a schema is named by its class either way."""
        return super().arguments(instance_of(schema), *args, **kwargs)

    def errors(self, described: Mapping[int, str], *, authenticated: bool = True) -> Callable:
        """Declare the error statuses of a route, each with the error body and its error codes."""
        statuses = dict(described)
        statuses[400] = f"{statuses[400]}; {GUARDED}" if 400 in statuses else GUARDED
        statuses.setdefault(413, TOO_LARGE)
        if authenticated:
            statuses.setdefault(401, UNAUTHORIZED)
        statuses.setdefault(500, INTERNAL)
        statuses[503] = f"{statuses[503]}; {UNAVAILABLE}" if 503 in statuses else UNAVAILABLE

        def decorator(func: Callable) -> Callable:
            for status, description in sorted(statuses.items(), reverse=True):
                headers = RETRY_AFTER_HEADER if status == 503 else None
                func = self.alt_response(status, schema=ErrorSchema, description=description, headers=headers)(func)
            return func

        return decorator
