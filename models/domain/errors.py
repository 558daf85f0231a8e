"""Domain exceptions carrying everything the HTTP layer needs for the error body.

The spec's error body is ``statusCode``, ``message``, ``error`` and optional
``errorCode`` / ``details``; these classes carry the domain side of it so the
web layer only maps attributes, never re-decides the status code.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base class of every rule violation raised by the domain core."""

    default_http_status = 400

    def __init__(
        self,
        message: str,
        *,
        error_code: str | None = None,
        details: dict[str, Any] | None = None,
        http_status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message: str = message
        self.error_code: str | None = error_code
        self.details: dict[str, Any] = dict(details or {})
        self.http_status: int = http_status or self.default_http_status

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.message!r}, error_code={self.error_code!r}, "
            f"http_status={self.http_status}, details={self.details!r})"
        )


class InvalidTransition(DomainError):
    """A trigger is not allowed from the proposal's current status (409 by default).

    ``details`` name the current status and, unless ``trigger_in_details`` is false (a route
    whose documented body does not), the trigger; both stay available as attributes.
    """

    default_http_status = 409

    def __init__(
        self,
        message: str,
        *,
        current_status: Any = None,
        trigger: Any = None,
        error_code: str | None = None,
        details: dict[str, Any] | None = None,
        http_status: int | None = None,
        trigger_in_details: bool = True,
    ) -> None:
        merged = {
            "currentStatus": _plain(current_status),
            **({"trigger": _plain(trigger)} if trigger_in_details else {}),
            **(details or {}),
        }
        super().__init__(message, error_code=error_code, details=merged, http_status=http_status)
        self.current_status = current_status
        self.trigger = trigger


class ValidationFailed(DomainError):
    """Input is malformed or outside limits (400); ``details["field"]`` names the input."""

    default_http_status = 400


class BusinessRuleViolation(DomainError):
    """Input is well formed but a business rule refuses it (422)."""

    default_http_status = 422


class NotFound(DomainError):
    """What the caller names does not exist (404), e.g. ``PROPOSAL_NOT_FOUND``."""

    default_http_status = 404


class Forbidden(DomainError):
    """It exists but belongs to another origin (403 ``FORBIDDEN``)."""

    default_http_status = 403


def _plain(value: Any) -> Any:
    # Enums travel as their wire value so details are JSON-ready.
    return getattr(value, "value", value)
