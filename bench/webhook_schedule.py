"""Measure the real status-webhook retry schedule against a local receiver.

    .venv/bin/python bench/webhook_schedule.py [--failures 3] [--runs 3]

Runs the service's own path (a status change -> outbox -> deliver_status_change actor -> HTTP)
with the production schedule from config.toml [default.webhooks] (0, 1, 2, 4 s), an in-process
broker and worker (as `make run`), a throw-away SQLite file and a receiver on 127.0.0.1 that
answers 503 ``--failures`` times, then 200. Prints each attempt's offset from the first one as
seen by the receiver, and the error against the target (goal: within +-0.5 s).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _environment(tmp: str) -> None:
    os.environ["APP_ENV"] = "sandbox"  # production-shaped schedule; sandbox allows http://127.0.0.1
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.pop("AMQP_URL", None)
    os.environ["LOG_LEVEL"] = "WARNING"


def _one_run(failures: int, proposal_cpf: str) -> list[float]:
    from models.db.partners import Partner
    from models.db.webhooks import WebhookDelivery
    from models.services.partners.accounts import update_partner
    from tests.builders import contacted_proposal
    from tests.support.receiver import LocalReceiver

    receiver = LocalReceiver(script=[503] * failures).start()
    try:
        update_partner(Partner.get(Partner.code == "PARTNER_A"), webhook_url=receiver.url())
        proposal = contacted_proposal(cpf=proposal_cpf)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            delivery = WebhookDelivery.get_or_none(WebhookDelivery.proposal_id == proposal.id)
            if delivery is not None and delivery.status != "PENDING":
                break
            time.sleep(0.05)
        first = receiver.received[0].at
        return [r.at - first for r in receiver.received]
    finally:
        receiver.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--failures", type=int, default=3, help="503 answers before a 200 (3: four attempts)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    _environment(tempfile.mkdtemp(prefix="webhook-bench-"))

    import app as composition
    from models.db.database import db

    settings = composition.bootstrap(role="api").settings
    worker, sweeper = composition.start_embedded_worker(settings)
    schedule = list(settings.webhooks.status_schedule_seconds)
    print(
        f"schedule (s): {schedule}; receiver fails {args.failures} time(s); worker threads "
        f"{settings.worker.embedded_threads}"
    )
    worst = 0.0
    try:
        db.connect(reuse_if_open=True)
        for run in range(args.runs):
            offsets = _one_run(args.failures, f"{run:011d}")
            cells = []
            for index, offset in enumerate(offsets):
                error = offset - schedule[index]
                worst = max(worst, abs(error))
                cells.append(f"#{index + 1} {offset:6.3f}s ({error:+.3f})")
            print(f"run {run + 1}: " + "  ".join(cells))
    finally:
        sweeper.stop()
        worker.stop()
    print(f"worst deviation from target: {worst:.3f}s ({'within' if worst <= 0.5 else 'OUTSIDE'} +-0.5 s)")


if __name__ == "__main__":
    main()
