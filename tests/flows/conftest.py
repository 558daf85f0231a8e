"""Contract-path flows run under freezegun: tokens are issued fresh at the frozen time."""
import pytest

from tests.contract_fixtures import fresh_auth_headers


@pytest.fixture
def auth(app):
    return fresh_auth_headers
