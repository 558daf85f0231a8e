"""Registers every ops command group found in this package on the Flask CLI."""

from __future__ import annotations

import importlib
import pkgutil

from flask import Flask


def install(app: Flask) -> None:
    package = importlib.import_module(__package__)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name == "commands":
            continue
        module = importlib.import_module(f"{__package__}.{info.name}")
        group = getattr(module, "group", None)
        if group is not None:
            app.cli.add_command(group)
