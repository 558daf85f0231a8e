"""The runtime of this process: its typed settings and its ports, built once by the composition root.

``app.bootstrap`` loads the settings, builds the ports and installs them here before any actor or
route module is imported. Only the edges read the runtime: routes, presenters and ops commands
(``http/``), actors, ``rabbitmq/``, ``app.py``, the benchmarks and the tests. They pass each use
case what it needs as keyword parameters; ``models/services`` and ``models/domain`` never import
this module (tests/unit/test_layers.py).

A test that needs a fake adapter or other settings for a whole flow (routes and actors together)
installs a runtime built with ``dataclasses.replace`` and puts the booted one back afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.external.ports import Ports
from models.settings import Settings


@dataclass(frozen=True)
class Runtime:
    settings: Settings
    ports: Ports


_installed: Runtime | None = None


def install(runtime: Runtime) -> Runtime:
    """Make ``runtime`` the one the edges read (bootstrap; tests swapping a fake in and out)."""
    global _installed
    _installed = runtime
    return runtime


def current() -> Runtime:
    """The installed runtime; an error when ``app.bootstrap()`` has not run in this process."""
    if _installed is None:
        raise RuntimeError("app.bootstrap() has not run in this process: no settings or ports yet")
    return _installed
