"""`doctor imports`: checks that stdlib `http`, flask, requests and the app work from this entry point."""

from __future__ import annotations

import json
import sys

import click
from flask.cli import AppGroup

group = AppGroup("doctor", help="Check this installation and print what was found.")


def report() -> dict:
    """What an entry point sees: where `http` comes from and whether flask and requests work."""
    import http
    import http.client

    import flask
    import requests

    from app import create_app

    stdlib_http = (
        http.__file__ is not None
        and "site-packages" not in http.__file__
        and not http.__file__.startswith(str(__import__("app").ROOT / "http"))
    )
    probe = create_app().test_client().get("/health/live")
    session = requests.Session()
    return {
        "python": sys.version.split()[0],
        "http_module": http.__file__,
        "http_is_stdlib": stdlib_http,
        "http_client_ok": hasattr(http.client, "HTTPConnection"),
        "flask": flask.__version__ if hasattr(flask, "__version__") else "installed",
        "requests": requests.__version__,
        "requests_session_ok": session is not None,
        "test_client_status": probe.status_code,
    }


@group.command("imports")
def imports():
    """Print the import check as JSON (exit 1 when `http` is not the standard library's)."""
    result = report()
    click.echo(json.dumps(result))
    if not result["http_is_stdlib"] or result["test_client_status"] != 200:
        sys.exit(1)
