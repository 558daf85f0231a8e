"""Dramatiq actors. Importing this package binds every actor module found here to the broker.

The broker must be chosen first (dramatiq binds actors at import time), so this package asks
rabbitmq.broker for it before importing any actor module.
"""

import importlib
import pkgutil

from rabbitmq.broker import configure_broker

configure_broker()

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_info.name}")
