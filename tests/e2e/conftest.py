"""End-to-end layer: through the Flask app and its test client (routes, flows, the ops CLI, OAuth,
health, metrics) on the chosen backend, with the worker running the queued work (``drain``).
Every test starts from clean tables plus the seeded sandbox partners."""

from __future__ import annotations

import base64

import freezegun
import pytest

from tests.support.openapi_conformance import ConformingClient, DocumentedResponses
from tests.support.service_fixtures import (
    app,
    broker,
    business_day,
    clean_database,
    configure_partner,
    drain,
    held_outbox,
    new_proposal,
    receiver,
    settle,
    use_runtime,
    worker,
)


@pytest.fixture(scope="session")
def documented(app):
    """The served OpenAPI document, against which every e2e response is checked."""
    return DocumentedResponses(app.test_client().get("/v1/openapi.json").get_json())


@pytest.fixture
def client(app, documented):
    """The app's test client; a response the document does not describe fails the test
    (tests/support/openapi_conformance.py)."""
    client = ConformingClient(app, app.response_class, use_cookies=True)
    client.documented = documented
    return client


@pytest.fixture(scope="session")
def _token_cache():
    return {}


@pytest.fixture
def token_for(app, _token_cache):
    """An access token for a sandbox partner, reused while valid at the current (maybe frozen) time,
    as partners are told to; re-issued when the clock has moved outside its validity."""
    from models import runtime
    from models.domain.clock import now
    from models.services.partners.accounts import partner_token

    def get(code: str = "PARTNER_A") -> str:
        at = int(now().timestamp())
        cached = _token_cache.get(code)
        if cached is None or not (cached[1] <= at < cached[2] - 60):
            issued = partner_token(runtime.current().settings, code)
            _token_cache[code] = (issued["access_token"], at, at + issued["expires_in"])
        return _token_cache[code][0]

    return get


@pytest.fixture
def auth(token_for):
    """Headers for a partner: ``client.get(url, headers=auth("PARTNER_B"))``."""

    def headers(code: str = "PARTNER_A") -> dict:
        return {"Authorization": f"Bearer {token_for(code)}", "Accept": "application/json"}

    return headers


def basic_auth(client_id: str, secret: str) -> dict:
    raw = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    return {"Authorization": f"Basic {raw}"}
