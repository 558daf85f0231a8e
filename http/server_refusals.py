"""The specification's error body for requests the HTTP server refuses before the app runs.

Why: waitress (``make run``) and gunicorn (production) parse the request line and headers
themselves. A malformed request (a control character in a header value, a request line or header
block over the server's limits, a bad chunked body) is answered by the server with its own page,
text/plain for waitress and HTML for gunicorn, which a partner's client parsing every 4xx as the
spec's JSON error body cannot read. Each server's error writer is replaced, once per process,
by one that writes the same status in the spec's body. The app's own answers are not touched.
"""

from __future__ import annotations

import json

from .errors import error_body

# The server's own description of what it refused ("Illegal header value"), bounded: it may quote
# part of the request.
_MESSAGE_LIMIT = 200


def refusal(status_code: int, server_message: str) -> bytes:
    """The spec's error body for a request the server refused, as JSON bytes."""
    message = " ".join(server_message.split())[:_MESSAGE_LIMIT] or "Malformed HTTP request"
    return json.dumps(error_body(status_code, message), separators=(",", ":")).encode()


def install_for_waitress() -> None:
    """waitress answers parse failures with ``Error.to_response`` (waitress/utilities.py)."""
    from waitress import utilities

    def to_response(self, ident=None):
        headers = [("Content-Type", "application/json")]
        return f"{self.code} {self.reason}", headers, refusal(self.code, f"{self.reason}: {self.body}")

    utilities.Error.to_response = to_response


def install_for_gunicorn() -> None:
    """gunicorn answers parse failures with ``util.write_error`` (gunicorn/workers/base.py)."""
    from gunicorn import util

    def write_error(sock, status_int, reason, mesg):
        body = refusal(status_int, f"{reason}: {mesg}" if mesg else reason)
        head = (
            f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        util.write_nonblock(sock, head.encode("latin-1") + body)

    util.write_error = write_error
