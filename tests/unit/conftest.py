"""Unit layer: pure code (domain rules, settings, pure service helpers, the PDF renderer, sandbox
adapters, bench helpers). No Flask app, no broker, no database: a test that needs one belongs in
tests/integration or tests/e2e.

The guard:
* every unit test runs with database connections refused (SQLite, PostgreSQL, any peewee
  database), in any run;
* a run of the unit layer alone (``make test-unit``) fails if flask, dramatiq or pika was imported,
  naming the import chain from the test file that pulled it in. In a run of several layers the
  others import them, so only connections are guarded there.
"""

from __future__ import annotations

import importlib.abc
import sqlite3
import sys
import traceback
from pathlib import Path

import pytest

UNIT_DIR = Path(__file__).parent
ROOT = UNIT_DIR.parent.parent
FORBIDDEN = ("flask", "dramatiq", "pika")


class _ImportWitness(importlib.abc.MetaPathFinder):
    """Notes which project files led to the first import of a forbidden package (imports nothing)."""

    def __init__(self) -> None:
        self.chains: dict[str, list[str]] = {}

    def find_spec(self, fullname, path=None, target=None):
        if fullname in FORBIDDEN and fullname not in self.chains:
            self.chains[fullname] = [
                f"{Path(frame.filename).relative_to(ROOT)}:{frame.lineno}"
                for frame in traceback.extract_stack()
                if Path(frame.filename).is_relative_to(ROOT)
                and ".venv" not in Path(frame.filename).parts
                and Path(frame.filename) != Path(__file__)
            ]
        return None  # let the real finders import it

    def report(self, names) -> str:
        return "; ".join(f"{name} via {' -> '.join(self.chains.get(name) or ['(already imported)'])}" for name in names)


_witness = _ImportWitness()
sys.meta_path.insert(0, _witness)
_unit_only = False


def _forbidden_imported() -> list[str]:
    return [name for name in FORBIDDEN if name in sys.modules]


def pytest_collection_finish(session):
    global _unit_only
    _unit_only = bool(session.items) and all(item.path.is_relative_to(UNIT_DIR) for item in session.items)
    if _unit_only and _forbidden_imported():
        pytest.exit(
            "unit tests must not import flask, dramatiq or pika: " + _witness.report(_forbidden_imported()),
            returncode=pytest.ExitCode.TESTS_FAILED,
        )


def _refuse_connection(*args, **kwargs):
    raise AssertionError("a unit test opened a database connection; it belongs in tests/integration")


@pytest.fixture(autouse=True)
def _no_service(monkeypatch):
    monkeypatch.setattr(sqlite3, "connect", _refuse_connection)
    if "psycopg2" in sys.modules:
        monkeypatch.setattr(sys.modules["psycopg2"], "connect", _refuse_connection)
    if "peewee" in sys.modules:
        monkeypatch.setattr(sys.modules["peewee"].Database, "connect", _refuse_connection)
    before = set(_forbidden_imported())
    yield
    added = [name for name in _forbidden_imported() if name not in before]
    if _unit_only and added:
        pytest.fail("this unit test imported " + _witness.report(added), pytrace=False)


def pytest_sessionfinish(session, exitstatus):
    # Anything imported outside a test (a thread, a finalizer) still fails a unit-only run.
    if _unit_only and _forbidden_imported() and exitstatus == pytest.ExitCode.OK:
        session.config.get_terminal_writer().line(
            "unit run imported " + _witness.report(_forbidden_imported()), red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
