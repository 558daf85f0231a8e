"""Requests the HTTP server refuses before the app runs are answered in the spec's error body."""

import json
import socket

import pytest

from tests.support.wsgi_server import ServedApp


def _raw(base_url: str, request: bytes) -> tuple[str, dict, dict]:
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in header_lines)}
    return status_line, headers, json.loads(body)


@pytest.mark.parametrize(
    "header, status",
    [(b"Idempotency-Key: a\x7fb", 400), (b"Transfer-Encoding: gzip", 501)],
    ids=["control character in a header value", "a transfer coding the server does not do"],
)
def test_waitress_answers_a_malformed_request_in_the_spec_body(app, header, status):
    with ServedApp(app) as base_url:
        status_line, headers, body = _raw(
            base_url, b"POST /v1/proposals/start HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n\r\n"
        )
    assert status_line.split()[1] == str(status)
    assert headers["content-type"] == "application/json"
    assert body["statusCode"] == status and body["error"] and body["message"]
    assert set(body) == {"statusCode", "message", "error"}


def test_gunicorn_workers_answer_a_malformed_request_in_the_spec_body(monkeypatch):
    import importlib.util

    from gunicorn import util

    from models.settings import ROOT

    monkeypatch.setattr(util, "write_error", util.write_error)  # put back after the test
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "http" / "gunicorn_conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    conf.post_worker_init(worker=None)  # as gunicorn calls it in each worker once the app is loaded

    ours, theirs = socket.socketpair()
    with ours, theirs:
        util.write_error(ours, 400, "Bad Request", "Invalid HTTP Header: 'X-\\x7f'")
        ours.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := theirs.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 Bad Request\r\n")
    assert b"Content-Type: application/json" in head and f"Content-Length: {len(body)}".encode() in head
    assert json.loads(body) == {
        "statusCode": 400,
        "message": "Bad Request: Invalid HTTP Header: 'X-\\x7f'",
        "error": "Bad Request",
    }
