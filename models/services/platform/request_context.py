"""The request id that follows one proposal from the HTTP request into every actor it causes."""

from __future__ import annotations

import contextvars
import uuid

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    return _request_id.get()


def bind_request_id(value: str | None = None) -> contextvars.Token:
    return _request_id.set(value or uuid.uuid4().hex)


def reset_request_id(token: contextvars.Token) -> None:
    _request_id.reset(token)
