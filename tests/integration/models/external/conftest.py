"""External adapters against local HTTP servers (the simulator, a webhook receiver): network I/O on
the loopback, no app, database or broker."""

import pytest

from models.external.http_base import HttpClient
from tests.integration.models.external.simulator import Simulator


@pytest.fixture
def simulator():
    sim = Simulator()
    yield sim
    sim.close()


@pytest.fixture
def http_client(simulator):
    return HttpClient(simulator.url, connect_timeout=1, read_timeout=2, retries=2, name="test", backoff_seconds=0.01)


@pytest.fixture
def clean_database():
    """Overrides the layer's autouse fixture: these tests boot no app and write no table."""
