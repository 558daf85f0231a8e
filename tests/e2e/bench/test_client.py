"""The benchmark client tells a route the service does not have from a 404 of a route it has
(its pure helpers: tests/unit/bench/test_client.py)."""

import pytest
import requests

from bench.client import RouteMissing, _raise_if_route_missing


def _response(status: int, body: str) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = body.encode()
    return response


def test_unregistered_route_is_reported_as_missing(client, auth):
    answer = client.post("/v1/no-such-step", headers=auth(), json={})
    with pytest.raises(RouteMissing) as missing:
        _raise_if_route_missing("start", _response(answer.status_code, answer.get_data(as_text=True)))
    assert missing.value.step == "start"
