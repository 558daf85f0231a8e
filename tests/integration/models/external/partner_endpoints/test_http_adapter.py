"""The requests adapter against a local receiver: status, snippet, timeout, refused connection."""

from __future__ import annotations

import pytest

from models.external.partner_endpoints.http_adapter import HttpPartnerEndpoints
from tests.support.receiver import LocalReceiver


@pytest.fixture
def local():
    servers = []

    def start(**kwargs):
        servers.append(LocalReceiver(**kwargs).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def test_a_2xx_is_ok_and_the_body_and_headers_arrive_unchanged(local):
    server = local()
    response = HttpPartnerEndpoints().post(server.url(), b'{"a":1}', {"X-Test": "yes"}, timeout=2)
    assert (response.ok, response.status_code, response.snippet) == (True, 200, '{"received":true}')
    assert server.received[0].body == b'{"a":1}' and server.received[0].headers["X-Test"] == "yes"


def test_a_4xx_is_reported_as_not_ok(local):
    response = HttpPartnerEndpoints().post(local(default=404).url(), b"{}", {}, timeout=2)
    assert (response.ok, response.status_code, response.error) == (False, 404, None)


def test_the_snippet_is_truncated(local):
    response = HttpPartnerEndpoints(snippet_chars=5).post(local().url(), b"{}", {}, timeout=2)
    assert response.snippet == '{"rec'


def test_a_slow_answer_is_a_timeout(local):
    response = HttpPartnerEndpoints().post(local(delay=0.5).url(), b"{}", {}, timeout=0.2)
    assert (response.status_code, response.error) == (None, "timeout after 0.2s")


def test_a_closed_port_is_a_connection_error(local):
    server = local()
    url = server.url()
    server.stop()
    response = HttpPartnerEndpoints().post(url, b"{}", {}, timeout=1)
    assert response.status_code is None and response.error.startswith("connection error")
