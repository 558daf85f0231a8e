"""The production entry points refuse to start in a shape that would lose messages or answer every
callback 401, with a message naming the missing variable (models/settings.py: require_broker and
the callback-secret check). Each runs as ops would start it, in a subprocess; none gets as far as
opening the database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SECRETS = {"JWT_SIGNING_KEY": "k" * 40, "ESIGNATURE_CALLBACK_SECRET": "e" * 32, "FUNDING_CALLBACK_SECRET": "f" * 32}


def _environ(tmp_path, **variables: str) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("AMQP_URL", "APP_ENV", *SECRETS)}
    environ["DATABASE_URL"] = f"sqlite:///{tmp_path}/never-opened.sqlite3"
    environ.update(variables)
    return environ


def _run(args: list[str], environ: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120)


GUNICORN = [str(BIN / "gunicorn"), "--config", "http/gunicorn_conf.py", "--bind", "127.0.0.1:0", "app:create_app()"]
WORKER = [sys.executable, "-c", "import sys; sys.path.insert(0, '.'); import rabbitmq.worker"]
POOLS = [sys.executable, "-m", "rabbitmq.pools", "run"]


@pytest.mark.parametrize("command", [GUNICORN, WORKER, POOLS], ids=["make api", "make worker", "make pools"])
def test_the_api_and_the_pools_refuse_to_start_without_a_broker(tmp_path, command):
    result = _run(command, _environ(tmp_path, APP_ENV="sandbox"))
    assert result.returncode != 0
    assert "AMQP_URL must be set" in result.stderr
    assert not (tmp_path / "never-opened.sqlite3").exists()


@pytest.mark.parametrize("missing", ["ESIGNATURE_CALLBACK_SECRET", "FUNDING_CALLBACK_SECRET"])
def test_production_without_a_callback_secret_stops_naming_it(tmp_path, missing):
    variables = {k: v for k, v in SECRETS.items() if k != missing}
    environ = _environ(tmp_path, APP_ENV="production", AMQP_URL="amqp://guest:guest@127.0.0.1:1/%2F", **variables)
    result = _run(GUNICORN, environ)
    assert result.returncode != 0
    assert f"{missing} must be set for the production environment" in result.stderr


def test_the_embedded_default_keeps_its_in_process_broker(tmp_path):
    # `make run` (python app.py) bootstraps as the API with the in-process broker and worker
    code = "import app; rt = app.bootstrap(); print(rt.settings.uses_rabbitmq)"
    result = _run([sys.executable, "-c", code], _environ(tmp_path, APP_ENV="sandbox"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "False"
