"""The hostile-input matrix: every route and method of the app's URL map against malformed,
oversized, non-ASCII, negative, huge and wrong-type inputs.

Every answer must be a 4xx in the specification's error body (``statusCode``, ``message``,
``error``; the token route's own errors keep their RFC 6749 body), and no row of any table may be
written; nothing answers 5xx. The cases are generated from the URL map and from each route's request
schemas (flask-smorest's ``arguments``, or ``PLAIN_BODY_SCHEMAS`` for the routes outside it), so a
new route is covered as soon as it exists, and a new schema or path parameter without an example
here fails the matrix, naming what to add.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from marshmallow import Schema, fields

from models import runtime
from models.db.database import db
from models.db.tables import ALL_TABLES
from models.services.partners import callback_auth
from schemas.callbacks import ESignatureEvent, FundingEvent, SignatureResults
from tests import builders

SKIPPED_METHODS = {"HEAD", "OPTIONS"}
FULLWIDTH = "\uff11\uff12\uff13"
HUGE_TEXT = "x" * 100_000

# A valid body or query for each request schema: a hostile value replaces one field at a time, so
# the answer shows that field was refused (and not merely a missing required one).
EXAMPLES: dict[str, dict] = {
    "StartRequest": {"cpf": "52998224725", "full_name": "Maria da Silva", "birth_date": "1985-04-12"},
    "ContactRequest": {"email": "maria@example.com", "phone": "+5511987654321"},
    "ValidateTokenRequest": {"token": "123456", "phone": "+5511987654321"},
    "CreditAnalysisRequest": {
        "ip": "203.0.113.7",
        "geolocation": {"latitude": -23.5, "longitude": -46.6},
        "document_text": "I authorise the payroll margin query.",
        "channel": "web",
    },
    "ConsentGeolocation": {"latitude": -23.5, "longitude": -46.6},
    "SimulateRequest": {"installments": 24},
    "PreAcceptRequest": {"selected_offer_id": "5f0c7a2e-1d4b-4c8e-9a51-3b7d2e6f8a10"},
    "BankingDataSchema": {
        "bank_code": "001",
        "bank_branch": "1234",
        "bank_account": "123456",
        "bank_account_digit": "7",
        "account_type": "checking",
    },
    "ContractRequestSchema": {"signature_redirect_url": "https://partner.example/signed"},
    "ContractDocumentQuery": {},
    "AsyncQuery": {},
    "ProposalListArgsSchema": {},
    "EventsQuerySchema": {},
    "StatisticsArgsSchema": {},
    "SandboxMessagesQuery": {"phone": "+5511987654321"},
    "ESignatureEvent": {"process_id": "process-1", "event": "PROCESS_STARTED"},
    "FundingEvent": {"event": "WITHDRAWAL", "issuer_application_id": "CCB-1"},
    "SignatureResults": {},
    "AdvanceRequest": {"seconds": 60},
}

# Routes outside flask-smorest that take a JSON body, with the schema that validates it.
PLAIN_BODY_SCHEMAS: dict[str, type[Schema] | Schema] = {
    "/callbacks/esignature": ESignatureEvent,
    "/callbacks/funding": FundingEvent,
    "/sandbox/esign/<process_id>": SignatureResults,
}
FORM_ROUTES = {"/oauth2/token"}  # RFC 6749 bodies for its own errors

# Provider callbacks are signed: the matrix signs its bodies so they reach validation.
SIGNING_SECRETS: dict[str, Callable[[Any], str]] = {
    "/callbacks/esignature": lambda settings: settings.esignature.callback_secret,
    "/callbacks/funding": lambda settings: settings.funding.callback_secret,
}

# Hostile values of one path parameter, by name; each must be refused or found missing (4xx).
PATH_VALUES = {
    "proposal_id": ["%00", FULLWIDTH * 12, "x" * 3000, "..", "%2e%2e%2fadmin", "' OR 1=1 --"],
    "cpf": [FULLWIDTH + "45678901", "5299822472\uff15", "x" * 3000, "%00", "529.982.247-25"],
    "process_id": ["%00", "x" * 3000, FULLWIDTH],
    "filename": ["../../app.py", "%00", "..%2f..%2fconfig.toml"],
}


@dataclass
class Case:
    """One hostile request: what it is, the route it aims at and the client call that sends it."""

    label: str
    rule: str
    method: str
    path: str
    kwargs: dict = field(default_factory=dict)
    field_name: str | None = None  # the body or query field the answer must name


def _row_counts() -> tuple[int, ...]:
    sql = "SELECT " + ", ".join(f'(SELECT COUNT(*) FROM "{table._meta.table_name}")' for table in ALL_TABLES)
    return tuple(db.execute_sql(sql).fetchone())


@pytest.fixture
def target(app):
    """Values filling each path parameter: a real PARTNER_A proposal, a valid CPF, and so on."""
    proposal = builders.proposal(cpf="52998224725")
    return {
        "proposal_id": proposal.id,
        "cpf": "52998224725",
        "process_id": "process-1",
        "filename": "swagger-ui.css",
    }


def _rules(app) -> Iterator:
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        for method in sorted(rule.methods - SKIPPED_METHODS):
            yield rule, method


def _path(rule, values: dict[str, str], **override: str) -> str:
    missing = [name for name in rule.arguments if name not in values]
    assert not missing, f"{rule.rule}: add a valid value for path parameter(s) {missing} to the target fixture"
    path = rule.rule
    for name in rule.arguments:
        converter = rule._converters[name]  # the placeholder as written (<uuid:proposal_id>)
        placeholder = next(p for p in (f"<{name}>", f"<{_kind(converter)}:{name}>") if p in path)
        path = path.replace(placeholder, override.get(name, values[name]))
    return path


def _kind(converter) -> str:
    return {"UUIDConverter": "uuid", "PathConverter": "path", "IntegerConverter": "int"}.get(
        type(converter).__name__, "string"
    )


def _schemas(app, rule, method) -> list[tuple[str, Schema]]:
    """(location, schema instance) of every request schema the route validates."""
    view = app.view_functions[rule.endpoint]
    found = []
    for parameter in getattr(view, "_apidoc", {}).get("arguments", {}).get("parameters", []):
        schema = parameter["schema"]
        found.append((parameter["in"], schema() if isinstance(schema, type) else schema))
    if rule.rule in PLAIN_BODY_SCHEMAS and method == "POST":
        schema = PLAIN_BODY_SCHEMAS[rule.rule]
        found.append(("json", schema() if isinstance(schema, type) else schema))
    return found


def _example(schema: Schema) -> dict:
    name = type(schema).__name__
    assert name in EXAMPLES, f"add a valid example of {name} to EXAMPLES in {__name__}"
    return json.loads(json.dumps(EXAMPLES[name]))


def _hostile_values(field_obj: fields.Field, location: str) -> list[Any]:
    """Values no field of this kind may accept, as JSON values (body) or query-string text."""
    if location == "query":
        if isinstance(field_obj, fields.Boolean):
            return ["maybe", FULLWIDTH]
        if isinstance(field_obj, fields.Integer):
            return ["-1", "1" + "0" * 30, FULLWIDTH, "1.5", "1_0", "ten"]
        if isinstance(field_obj, fields.Date):
            return ["\uff12\uff10\uff12\uff16-01-01", "2026-13-45", "yesterday", "x" * 5000]
        return ["x" * 5000, "\uff10" * 5000]
    wrong_types: list[Any] = [["a"], {"a": 1}]
    if isinstance(field_obj, fields.Nested):
        return ["text", 7, [], True]
    if isinstance(field_obj, fields.Boolean):
        return ["maybe", 2, [], {}]
    if isinstance(field_obj, fields.Integer):
        return [-1, 0, 2**31, 10**30, 1.5, "12", True, FULLWIDTH, *wrong_types]
    if isinstance(field_obj, fields.Decimal):
        return [-1, 0, "1e999999999", "NaN", "Infinity", True, FULLWIDTH, 10**30, *wrong_types]
    if isinstance(field_obj, fields.Float):
        return [1000, -1000, "NaN", True, FULLWIDTH, *wrong_types]
    if isinstance(field_obj, fields.Date):
        return ["\uff11\uff19\uff18\uff15-04-12", "1985-02-30", "0000-00-00", 19850412, *wrong_types]
    if isinstance(field_obj, fields.UUID):
        return ["not-a-uuid", "\uff11" * 32, 123, *wrong_types]
    if isinstance(field_obj, fields.IP):
        return ["999.1.1.1", "\uff11.2.3.4", "fe80::1%" + "a" * 60, 123, *wrong_types]
    if isinstance(field_obj, fields.Url):
        return ["javascript:alert(1)", "https://partner.example/" + "a" * 600, 5, *wrong_types]
    # Any other string: too long for any column, a control character, or not a string at all.
    return [HUGE_TEXT, "a\x00b", 12345, True, *wrong_types]


def _field_cases(app, target) -> Iterator[Case]:
    settings = runtime.current().settings
    for rule, method in _rules(app):
        schemas = _schemas(app, rule, method)
        if method == "POST" and not schemas and rule.rule not in FORM_ROUTES:
            view = app.view_functions[rule.endpoint]
            plain = not hasattr(view, "_apidoc")
            assert not plain or rule.rule in PLAIN_BODY_SCHEMAS or rule.rule in FORM_ROUTES, (
                f"{rule.rule}: declare the schema of its JSON body in PLAIN_BODY_SCHEMAS"
            )
        path = _path(rule, target)
        bases = {location: _example(schema) for location, schema in schemas}
        for location, schema in schemas:
            for name, field_obj in schema.fields.items():
                key = field_obj.data_key or name
                targets = [(key, field_obj)]
                if isinstance(field_obj, fields.Nested) and location == "json":
                    nested = field_obj.schema
                    targets += [(f"{key}.{n}", f) for n, f in nested.fields.items()]
                for dotted, target_field in targets:
                    for value in _hostile_values(target_field, location):
                        document = {loc: json.loads(json.dumps(base)) for loc, base in bases.items()}
                        _set(document[location], dotted, value)
                        kwargs: dict[str, Any] = {"query_string": document.get("query", {})}
                        if "json" in document:
                            raw = json.dumps(document["json"]).encode()
                            kwargs["data"] = raw
                            kwargs["content_type"] = "application/json"
                            if rule.rule in SIGNING_SECRETS:
                                secret = SIGNING_SECRETS[rule.rule](settings)
                                kwargs["headers"] = {"X-Signature": callback_auth.sign(raw, secret)}
                        yield Case(f"{location} {dotted}={_short(value)}", rule.rule, method, path, kwargs, dotted)


def _set(document: dict, dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    for parent in parents:
        document = document.setdefault(parent, {})
    document[last] = value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 40 else f"{text[:30]}...({len(text)} chars)"


# JSON no route accepts, whether it reads a body or not (the request guard). Control characters in
# strings are the fields' rule (the field matrix above); in a field no schema reads they are dropped
# with it (test_control_characters_outside_the_fields_read_are_dropped_unread).
UNACCEPTABLE_JSON = {
    "malformed JSON": b'{"cpf": ',
    "deep nesting": ("[" * 5000 + "]" * 5000).encode(),
    "5000-digit number": b'{"installments": ' + b"9" * 5000 + b"}",
    "invalid UTF-8": b'{"full_name": "\xff\xfe"}',
    "infinity literal": b'{"loan_amount": 1e999999}',
    "NaN literal": b'{"loan_amount": NaN}',
}
# Well-formed JSON of the wrong shape: refused by every route that validates a JSON body.
WRONG_SHAPES = {"top-level array": b"[1, 2, 3]", "top-level string": b'"text"', "top-level null": b"null"}
# The sandbox signing page also takes a bodiless or form POST from a browser (every check passes).
ANY_CONTENT_TYPE = {"/sandbox/esign/<process_id>"}


def _body_shape_cases(app, target) -> Iterator[Case]:
    for rule, method in _rules(app):
        if method != "POST":
            continue
        path = _path(rule, target)
        takes_json = any(location == "json" for location, _ in _schemas(app, rule, method))
        for label, raw in UNACCEPTABLE_JSON.items():
            yield Case(label, rule.rule, method, path, {"data": raw, "content_type": "application/json"})
        if not takes_json:
            continue
        for label, raw in WRONG_SHAPES.items():
            yield Case(label, rule.rule, method, path, {"data": raw, "content_type": "application/json"})
        if rule.rule not in ANY_CONTENT_TYPE:
            yield Case("wrong content type", rule.rule, method, path, {"data": b"cpf=1", "content_type": "text/plain"})


def _query_cases(app, target) -> Iterator[Case]:
    """Control characters and huge values in the query string of every route."""
    for rule, method in _rules(app):
        path = _path(rule, target)
        for label, query in {
            "NUL in a query value": {"page": "1\x00"},
            "NUL in a query name": {"a\x00b": "1"},
            "escape in a query value": {"async": "\x1b[31m"},
        }.items():
            yield Case(label, rule.rule, method, path, {"query_string": query})


def _path_cases(app, target) -> Iterator[Case]:
    for rule, method in _rules(app):
        for name in rule.arguments:
            assert name in PATH_VALUES, f"{rule.rule}: add hostile values for path parameter {name} to PATH_VALUES"
            for value in PATH_VALUES[name]:
                path = _path(rule, target, **{name: value})
                yield Case(f"path {name}={_short(value)}", rule.rule, method, path)


# Header values no route may answer with a 5xx (each replaces the header of the same name).
HOSTILE_HEADERS = {
    "non-ASCII basic credentials": {"Authorization": "Basic \u00e9\u00e9"},
    "undecodable basic credentials": {"Authorization": "Basic " + base64.b64encode(b"\xff\xfe:\x00").decode()},
    "non-ASCII bearer token": {"Authorization": "Bearer \u00ff.\u00ff.\u00ff"},
    "huge bearer token": {"Authorization": "Bearer " + "a." * 3000},
    "non-ASCII request id": {"X-Request-Id": "\u00e9" * 100},
    "non-ASCII signature": {"X-Signature": "sha256=\u00e9"},
    "odd content type": {"Content-Type": "application/json; charset=ebcdic"},
}


def _header_cases(app, target) -> Iterator[Case]:
    for rule, method in _rules(app):
        for label, headers in HOSTILE_HEADERS.items():
            kwargs = {"headers": headers, "data": b"{}"} if method == "POST" else {"headers": headers}
            yield Case(label, rule.rule, method, _path(rule, target), kwargs)


def _send(client, auth, case: Case):
    headers = {**auth(), **case.kwargs.get("headers", {})}
    kwargs = {k: v for k, v in case.kwargs.items() if k != "headers"}
    return client.open(case.path, method=case.method, headers=headers, **kwargs)


def _problem(case: Case, response, *, expect_400: bool, may_succeed: bool = False) -> str | None:
    """What is wrong with the answer to ``case``, or None."""
    status = response.status_code
    if may_succeed and status < 400:
        return None
    if not 400 <= status < 500:
        return f"answered {status}"
    if expect_400 and status != 400 and not (case.rule in SIGNING_SECRETS and status == 401):
        return f"answered {status}, not 400"
    body = response.get_json(silent=True)
    if not isinstance(body, dict):
        return f"answered {status} without a JSON body"
    if case.rule in FORM_ROUTES and "error" in body and "statusCode" not in body:
        return None  # RFC 6749 body of the token route
    if body.get("statusCode") != status or not isinstance(body.get("message"), str) or not body.get("error"):
        return f"answered {status} without the spec's error body: {body}"
    if case.field_name and status == 400:
        named = (body.get("details") or {}).get("field") or ""
        root = case.field_name.split(".")[0]
        if not (named == root or named.startswith(root + ".") or named.startswith(root + "[")):
            return f"answered 400 naming field {named!r}, not {case.field_name!r}"
    return None


def _run(client, auth, cases: Iterator[Case], *, expect_400: bool, may_succeed: bool = False) -> None:
    failures, count = [], 0
    for case in cases:
        before = _row_counts()
        response = _send(client, auth, case)
        count += 1
        problem = _problem(case, response, expect_400=expect_400, may_succeed=may_succeed)
        if problem is None and _row_counts() != before:
            problem = "wrote a row"
        if problem:
            failures.append(f"{case.method} {case.rule} [{case.label}]: {problem}")
    assert count, "the matrix generated no case"
    assert not failures, f"{len(failures)} of {count} hostile requests misbehaved:\n" + "\n".join(failures)


def test_every_schema_field_refuses_hostile_values(app, client, auth, target):
    _run(client, auth, _field_cases(app, target), expect_400=True)


def test_every_route_that_takes_a_body_refuses_hostile_bodies(app, client, auth, target):
    _run(client, auth, _body_shape_cases(app, target), expect_400=True)


def test_every_route_refuses_control_characters_in_the_query_string(app, client, auth, target):
    _run(client, auth, _query_cases(app, target), expect_400=True)


def test_every_path_parameter_refuses_or_misses_hostile_values(app, client, auth, target):
    _run(client, auth, _path_cases(app, target), expect_400=False)


def test_every_route_survives_hostile_headers(app, client, auth, target):
    # A header a route ignores may leave it answering 2xx; none may answer 5xx, nor write a row
    # (the target proposal is CREATED: no POST acts on it with an empty body)
    _run(client, auth, _header_cases(app, target), expect_400=False, may_succeed=True)


def test_control_characters_outside_the_fields_read_are_dropped_unread(client, auth):
    # The document lets a body carry fields a route does not declare; they are dropped before the
    # use case, so whatever they hold (keys included) neither refuses the request nor is stored
    body = {**EXAMPLES["StartRequest"], "\x1b[2J": "Ma\x00ria", "note": ["\x07", {"k\x00": 1}]}
    response = client.post("/v1/proposals/start", json=body, headers=auth())
    assert response.status_code == 201
    stored = client.get(f"/v1/proposals/{response.get_json()['proposal_id']}", headers=auth()).get_json()
    assert stored["full_name"] == "MARIA DA SILVA" and "note" not in stored
    assert "\\u0000" not in json.dumps(stored) and "\\u001b" not in json.dumps(stored)


def test_every_route_answers_an_oversized_body_413(app, client, auth, target):
    limit = runtime.current().settings.request_body_max_bytes
    failures = []
    for rule, method in _rules(app):
        before = _row_counts()
        response = client.open(
            _path(rule, target),
            method=method,
            headers=auth(),
            data=b"{" + b" " * limit + b"}",
            content_type="application/json",
        )
        body = response.get_json(silent=True) or {}
        if (response.status_code, body.get("statusCode"), body.get("errorCode")) != (413, 413, "PAYLOAD_TOO_LARGE"):
            failures.append(f"{method} {rule.rule}: {response.status_code} {body}")
        elif _row_counts() != before:
            failures.append(f"{method} {rule.rule}: wrote a row")
    assert not failures, "\n".join(failures)


def test_every_route_answers_a_method_it_lacks_405_with_allow(app, client, auth, target):
    failures = []
    for rule in app.url_map.iter_rules():
        response = client.open(_path(rule, target), method="DELETE", headers=auth())
        allowed = {m.strip() for m in response.headers.get("Allow", "").split(",") if m.strip()}
        body = response.get_json(silent=True) or {}
        if response.status_code != 405 or body.get("statusCode") != 405 or not rule.methods <= allowed:
            failures.append(f"DELETE {rule.rule}: {response.status_code}, Allow {sorted(allowed)}")
    assert not failures, "\n".join(failures)


def test_the_matrix_knows_every_request_schema(app):
    # A schema used by a route but missing from EXAMPLES would make the field matrix fail; this names
    # them all at once.
    used = {type(schema).__name__ for rule, method in _rules(app) for _, schema in _schemas(app, rule, method)}
    assert used <= set(EXAMPLES), f"add examples for {sorted(used - set(EXAMPLES))}"
