"""Every error a client can provoke answers in the specification's error body."""

import pytest
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate


class _EchoSchema(Schema):
    cpf = fields.String(required=True, validate=validate.Regexp(r"^\d{11}$"))
    amount = fields.Decimal(required=True)


@pytest.fixture(scope="module")
def echo_client(app):
    """A second app from the same composition root, with one validated route to exercise."""
    import app as composition

    application = composition.create_app()
    blp = Blueprint("echo_for_tests", __name__)

    @blp.route("/echo", methods=["POST"])
    @blp.arguments(_EchoSchema)
    def echo(body):
        return {"ok": True}

    @blp.route("/boom")
    def boom():
        raise RuntimeError("secret internals")

    @blp.route("/domain-error")
    def domain_error():
        from models.domain.errors import DomainError

        raise DomainError("no margin", error_code="NO_MARGIN", details={"reason": "x"}, http_status=422)

    application.extensions["flask-smorest"]["apis"][""]["ext_obj"].register_blueprint(blp, url_prefix="/v1")
    return application.test_client()


def _assert_error(response, status, error):
    assert response.status_code == status
    body = response.get_json()
    assert body["statusCode"] == status and body["error"] == error and body["message"]
    return body


def test_unknown_route(client, auth):
    body = _assert_error(client.get("/v1/does-not-exist", headers=auth()), 404, "Not Found")
    assert "/v1/does-not-exist" in body["message"]


def test_unknown_route_outside_the_api(client):
    _assert_error(client.get("/nothing-here"), 404, "Not Found")


def test_wrong_method(client):
    _assert_error(client.get("/oauth2/token"), 405, "Method Not Allowed")


def test_malformed_json(echo_client, auth):
    response = echo_client.post("/v1/echo", data="{not json", headers={**auth(), "Content-Type": "application/json"})
    body = _assert_error(response, 400, "Bad Request")
    assert body["errorCode"] == "INVALID_JSON"


def test_wrong_content_type(echo_client, auth):
    response = echo_client.post("/v1/echo", data="cpf=1", headers={**auth(), "Content-Type": "text/plain"})
    body = _assert_error(response, 400, "Bad Request")
    assert body["errorCode"] == "INVALID_CONTENT_TYPE"


def test_schema_validation_is_400_with_the_field(echo_client, auth):
    response = echo_client.post("/v1/echo", json={"cpf": "123", "amount": "10.00"}, headers=auth())
    body = _assert_error(response, 400, "Bad Request")
    assert body["errorCode"] == "VALIDATION_ERROR"
    assert body["details"]["field"] == "cpf"


def test_missing_required_field(echo_client, auth):
    response = echo_client.post("/v1/echo", json={"cpf": "12345678901"}, headers=auth())
    body = _assert_error(response, 400, "Bad Request")
    assert body["details"]["field"] == "amount"


def test_valid_body_passes(echo_client, auth):
    response = echo_client.post("/v1/echo", json={"cpf": "12345678901", "amount": "10.00"}, headers=auth())
    assert response.status_code == 200 and response.get_json() == {"ok": True}


def test_unexpected_error_is_a_500_without_internals(echo_client, auth):
    body = _assert_error(echo_client.get("/v1/boom", headers=auth()), 500, "Internal Server Error")
    assert "secret internals" not in body["message"] and "Traceback" not in str(body)


def test_domain_error_uses_its_status_and_code(echo_client, auth):
    body = _assert_error(echo_client.get("/v1/domain-error", headers=auth()), 422, "Unprocessable Entity")
    assert body["errorCode"] == "NO_MARGIN" and body["details"] == {"reason": "x"}
