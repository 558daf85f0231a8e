"""Request guards and edge rules through the app: body size before reading, chunked bodies, request
ids, callback signature headers, the Unicode-digit CPF, names as HR systems send them, and the
simulation bounds checked before anything is stored (the whole matrix: test_hostile_inputs.py)."""

from __future__ import annotations

import io
import json
import time
import unicodedata

import pytest
from werkzeug.test import EnvironBuilder, run_wsgi_app

from models import runtime
from models.db.proposals import Proposal, StatusChange
from models.db.simulations import Simulation
from tests import builders
from tests.support.log_capture import captured_logs

START = {"cpf": "52998224725", "full_name": "Maria da Silva", "birth_date": "1985-04-12"}


class Unreadable(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise AssertionError("the body was read")


def _raw_request(app, path: str, *, headers: dict, stream, content_length: int | None) -> tuple[int, dict]:
    environ = EnvironBuilder(path=path, method="POST", headers=headers).get_environ()
    environ["wsgi.input"] = stream
    if content_length is None:
        environ.pop("CONTENT_LENGTH", None)
        environ["wsgi.input_terminated"] = True  # the server de-chunked it (gunicorn, werkzeug)
    else:
        environ["CONTENT_LENGTH"] = str(content_length)
    body, status, _ = run_wsgi_app(app.wsgi_app, environ, buffered=True)
    return int(status.split()[0]), json.loads(b"".join(body) or b"null")


@pytest.mark.parametrize(
    "path, content_type",
    [
        ("/v1/proposals/start", "application/json"),
        ("/callbacks/esignature", "application/json"),
        ("/callbacks/funding", "application/json"),
        ("/oauth2/token", "application/x-www-form-urlencoded"),
    ],
)
def test_a_declared_size_over_the_limit_is_413_before_the_body_is_read(app, auth, path, content_type):
    limit = runtime.current().settings.request_body_max_bytes
    status, body = _raw_request(
        app, path, headers={**auth(), "Content-Type": content_type}, stream=Unreadable(), content_length=limit + 1
    )
    assert (status, body["statusCode"], body["error"], body["errorCode"]) == (
        413,
        413,
        "Request Entity Too Large",
        "PAYLOAD_TOO_LARGE",
    )
    assert body["message"] == f"Request body larger than {limit} bytes"


@pytest.mark.parametrize(
    "path, content_type, payload",
    [
        ("/v1/proposals/start", "application/json", b'{"full_name": "' + b"x" * (2 << 20) + b'"}'),
        ("/oauth2/token", "application/x-www-form-urlencoded", b"client_id=" + b"x" * (2 << 20)),
        ("/callbacks/funding", "application/json", b'{"reason": "' + b"x" * (2 << 20) + b'"}'),
    ],
)
def test_a_chunked_body_is_cut_at_the_limit(app, auth, path, content_type, payload):
    # Given a body without Content-Length (chunked), larger than the limit
    status, body = _raw_request(
        app, path, headers={**auth(), "Content-Type": content_type}, stream=io.BytesIO(payload), content_length=None
    )
    # Then it is refused while read, in the spec's error body
    assert (status, body["statusCode"], body["errorCode"]) == (413, 413, "PAYLOAD_TOO_LARGE")


def test_a_chunked_body_under_the_limit_is_served(app, auth):
    status, body = _raw_request(
        app,
        "/v1/proposals/start",
        headers={**auth(), "Content-Type": "application/json"},
        stream=io.BytesIO(json.dumps(START).encode()),
        content_length=None,
    )
    assert status == 201 and body["status"] == "CREATED"


def test_deep_json_is_400_not_500(client, auth):
    response = client.post(
        "/v1/proposals/start", data="[" * 100_000 + "]" * 100_000, content_type="application/json", headers=auth()
    )
    assert response.status_code == 400 and response.get_json()["errorCode"] == "INVALID_JSON"


@pytest.mark.parametrize("signature", ["sha256=é", "sha256=\u00ff" * 40, "ü", ""])
@pytest.mark.parametrize("path", ["/callbacks/esignature", "/callbacks/funding"])
def test_a_non_ascii_signature_header_is_401(client, path, signature):
    response = client.post(path, data=b"{}", content_type="application/json", headers={"X-Signature": signature})
    assert response.status_code == 401 and response.get_json()["errorCode"] == "INVALID_SIGNATURE"


def test_a_safe_request_id_is_kept_and_recorded(client, auth):
    response = client.post("/v1/proposals/start", json=START, headers={**auth(), "X-Request-Id": "partner-req-42"})
    assert response.headers["X-Request-Id"] == "partner-req-42"
    assert StatusChange.get(StatusChange.proposal == response.get_json()["proposal_id"]).request_id == "partner-req-42"


@pytest.mark.parametrize("sent", ["r" * 65, "r" * 5000, "req id", "req\u00e9", "<script>"])
def test_a_long_or_unsafe_request_id_is_replaced_and_the_write_succeeds(client, auth, sent):
    response = client.post("/v1/proposals/start", json=START, headers={**auth(), "X-Request-Id": sent})
    assert response.status_code == 201
    replaced = response.headers["X-Request-Id"]
    assert replaced != sent and len(replaced) == 32
    assert StatusChange.get(StatusChange.proposal == response.get_json()["proposal_id"]).request_id == replaced


def test_log_lines_of_a_request_name_its_origin(client, auth):
    with captured_logs() as handler:
        client.get("/v1/proposals", headers={**auth("PARTNER_B"), "X-Request-Id": "copied-from-a"})
    access = [entry for entry in handler.entries() if entry["logger"] == "access"]
    assert access and all(entry["origin"] == "PARTNER_B" for entry in access)


def test_a_cpf_with_a_unicode_digit_is_400_and_skips_nothing(client, auth):
    # Given the CPF already has an approved proposal (a new one must be refused with a 409)
    builders.proposal(cpf="52998224725", path=("TOKEN_SENT", "TOKEN_VALIDATED", "ANALYSIS_APPROVED"))
    # When the same CPF arrives with a fullwidth last digit
    response = client.post("/v1/proposals/start", json={**START, "cpf": "5299822472\uff15"}, headers=auth())
    # Then it is refused as invalid: no second proposal for the same person
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "cpf"
    assert Proposal.select().count() == 1


@pytest.mark.parametrize(
    "sent, stored",
    [
        ("Joana D\u2019Ávila", "JOANA D'ÁVILA"),
        (unicodedata.normalize("NFD", "José Conceição"), "JOSÉ CONCEIÇÃO"),
        ("Maria  da   Silva", "MARIA DA SILVA"),
    ],
)
def test_names_as_hr_systems_send_them_are_accepted_normalised(client, auth, sent, stored):
    response = client.post("/v1/proposals/start", json={**START, "full_name": sent}, headers=auth())
    assert response.status_code == 201 and response.get_json()["full_name"] == stored
    assert Proposal.get_by_id(response.get_json()["proposal_id"]).full_name == stored


@pytest.mark.parametrize(
    "body, field",
    [
        ({"installments": 2**31}, "installments"),
        ({"installments": 97}, "installments"),
        ({"loan_amount": "1e999999999"}, "loan_amount"),
        ({"loan_amount": 150000.01}, "loan_amount"),
        ({"loan_amount": "5000.001"}, "loan_amount"),
    ],
)
def test_simulation_outside_the_products_limits_is_400_at_once_and_stores_nothing(client, auth, body, field):
    proposal = builders.pre_accepted_proposal()
    started = time.monotonic()
    response = client.post(f"/v1/proposals/{proposal.id}/simulate", json=body, headers=auth())
    assert response.status_code == 400 and response.get_json()["details"]["field"] == field
    assert time.monotonic() - started < 2  # not the 10-second wait for an actor that fails
    assert Simulation.select().count() == 0


def test_a_redirect_url_longer_than_its_column_is_400(client, auth):
    proposal = builders.pre_accepted_proposal()
    url = "https://partner.example/" + "a" * 500
    response = client.post(
        f"/v1/proposals/{proposal.id}/contract", json={"signature_redirect_url": url}, headers=auth()
    )
    assert response.status_code == 400 and response.get_json()["details"]["field"] == "signature_redirect_url"
