"""The flask-smorest Api whose every error, validation included, uses the spec's error body."""

from __future__ import annotations

import logging

import flask_smorest
from apispec import BasePlugin
from flask import Flask, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from models import runtime
from models.domain.errors import DomainError
from models.services.platform.unavailable import ERROR_CODE as UNAVAILABLE_CODE
from models.services.platform.unavailable import MESSAGE as UNAVAILABLE_MESSAGE
from models.services.platform.unavailable import is_unavailable
from schemas.errors import ErrorSchema

from .errors import ApiError, error_response
from .guards import PAYLOAD_TOO_LARGE, request_too_large_message
from .idempotency import IdempotencyDocs
from .links import links_of

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


# Path parameters the service names the same way everywhere, documented with their constraint.
PATH_PARAMETERS = {
    "proposal_id": {"type": "string", "format": "uuid", "example": "0b9d3c7e-8a51-4c3f-9a0e-2f4f1c6d7e8a"},
    "cpf": {
        "type": "string",
        "format": "cpf",
        "pattern": r"^[0-9]{11}$",
        "description": "11 digits, no mask, with valid check digits",
        "example": "52998224725",
    },
}


class OperationDocs(BasePlugin):
    """Every operation gets an operationId (its endpoint's name, which client generators turn into
    function names) and its responses their journey links (httpapi.links), the shared path
    parameters their documented constraint, and a schema its schema-level rules."""

    def schema_helper(self, name, definition, schema=None, **kwargs):
        """Schema-level rules a field cannot carry (``OPENAPI_EXTRA``, e.g. "exactly one of")."""
        schema_class = schema if isinstance(schema, type) else type(schema)
        return dict(getattr(schema_class, "OPENAPI_EXTRA", None) or {}) or None

    def path_helper(self, path=None, operations=None, parameters=None, rule=None, **kwargs):
        for parameter in parameters or ():
            if isinstance(parameter, dict) and parameter.get("in") == "path" and parameter["name"] in PATH_PARAMETERS:
                parameter["schema"] = dict(PATH_PARAMETERS[parameter["name"]])

    def operation_helper(self, path=None, operations=None, rule=None, **kwargs):
        if rule is None or rule.endpoint is None:
            return
        sandbox_routes = runtime.current().settings.sandbox_routes
        for operation in (operations or {}).values():
            operation_id = operation.setdefault("operationId", rule.endpoint.rsplit(".", 1)[-1])
            for status, response in operation.get("responses", {}).items():
                links = links_of(operation_id, int(status), sandbox_routes=sandbox_routes)
                if links and isinstance(response, dict):
                    response["links"] = links


def _nullable_reference(converter, field, ret, **kwargs) -> dict:
    """A nullable nested object: ``anyOf`` its ``$ref`` or null. apispec's null branch is
    ``{type: object, nullable: true}``, which admits any object, so the referenced schema would
    constrain nothing; here that branch admits null only (OpenAPI 3.0 has no null type: an enum of
    null on a nullable schema is its spelling)."""
    null_branch = {"type": "object", "nullable": True}
    branches = ret.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and null_branch in branches:
        reference = next(branch for branch in branches if branch != null_branch)
        ret["anyOf"] = [reference, {**null_branch, "enum": [None]}]
    return {}


class ServiceApi(flask_smorest.Api):
    ERROR_SCHEMA = ErrorSchema
    # Every route declares its error statuses itself (httpapi.blueprint.Blueprint.errors): no
    # catch-all "default" response that would let an undocumented status pass for documented.
    DEFAULT_ERROR_RESPONSE_NAME = None

    def __init__(self, app: Flask | None = None, **kwargs) -> None:
        kwargs.setdefault("spec_kwargs", {}).setdefault("extra_plugins", [OperationDocs(), IdempotencyDocs()])
        super().__init__(app, **kwargs)
        self.ma_plugin.converter.add_attribute_function(_nullable_reference)

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
        if is_unavailable(error):
            # Expected while a dependency is away: one line, no traceback, and the driver's text
            # (host names, SQL) stays in the log, never in the answer.
            log.warning(
                "dependency unavailable on %s %s: %s: %s",
                request.method,
                request.path,
                error.__class__.__name__,
                str(error).splitlines()[0] if str(error) else "",
            )
            return error_response(503, UNAVAILABLE_MESSAGE, error_code=UNAVAILABLE_CODE)
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error_response(500, "Internal error; the request was not completed")

    @app.after_request
    def _retry_after(response):
        """Every 503 says when to come back: dependency away, simulation or provider too slow,
        readiness probe (README, "Errors")."""
        if response.status_code == 503 and "Retry-After" not in response.headers:
            response.headers["Retry-After"] = str(runtime.current().settings.unavailable_retry_after_seconds)
        return response

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
