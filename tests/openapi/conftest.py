"""The published document as the contract: validated, fuzzed against the app, and used to generate
the client that runs a partner's journey (README, "The OpenAPI document is the contract").

This layer runs the service like tests/e2e (fixtures of tests/support/service_fixtures.py) and
reads the document it serves at /v1/openapi.json.
"""

from __future__ import annotations

import pytest

from tests.support.service_fixtures import app, broker, clean_database, worker


@pytest.fixture
def document(app):
    """The OpenAPI document as served."""
    return app.test_client().get("/v1/openapi.json").get_json()


@pytest.fixture
def access_token(app):
    """A sandbox partner's access token, issued the way /oauth2/token issues it (for its current
    credential and token generation)."""
    from models import runtime
    from models.services.partners.accounts import partner_token

    return partner_token(runtime.current().settings, "PARTNER_A")["access_token"]
