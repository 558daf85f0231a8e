"""``Idempotency-Key`` on every POST under the versioned base path (README, "Idempotency-Key").

Installed after the bearer check and the request guards: keys are scoped to the token's origin,
so a request without one (the token route, the providers' callbacks, the sandbox signing pages,
all outside ``/v1``) never reaches here, and a request the guards refuse claims nothing. Before
the route runs, the key is claimed in its own transaction (``models.services.platform.idempotency``);
after it, the answer is kept for a retry, or the key released when the answer was a 5xx. A repeat
gets the first answer with ``Idempotent-Replayed: true``, 422 ``IDEMPOTENCY_KEY_REUSED`` for another
request under the key, 409 ``IDEMPOTENCY_KEY_IN_USE`` while the first one runs.
"""

from __future__ import annotations

import logging

from apispec import BasePlugin
from flask import Flask, Response, g, request

from models import runtime
from models.domain import idempotency as rules
from models.services.platform import idempotency

from .errors import error_response

log = logging.getLogger(__name__)

# Headers of the first answer not replayed: the replay's own request id, length and date.
NOT_REPLAYED = frozenset({"content-length", "x-request-id", "date", "set-cookie", "server"})
KEY_RULE = "1 to 255 printable ASCII characters without spaces (a UUID is a good key)"
REUSED = (
    "IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was first used, while it is kept, for another request "
    "(method, path, query or JSON body); use a new key for a new request"
)
IN_USE = (
    "IDEMPOTENCY_KEY_IN_USE: the first request under this Idempotency-Key is still running; "
    "retry the same request shortly to get its answer"
)
PARAMETER_DESCRIPTION = (
    f"Optional. {KEY_RULE}, scoped to the token's origin and kept {{hours}} hours from its first request. "
    "Repeating a request with the same key and the same method, path, query and JSON body (keys in any "
    "order) answers the first request's status and body again, with the header "
    "`Idempotent-Replayed: true`, and does nothing again; only final answers are kept (2xx, 3xx, 4xx): "
    "after a 5xx the key is free and the retry runs. Another request under the key answers 422 "
    "IDEMPOTENCY_KEY_REUSED; a retry while the first request still runs answers 409 IDEMPOTENCY_KEY_IN_USE."
)


def _applies() -> bool:
    base_path = runtime.current().settings.base_path
    return (
        request.method == "POST"
        and request.path.startswith(base_path + "/")
        and request.url_rule is not None  # an unknown route or wrong method has nothing to repeat
        and g.get("origin") is not None  # set by the bearer check (httpapi.auth)
    )


def _refusal(status: int, message: str, error_code: str):
    return error_response(status, message, error_code=error_code, details={"field": rules.HEADER})


def _replay(answer: idempotency.StoredAnswer) -> Response:
    response = Response(answer.body, status=answer.status_code)
    for name, value in answer.headers.items():
        response.headers[name] = value
    response.headers[rules.REPLAYED_HEADER] = "true"
    return response


def install(app: Flask) -> None:
    @app.before_request
    def _claim_key():
        key = request.headers.get(rules.HEADER)
        if key is None or not _applies():
            return None
        if not rules.valid_key(key):
            return _refusal(400, f"{rules.HEADER}: must be {KEY_RULE}", "VALIDATION_ERROR")
        fingerprint = rules.fingerprint(
            request.method, request.path, request.args.items(multi=True), request.get_data(cache=True)
        )
        outcome = idempotency.claim(
            g.origin,
            key,
            fingerprint,
            method=request.method,
            path=request.path,
            idempotency_settings=runtime.current().settings.idempotency,
        )
        if outcome.verdict is rules.Verdict.REPLAY and outcome.answer is not None:
            return _replay(outcome.answer)
        if outcome.verdict is rules.Verdict.REUSED:
            return _refusal(422, "Idempotency-Key already used for another request", "IDEMPOTENCY_KEY_REUSED")
        if outcome.verdict is rules.Verdict.IN_USE:
            return _refusal(409, "A request with this Idempotency-Key is still running", "IDEMPOTENCY_KEY_IN_USE")
        g.idempotency_claim = outcome.claim
        return None

    @app.after_request
    def _keep_answer(response: Response):
        held = g.pop("idempotency_claim", None)
        if held is None:
            return response
        try:
            if rules.worth_keeping(response.status_code) and not response.is_streamed:
                headers = {name: value for name, value in response.headers.items() if name.lower() not in NOT_REPLAYED}
                idempotency.store_answer(held, response.status_code, headers, response.get_data(as_text=True))
            else:
                idempotency.release(held)
        except Exception:  # the answer stands; the claim is retaken after in_flight_timeout_seconds
            log.exception("could not keep the answer of an Idempotency-Key")
        return response

    @app.teardown_request
    def _release_unanswered(exc):
        held = g.pop("idempotency_claim", None)  # still here: no answer went through _keep_answer
        if held is None:
            return
        try:
            idempotency.release(held)
        except Exception:
            log.exception("could not release an Idempotency-Key")


class IdempotencyDocs(BasePlugin):
    """The header parameter and its 409 and 422 on every POST under the base path."""

    def operation_helper(self, path=None, operations=None, rule=None, **kwargs):
        base_path = runtime.current().settings.base_path
        if rule is None or not rule.rule.startswith(base_path + "/"):
            return
        operation = (operations or {}).get("post")
        if operation is None:
            return
        operation.setdefault("parameters", []).append(
            {
                "in": "header",
                "name": rules.HEADER,
                "required": False,
                "description": PARAMETER_DESCRIPTION.format(
                    hours=runtime.current().settings.idempotency.retention_hours
                ),
                "schema": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": rules.MAX_KEY_LENGTH,
                    "pattern": rules.KEY_PATTERN,
                },
            }
        )
        responses = operation.setdefault("responses", {})
        for status, text in ((409, IN_USE), (422, REUSED)):
            existing = _response(responses, status)
            if existing is None:
                responses[str(status)] = {
                    "description": text,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }
            elif isinstance(existing, dict):  # not a reference to a shared response
                existing["description"] = f"{existing['description']}; {text}" if existing.get("description") else text
        invalid = _response(responses, 400)
        if isinstance(invalid, dict) and "description" in invalid:
            invalid["description"] += f"; VALIDATION_ERROR for an {rules.HEADER} that is not {KEY_RULE}"


def _response(responses: dict, status: int) -> dict | str | None:
    """The response declared for ``status`` (apispec keys may be integers or strings)."""
    return responses.get(status) or responses.get(str(status))
