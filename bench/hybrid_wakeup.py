"""How fast does a hybrid POST credit-analysis answer once the analysis has finished?

For N proposals it walks start -> contact -> token -> hybrid analysis against the real app with
the in-process broker and worker (SQLite in a temporary directory, sandbox external systems), and
compares the instant the analysis committed (CreditAnalysis.finished_at, written in the actor's
transaction) with the instant the client got the response. Prints p50 / p95 / max in ms.

    .venv/bin/python bench/hybrid_wakeup.py [N]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("APP_ENV", "test")
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='bench-')}/bench.sqlite3"
os.environ.pop("AMQP_URL", None)
CONSENT = {
    "ip": "203.0.113.10",
    "geolocation": {"latitude": -23.55, "longitude": -46.63},
    "document_text": "consent",
    "channel": "web",
}


def _cpf(seed: int) -> str:
    digits = [int(c) for c in f"{200000000 + seed:09d}"]
    for size in (9, 10):
        digits.append((sum(d * (size + 1 - i) for i, d in enumerate(digits)) * 10) % 11 % 10)
    return "".join(map(str, digits))


def main(runs: int) -> None:
    import app as composition
    from models import runtime
    from models.db.analysis import CreditAnalysis
    from models.db.database import db
    from models.db.sandbox import SandboxMessage
    from models.services.partners.accounts import partner_token

    application = composition.create_app()
    settings = runtime.current().settings
    worker, sweeper = composition.start_embedded_worker(settings)
    client = application.test_client()
    with db.connection_context():
        headers = {"Authorization": "Bearer " + partner_token(settings, "PARTNER_A")["access_token"]}
    gaps = []
    try:
        for i in range(runs):
            pid = client.post(
                "/v1/proposals/start",
                json={"cpf": _cpf(i), "full_name": "Bench", "birth_date": "1985-01-01"},
                headers=headers,
            ).get_json()["proposal_id"]
            phone = f"+55119{i:08d}"
            client.post(
                f"/v1/proposals/{pid}/contact", json={"email": "b@example.com", "phone": phone}, headers=headers
            )
            code = SandboxMessage.select().where(SandboxMessage.phone == phone).get().token
            client.post(
                f"/v1/proposals/{pid}/contact/validate-token", json={"token": code, "phone": phone}, headers=headers
            )
            response = client.post(f"/v1/proposals/{pid}/credit-analysis", json=CONSENT, headers=headers)
            answered = datetime.now(timezone.utc)
            assert response.status_code in (200, 201, 202), response.get_json()
            finished = CreditAnalysis.get(CreditAnalysis.proposal == pid).finished_at
            gaps.append((answered - finished).total_seconds() * 1000)
            time.sleep(0.01)
    finally:
        sweeper.stop()
        worker.stop()
    gaps.sort()
    p95 = gaps[max(0, round(0.95 * len(gaps)) - 1)]
    print(
        f"hybrid wake-up over {runs} runs: p50 {statistics.median(gaps):.1f} ms, p95 {p95:.1f} ms, "
        f"max {gaps[-1]:.1f} ms (budget 100 ms)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
