"""The flask-smorest Api whose every error, validation included, uses the spec's error body."""

from __future__ import annotations

import logging

import flask_smorest
from flask import Flask, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from models.domain.errors import DomainError
from schemas.errors import ErrorSchema

from .errors import ApiError, error_response
from .guards import PAYLOAD_TOO_LARGE, request_too_large_message

log = logging.getLogger(__name__)

JSON_METHODS = {"POST", "PUT", "PATCH"}


def _first_validation_error(messages: dict) -> tuple[str | None, str]:
    """Flatten webargs' {location: {field: [msg]}} into the first field path and its message."""
    node, path = messages, []
    if isinstance(node, dict) and len(node) == 1 and next(iter(node)) in ("json", "query", "path", "form", "headers"):
        node = next(iter(node.values()))
    while isinstance(node, dict) and node:
        key, node = next(iter(node.items()))
        path.append(str(key))
    if isinstance(node, list) and node:
        node = node[0]
        while isinstance(node, dict) and node:  # nested list items
            key, node = next(iter(node.items()))
            path.append(str(key))
            if isinstance(node, list) and node:
                node = node[0]
    field = ".".join(path) or None
    if field == "_schema":
        field = None
    return field, str(node)


def validation_error_response(messages: dict):
    """400 VALIDATION_ERROR naming the first field in error (marshmallow's or webargs' messages)."""
    field, message = _first_validation_error(messages)
    text = f"{field}: {message}" if field else message
    return error_response(
        400,
        text,
        error_code="VALIDATION_ERROR",
        details={"field": field, "errors": messages} if field else {"errors": messages},
    )


class ServiceApi(flask_smorest.Api):
    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException):
        data = getattr(error, "data", None) or {}
        messages = data.get("messages")
        if messages is not None:  # webargs schema validation: 400 per the spec (422 is business)
            _, message = _first_validation_error(messages)
            if message == "Invalid JSON body.":
                return error_response(400, "Malformed JSON body", error_code="INVALID_JSON")
            return validation_error_response(messages)
        status = error.code or 500
        message = data.get("message") or error.description or ""
        if status == 404 and error.description and "requested URL was not found" in error.description:
            message = f"Route {request.method} {request.path} not found"
        if status == 405:
            message = f"Method {request.method} not allowed on {request.path}"
        error_code = None
        if status == 413:  # a chunked body cut while read (a declared size is refused in guards.py)
            message, error_code = request_too_large_message(), PAYLOAD_TOO_LARGE
        response = error_response(status, message, error_code=error_code)
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(sorted(error.valid_methods))  # RFC 9110 §15.5.6
        return response


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def _api_error(error: ApiError):
        return error.response()

    @app.errorhandler(DomainError)
    def _domain_error(error: DomainError):
        extra = dict(getattr(error, "extra", None) or {})
        return error_response(
            error.http_status, error.message, error_code=error.error_code, details=error.details or None, **extra
        )

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        if isinstance(error, HTTPException):
            return error_response(error.code or 500, error.description or "")
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error_response(500, "Internal error; the request was not completed")

    @app.before_request
    def _require_json_body():
        if (
            request.method in JSON_METHODS
            and request.content_length
            and not request.is_json
            and not request.path.endswith("/oauth2/token")
            and "/sandbox/" not in request.path
        ):
            return error_response(
                400,
                "Content-Type must be application/json",
                error_code="INVALID_CONTENT_TYPE",
                details={"field": "Content-Type"},
            )
        return None
