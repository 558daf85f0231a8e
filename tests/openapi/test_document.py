"""The served document is valid OpenAPI 3.0, and every route declares what it can answer."""

from __future__ import annotations

from openapi_spec_validator import validate

METHODS = ("get", "post", "put", "patch", "delete")
NO_BODY_STATUSES = {"204"}


def _operations(document):
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def test_the_served_document_is_valid_openapi_3(document):
    assert document["openapi"].startswith("3.0")
    validate(document)  # raises with the first violation


def test_every_operation_has_a_unique_operation_id(document):
    ids = [operation.get("operationId") for _, _, operation in _operations(document)]
    assert None not in ids
    assert len(ids) == len(set(ids))


def test_every_status_of_every_route_is_declared_with_a_schema(document):
    """No catch-all "default" response, and each declared status names the body it carries."""
    missing = []
    for path, method, operation in _operations(document):
        responses = operation["responses"]
        assert "default" not in responses, f"{method.upper()} {path} has a catch-all response"
        for status, response in responses.items():
            if status in NO_BODY_STATUSES:
                assert "content" not in response
                continue
            content = response.get("content") or {}
            if not any(media.get("schema") for media in content.values()) and "application/pdf" not in content:
                missing.append(f"{method.upper()} {path} {status}")
    assert missing == []


def test_every_versioned_route_declares_its_error_statuses(document):
    for path, method, operation in _operations(document):
        if not path.startswith("/v1/"):
            continue
        declared = set(operation["responses"])
        assert {"401", "500"} <= declared, f"{method.upper()} {path}"
        if "{proposal_id}" in path:
            assert {"403", "404"} <= declared, f"{method.upper()} {path}"
        if "requestBody" in operation or any(p["in"] == "query" for p in operation.get("parameters", [])):
            assert "400" in declared, f"{method.upper()} {path}"
        for status in declared - {"200", "201", "202", "204"}:
            schema = operation["responses"][status]["content"]["application/json"]["schema"]
            assert schema["$ref"] in ("#/components/schemas/Error", "#/components/schemas/TerminalStatus")


def test_request_constraints_the_service_enforces_are_declared(document):
    schemas = document["components"]["schemas"]
    start = schemas["StartRequest"]["properties"]
    assert start["cpf"]["format"] == "cpf" and start["cpf"]["pattern"] == "^[0-9]{11}$"
    assert start["full_name"]["pattern"] and start["full_name"]["maxLength"] == 200
    assert start["birth_date"]["format"] == "date"
    assert schemas["ContactRequest"]["properties"]["phone"]["pattern"]
    assert schemas["ContactRequest"]["properties"]["email"]["format"] == "email"
    analysis = schemas["CreditAnalysisRequest"]["properties"]
    assert analysis["ip"]["format"] == "ip"
    assert schemas["ContractRequest"]["properties"]["signature_redirect_url"]["pattern"].startswith("^https?://")
    simulate = schemas["SimulateRequest"]
    assert simulate["oneOf"] == [{"required": ["installments"]}, {"required": ["loan_amount"]}]
    assert simulate["properties"]["loan_amount"]["minimum"] == 0  # a number, not "0"
    for name, schema in schemas.items():
        for field, definition in (schema.get("properties") or {}).items():
            for bound in ("minimum", "maximum"):
                assert not isinstance(definition.get(bound), str), f"{name}.{field}.{bound}"


def test_the_document_and_its_docs_page_are_served_offline(app):
    client = app.test_client()
    page = client.get("/v1/docs/")
    assert page.status_code == 200 and b"/v1/openapi.json" in page.data
    asset = client.get("/v1/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.data) > 100_000
