"""Mean cost per call of four hot paths, in one process, without load:

* ``generate_contract``      - models.services.contract.generation.generate (funding, terms, PDF, signing process)
* ``deliver_status_change``  - models.services.webhooks.status_delivery.deliver (partner without a URL: SKIPPED)
* ``handle_signature_result`` - models.services.contract.signature.handle_result (STARTED, then FINISHED)
* ``GET /v1/proposals/<id>`` - the detail route through the Flask test client

    .venv/bin/python -m bench.actor_costs [--n 40] [--database-url URL] [--baseline main]

Each iteration writes one proposal as the credit path leaves it (BANK_DATA_SUBMITTED with its
consent, analysis and selected offer), then walks it through the four paths, timing each call and
counting its SQL statements. Default database: a fresh SQLite file (the embedded setup);
``--database-url postgresql://...`` uses that (existing, dedicated) database instead.
``--baseline REF`` first runs the same measurement on ``git archive REF`` (a temporary copy with
this script and tests/builders.py added) and prints both side by side. Not a test: figures depend
on the machine.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATHS = ("generate_contract", "deliver_status_change", "handle_signature_result", "GET /v1/proposals/<id>")


class QueryCounter(logging.Handler):
    """Counts the statements peewee executes (it logs each one at DEBUG on the 'peewee' logger)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0

    def emit(self, record) -> None:
        self.count += 1


def _cpf(seed: int) -> str:
    digits = [int(c) for c in f"{seed % 1_000_000_000:09d}"]
    for size in (9, 10):
        digits.append((sum(d * (size + 1 - i) for i, d in enumerate(digits)) * 10) % 11 % 10)
    return "".join(map(str, digits))


def _proposal(cpf: str):
    """A BANK_DATA_SUBMITTED proposal with consent, approved analysis and selected offer, built as the
    tests build it (tests/builders.py), with this benchmark's own pricing and a 96-installment term."""
    from decimal import Decimal

    from models.domain.loan.pricing import Pricing
    from tests.builders import pre_accepted_proposal, with_bank_account

    pricing = Pricing(
        monthly_rate=Decimal("0.0199"),
        tac=Decimal("0.00"),
        insurance_rate=Decimal("0.035"),
        min_amount=Decimal("300.00"),
        max_amount=Decimal("150000.00"),
        min_installment_amount=Decimal("30.00"),
    )
    return with_bank_account(pre_accepted_proposal(cpf=cpf, installments=96, pricing=pricing))


def _access_token(settings) -> str:
    """A PARTNER_A token in the tree being measured (``--baseline`` trees issued tokens that named
    no credential)."""
    try:
        from models.services.partners.accounts import partner_token
    except ImportError:
        from models.services.partners.tokens import issue_token

        return issue_token(settings, origin="PARTNER_A", client_id="bench")["access_token"]
    return partner_token(settings, "PARTNER_A")["access_token"]


def _use_cases() -> tuple:
    """(settings, start, generate, handle_signature_result, deliver) of the tree being measured. ``--baseline`` runs this
    script in older trees too, whose use cases read their settings and adapters themselves (before
    models.runtime existed), so both shapes are accepted."""
    from models.services.contract import generation as contracts
    from models.services.contract import signature as signatures
    from models.services.webhooks import status_delivery

    try:
        from models import runtime
    except ImportError:  # a tree from before the bootstrap passed dependencies explicitly
        from models.settings import current

        return current(), contracts.start, contracts.generate, signatures.handle_result, status_delivery.deliver
    rt = runtime.current()
    settings, ports = rt.settings, rt.ports
    return (
        settings,
        lambda proposal, redirect_url: contracts.start(proposal, redirect_url, contract_settings=settings.contract),
        lambda contract_id: contracts.generate(
            contract_id,
            funding=ports.funding,
            esignature=ports.esignature,
            contract_settings=settings.contract,
            ccb_settings=settings.ccb,
            environment=settings.environment,
        ),
        lambda process_id, event, results: signatures.handle_result(
            process_id,
            event,
            results,
            esignature_settings=settings.esignature,
            contract_settings=settings.contract,
        ),
        lambda change_id: status_delivery.deliver(
            change_id,
            partner_endpoints=ports.partner_endpoints,
            webhooks_settings=settings.webhooks,
            environment=settings.environment,
            credential_environment=settings.credential_environment,
        ),
    )


def _timed(samples: dict, name: str, counter: QueryCounter, call):
    before = counter.count
    started = time.perf_counter()
    result = call()
    samples[name].append((time.perf_counter() - started, counter.count - before))
    return result


def _iteration(samples: dict, counter: QueryCounter, client, headers: dict, cpf: str, detail_reads: int) -> None:
    from models.db.contracts import Contract
    from models.db.database import db
    from models.db.proposals import StatusChange
    from models.external.esignature.sandbox import PASSING_RESULTS
    from models.services.platform.locks import locked_proposal
    from models.services.platform.unit_of_work import unit_of_work

    _, start, generate, handle_result, deliver = _use_cases()
    with db.connection_context():
        proposal = _proposal(cpf)
        with unit_of_work():
            contract = start(locked_proposal(proposal.id), None)
    with db.connection_context():  # an actor message: one connection per message
        _timed(samples, "generate_contract", counter, lambda: generate(contract.id))
    process_id = Contract.get_by_id(contract.id).unico_process_id
    for event, results in (("PROCESS_STARTED", {}), ("PROCESS_FINISHED", PASSING_RESULTS)):
        with db.connection_context():
            _timed(
                samples,
                "handle_signature_result",
                counter,
                lambda event=event, results=results: handle_result(process_id, event, dict(results)),
            )
    changes = [
        c.id
        for c in StatusChange.select(StatusChange.id)
        .where(StatusChange.proposal == proposal.id)
        .order_by(StatusChange.sequence)
    ]
    for change_id in changes:
        with db.connection_context():
            _timed(
                samples,
                "deliver_status_change",
                counter,
                lambda change_id=change_id: deliver(change_id),
            )
    for _ in range(detail_reads):
        response = _timed(
            samples,
            "GET /v1/proposals/<id>",
            counter,
            lambda: client.get(f"/v1/proposals/{proposal.id}", headers=headers),
        )
        assert response.status_code == 200, response.get_json()


def measure(n: int, warmup: int, detail_reads: int) -> dict:
    """{path: {"calls", "mean_ms", "p50_ms", "queries"}} over ``n`` proposals after ``warmup`` ones."""
    import app as composition
    from models.db.database import db
    from models.services.platform.unit_of_work import set_after_commit_publisher

    application = composition.create_app()
    set_after_commit_publisher(None)  # nothing consumes the messages here; only the paths are timed
    client = application.test_client()
    with db.connection_context():
        token = _access_token(_use_cases()[0])
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    counter = QueryCounter()
    peewee_log = logging.getLogger("peewee")
    peewee_log.addHandler(counter)
    peewee_log.setLevel(logging.DEBUG)
    peewee_log.propagate = False
    base = random.Random().randrange(100_000_000, 900_000_000)
    samples: dict[str, list] = {name: [] for name in PATHS}
    for i in range(warmup + n):
        if i == warmup:
            samples = {name: [] for name in PATHS}
        _iteration(samples, counter, client, headers, _cpf(base + i), detail_reads)
    if not db.is_closed():
        db.close()
    return {
        name: {
            "calls": len(rows),
            "mean_ms": statistics.fmean(r[0] for r in rows) * 1000,
            "p50_ms": statistics.median(r[0] for r in rows) * 1000,
            "queries": statistics.fmean(r[1] for r in rows),
        }
        for name, rows in samples.items()
    }


def _baseline(ref: str, argv: list[str]) -> dict:
    """Run this script inside ``git archive ref`` and return its figures."""
    workdir = Path(tempfile.mkdtemp(prefix="actor-costs-baseline-"))
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(workdir)], input=archive, check=True)
        shutil.copy(Path(__file__), workdir / "bench" / "actor_costs.py")
        (workdir / "tests").mkdir(exist_ok=True)
        shutil.copy(ROOT / "tests" / "builders.py", workdir / "tests" / "builders.py")
        output = subprocess.run(
            [sys.executable, "-m", "bench.actor_costs", "--json", *argv],
            cwd=workdir,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        return json.loads(output.strip().splitlines()[-1])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _print(title: str, figures: dict) -> None:
    print(f"{title}\n  {'path':<28}{'calls':>7}{'mean ms':>10}{'p50 ms':>10}{'queries/call':>14}")
    for name in PATHS:
        row = figures[name]
        print(f"  {name:<28}{row['calls']:>7}{row['mean_ms']:>10.1f}{row['p50_ms']:>10.1f}{row['queries']:>14.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=40, help="proposals measured (after the warm-up ones)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--detail-reads", type=int, default=5, help="GET detail calls per proposal")
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--baseline", default=None, help="git ref measured first for a before/after")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    shared = ["--n", str(args.n), "--warmup", str(args.warmup), "--detail-reads", str(args.detail_reads)]
    if args.database_url:
        shared += ["--database-url", args.database_url]
    before = _baseline(args.baseline, shared) if args.baseline else None
    scratch = tempfile.mkdtemp(prefix="actor-costs-")
    os.environ["APP_ENV"] = "sandbox"  # the full-flow bench's environment (partners without webhook URLs)
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{scratch}/bench.sqlite3"
    os.environ.pop("AMQP_URL", None)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    try:
        after = measure(args.n, args.warmup, args.detail_reads)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        print(json.dumps(after))
        return
    backend = "PostgreSQL" if (args.database_url or "").startswith("postgres") else "SQLite"
    print(f"{args.n} proposals ({backend}, one process, no load); mean per call")
    if before is not None:
        _print(f"before ({args.baseline})", before)
    _print("after (this tree)" if before is not None else "this tree", after)
    if before is not None:
        print(
            "  speed-up: "
            + ", ".join(f"{name} x{before[name]['mean_ms'] / after[name]['mean_ms']:.1f}" for name in PATHS)
        )


if __name__ == "__main__":
    main()
