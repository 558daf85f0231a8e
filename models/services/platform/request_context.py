"""The request id that follows one proposal from the HTTP request into every actor it causes.

A caller's ``X-Request-Id`` is kept only when it is short and made of safe characters (it is stored
in 64-character columns and printed in log lines); anything else is replaced by a fresh id, which
the response echoes. Log lines also carry the caller's origin, so an id one partner copies from
another never makes their lines indistinguishable.
"""

from __future__ import annotations

import contextvars
import re
import uuid

MAX_REQUEST_ID = 64
_SAFE_REQUEST_ID = re.compile(rf"[A-Za-z0-9._:-]{{1,{MAX_REQUEST_ID}}}")

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    return _request_id.get()


def accepted_request_id(value: str | None) -> str:
    """``value`` when it is 1 to 64 ASCII letters, digits, ``.``, ``_``, ``:`` or ``-``, else a new id."""
    if value is not None and _SAFE_REQUEST_ID.fullmatch(value):
        return value
    return uuid.uuid4().hex


def bind_request_id(value: str | None = None) -> contextvars.Token:
    """Make ``value`` (or a new id when it is missing or unsafe) the current request id."""
    return _request_id.set(accepted_request_id(value))


def reset_request_id(token: contextvars.Token) -> None:
    _request_id.reset(token)
