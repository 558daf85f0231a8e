"""Every answer the test suite receives is checked against the published document.

The e2e layer's ``client`` is a ``ConformingClient``: each response to a documented operation must
have a status the operation declares, and its JSON body must validate against the schema declared
for that status (OpenAPI 3.0 semantics, formats included). So the suite's thousands of real
responses, errors included, prove the wire matches the document, beside the fuzzer's.

Not checked: paths outside the document (health, metrics, provider callbacks, sandbox signing
pages, docs), HEAD and OPTIONS, and 405 (a method the resource does not have is no operation).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from flask.testing import FlaskClient
from openapi_schema_validator import OAS30Validator

METHODS = ("get", "post", "put", "patch", "delete")
UNCHECKED_METHODS = {"HEAD", "OPTIONS"}


class DocumentedResponses:
    """The operations of one OpenAPI document, and the check of a response against them."""

    def __init__(self, document: dict) -> None:
        self.document = document
        self.routes: list[tuple[re.Pattern, int, str, dict]] = []
        for template, item in document["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$")
            literal = len(re.sub(r"\{[^/]+?\}", "", template))
            for method in METHODS:
                if method in item:
                    self.routes.append((pattern, literal, method.upper(), item[method]))

    def operation(self, method: str, path: str) -> dict | None:
        """The operation serving ``method path``; a static segment wins over a parameter, as in routing."""
        matches = [(literal, op) for pattern, literal, m, op in self.routes if m == method and pattern.match(path)]
        return max(matches, key=lambda match: match[0])[1] if matches else None

    @functools.cache  # noqa: B019 (one instance per test session)
    def _validator(self, operation_id: str, status: str) -> OAS30Validator:
        operation = next(op for _, _, _, op in self.routes if op["operationId"] == operation_id)
        schema = operation["responses"][status]["content"]["application/json"]["schema"]
        resolved = self._inline(schema)
        return OAS30Validator(resolved, format_checker=OAS30Validator.FORMAT_CHECKER)

    def _inline(self, node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                name = node["$ref"].rsplit("/", 1)[-1]
                return self._inline(self.document["components"]["schemas"][name])
            return {key: self._inline(value) for key, value in node.items()}
        if isinstance(node, list):
            return [self._inline(item) for item in node]
        return node

    def problem(self, method: str, path: str, response) -> str | None:
        """Why ``response`` does not conform to the document (None when it does or is unchecked)."""
        if method in UNCHECKED_METHODS or response.status_code == 405:
            return None
        operation = self.operation(method, path)
        if operation is None:
            return None
        label = f"{method} {path} -> {response.status_code}"
        declared = operation["responses"].get(str(response.status_code))
        if declared is None:
            return f"{label}: status not declared by {operation['operationId']} ({sorted(operation['responses'])})"
        content = declared.get("content")
        if not content:
            return (
                f"{label}: declared without a body, got {len(response.get_data())} bytes"
                if response.get_data()
                else None
            )
        media_type = response.mimetype
        if media_type not in content:
            return f"{label}: content type {media_type} not declared ({sorted(content)})"
        if media_type != "application/json":
            return None
        errors = sorted(
            self._validator(operation["operationId"], str(response.status_code)).iter_errors(
                json.loads(response.get_data())
            ),
            key=str,
        )
        if errors:
            first = errors[0]
            where = "/".join(str(part) for part in first.absolute_path)
            return f"{label}: body does not match its schema at '{where}': {first.message}"
        return None


class ConformingClient(FlaskClient):
    """A Flask test client that fails the test on a response the document does not describe."""

    documented: DocumentedResponses | None = None

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        if self.documented is not None and response.request is not None:
            problem = self.documented.problem(response.request.method, response.request.path, response)
            assert problem is None, problem
        return response
