"""Production has no sandbox test clock: the route is not mounted and the published document does
not list it (the sandbox clock's own refusal is in tests/e2e/http/routes/credit/test_sandbox_clock.py).
The app is created as production would, in a subprocess on a private SQLite file."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.e2e.test_safe_start_up import ROOT, SECRETS, _environ

CODE = """
import json, app
flask_app = app.create_app()
rules = sorted(r.rule for r in flask_app.url_map.iter_rules() if "advance" in r.rule)
paths = sorted(p for p in flask_app.test_client().get("/v1/openapi.json").get_json()["paths"] if "advance" in p)
print(json.dumps({"rules": rules, "paths": paths}))
"""


def test_production_mounts_no_sandbox_clock(tmp_path):
    environ = _environ(tmp_path, APP_ENV="production", DATABASE_URL=f"sqlite:///{tmp_path}/production.sqlite3")
    environ.update(SECRETS)
    environ.pop("AMQP_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", CODE], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"rules": [], "paths": []}
