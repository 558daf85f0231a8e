"""Request guards on every route (the token route and the unauthenticated callbacks included), run
before any route reads the request:

- a body larger than ``request_body_max_bytes`` is answered 413 from its Content-Length, before it
  is read; a body without one (chunked, de-chunked by the server) is cut at the same size while it
  is read (``CappedInput``), also 413;
- a JSON body must parse as strict JSON (UTF-8, no ``NaN`` or ``Infinity``), nest at most
  ``schemas.edge.MAX_JSON_DEPTH`` levels and hold only finite numbers (400 ``INVALID_JSON`` /
  ``VALIDATION_ERROR``): Python's parser would otherwise raise a RecursionError or refuse a
  5,000-digit number with a plain ValueError, both 500s. Its strings are the fields' business
  (``schemas.edge``: no control characters, documented on each field);
- the path and the query string hold no control character (400): PostgreSQL refuses NUL in text.

Every answer uses the specification's error body.
"""

from __future__ import annotations

import json

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from models import runtime
from schemas.edge import URL_CONTROL, json_problem

from .errors import error_response

PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"


def request_too_large_message() -> str:
    limit = runtime.current().settings.request_body_max_bytes
    return f"Request body larger than {limit} bytes"


def install(app: Flask) -> None:
    """Register the guards; call it after the bearer check, so an unauthenticated caller never gets
    its JSON parsed (the size check reads nothing and holds there too)."""
    limit = runtime.current().settings.request_body_max_bytes
    # Not werkzeug's MAX_CONTENT_LENGTH: on a de-chunked stream it silently truncates the body at
    # the limit (a truncated form still parses); CappedInput refuses it instead.
    app.wsgi_app = _cap_streamed_bodies(app.wsgi_app, limit)  # type: ignore[method-assign]

    @app.before_request
    def _guard_request():
        length = request.content_length
        if length is not None and length > limit:
            return error_response(413, request_too_large_message(), error_code=PAYLOAD_TOO_LARGE)
        if URL_CONTROL.search(request.path):  # already percent-decoded
            return _refused("path", "must not contain control characters")
        for name, value in request.args.items(multi=True):
            if URL_CONTROL.search(name):
                return _refused("query", "parameter names must not contain control characters")
            if URL_CONTROL.search(value):
                return _refused(name[:64], "must not contain control characters")
        if request.is_json:
            return _check_json_body()
        return None


class CappedInput:
    """``wsgi.input`` of a body without Content-Length: reading past ``limit`` bytes raises 413.

    werkzeug trusts a server that de-chunked the body (``wsgi.input_terminated``) and reads it to
    the end, whatever its size; this reads at most one byte past the limit, which tells a body of
    exactly ``limit`` bytes from a longer one."""

    def __init__(self, stream, limit: int) -> None:
        self.stream = stream
        self.limit = limit
        self.consumed = 0

    def _count(self, data: bytes) -> bytes:
        self.consumed += len(data)
        if self.consumed > self.limit:
            raise RequestEntityTooLarge()
        return data

    def _allowance(self, size: int | None) -> int:
        room = self.limit + 1 - self.consumed
        return room if size is None or size < 0 else min(size, room)

    def read(self, size: int | None = -1) -> bytes:
        return self._count(self.stream.read(self._allowance(size)))

    def readline(self, size: int | None = -1) -> bytes:
        return self._count(self.stream.readline(self._allowance(size)))

    def __iter__(self):
        while line := self.readline():
            yield line


def _cap_streamed_bodies(wsgi_app, limit: int):
    def capped(environ, start_response):
        if not environ.get("CONTENT_LENGTH") and "wsgi.input" in environ:
            environ["wsgi.input"] = CappedInput(environ["wsgi.input"], limit)
        return wsgi_app(environ, start_response)

    return capped


def _refused(field: str, message: str):
    return error_response(400, f"{field}: {message}", error_code="VALIDATION_ERROR", details={"field": field})


def _not_json(constant: str):
    # NaN, Infinity and -Infinity are Python's extension, not JSON (RFC 8259).
    raise ValueError(f"{constant} is not JSON")


def _check_json_body():
    raw = request.get_data(cache=True)  # 413 (CappedInput) when a chunked body exceeds the limit
    if not raw.strip():
        return None  # an empty body is the schema's business (required fields)
    try:
        document = json.loads(raw.decode("utf-8"), parse_constant=_not_json)
    except (ValueError, RecursionError):  # JSONDecodeError, UnicodeDecodeError, huge integers, depth
        return error_response(400, "Malformed JSON body", error_code="INVALID_JSON")
    problem = json_problem(document)
    if problem is None:
        return None
    return error_response(
        400, f"{problem.field}: {problem.message}", error_code=problem.error_code, details={"field": problem.field}
    )
