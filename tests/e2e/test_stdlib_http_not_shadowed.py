"""The project's http/ folder never hides Python's own `http` module, from any entry point."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _run(args: list[str]) -> dict:
    env = {**os.environ}
    result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _assert_stdlib(report: dict) -> None:
    assert report["http_is_stdlib"] is True, report
    assert report["http_client_ok"] and report["requests_session_ok"]
    assert report["test_client_status"] == 200


def test_under_pytest(client):
    import http
    import http.client

    import requests

    assert Path(http.__file__).parent != ROOT / "http"
    assert http.client.HTTPConnection and requests.Session
    assert client.get("/health/live").status_code == 200


def test_from_the_api_entry_point():
    # `python app.py` puts the project root first on sys.path, as `-c` with cwd=ROOT does.
    _assert_stdlib(
        _run(
            [
                sys.executable,
                "-c",
                "import json, app; from httpapi.cli.doctor import report; print(json.dumps(report()))",
            ]
        )
    )


def test_from_the_flask_cli():
    _assert_stdlib(_run([str(BIN / "flask"), "--app", "app:create_app", "doctor", "imports"]))


def test_from_the_worker_entry_point():
    # The dramatiq CLI inserts the working directory on sys.path and imports rabbitmq.worker.
    code = (
        "import json, sys; sys.path.insert(0, '.'); import rabbitmq.worker; "
        "from httpapi.cli.doctor import report; print(json.dumps(report()))"
    )
    _assert_stdlib(_run([sys.executable, "-c", code]))


@pytest.mark.skipif(not (BIN / "gunicorn").exists(), reason="gunicorn not installed")
def test_gunicorn_loads_the_app():
    result = subprocess.run(
        [str(BIN / "gunicorn"), "--check-config", "app:create_app()"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert result.returncode == 0, result.stderr[-2000:]
