"""Dramatiq actors. Importing this package binds every actor module found here to the broker.

The broker must be chosen first (dramatiq binds actors at import time): app.bootstrap chooses it
and installs the runtime, then imports this package, which refuses to bind actors before that.

Actors are thin: each reads the runtime (``models.runtime``) and passes its use case the ports and
settings sections it needs as keyword parameters.
"""

import importlib
import pkgutil

from rabbitmq.broker import configured_broker

configured_broker()  # raises unless app.bootstrap has chosen the broker

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_info.name}")
