"""The specification's error body, built in one place for every error the API answers."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from flask import Response

from schemas.errors import ErrorSchema

from .presenters.responses import serialized


def reason_phrase(status: int) -> str:
    """The status's reason phrase ("Bad Request"), the body's ``error``."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def error_body(
    status_code: int, message: str, *, error_code: str | None = None, details: dict | None = None, **extra: Any
) -> dict:
    # The first parameter is not named ``status``: the spec's 409 bodies carry a ``status`` field
    # (the blocking proposal's status), which arrives through ``extra``.
    body: dict[str, Any] = {"statusCode": status_code, "message": message, "error": reason_phrase(status_code)}
    if error_code:
        body["errorCode"] = error_code
    if details:
        body["details"] = details
    body.update({k: v for k, v in extra.items() if v is not None})
    return body


def error_response(status_code: int, message: str, **kwargs) -> Response:
    """The error body, serialized by the ErrorSchema every route declares for its error statuses."""
    return serialized(ErrorSchema, error_body(status_code, message, **kwargs), status_code)


class ApiError(Exception):
    """Raised by route code for an answer in the error body (404 not found, 403 not yours...)."""

    def __init__(
        self, status: int, message: str, *, error_code: str | None = None, details: dict | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error_code = error_code
        self.details = details
        self.extra = extra

    def response(self):
        return error_response(self.status, self.message, error_code=self.error_code, details=self.details, **self.extra)
