"""Suite-wide: choose the backend environment once per run, before any test module imports the
service (tests/backends.py). Nothing here boots the app or connects to a database or broker.

Three layers, by folder (README, Tests):
  tests/unit/         pure code: no Flask app, broker or database (a guard in its conftest.py)
  tests/integration/  services, actors, the outbox relay, adapters: the database and the broker
  tests/e2e/          through the Flask app and its test client: routes, flows, CLI, OAuth
and, outside the default paths, tests/fault/ (`make test-fault`): the production shape on servers
of its own while they fail.
The integration and e2e layers boot the service stack in their conftest.py (tests/support/stack.py).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests import backends

UNIT_DIR = Path(__file__).parent / "unit"
# tests/fault runs servers of its own (bench/private_services.py), not the shared ones.
FAULT_DIR = Path(__file__).parent / "fault"

_TMP = tempfile.mkdtemp(prefix="loans-tests-")
_MISSING = backends.services_missing()
if not _MISSING:
    backends.configure_environment(_TMP)


def pytest_report_header(config):
    if backends.BACKEND == "services":
        state = f"MISSING {', '.join(_MISSING)}" if _MISSING else "PostgreSQL + RabbitMQ"
        return f"backend: services ({state}); tests/unit uses none"
    return "backend: SQLite file + in-process broker; tests/unit uses none"


def pytest_collection_modifyitems(config, items):
    needing_services = [
        item for item in items if not item.path.is_relative_to(UNIT_DIR) and not item.path.is_relative_to(FAULT_DIR)
    ]
    if not _MISSING or not needing_services:
        return
    message = (
        "real-service tests need "
        + " and ".join(_MISSING)
        + "; start them (see README) or run the SQLite suite with TEST_BACKEND=sqlite"
    )
    if backends.IN_CI:
        pytest.exit(f"CI=true but {message}", returncode=3)
    for item in needing_services:
        item.add_marker(pytest.mark.skip(reason=message))
