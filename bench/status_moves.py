"""Cost of a status move on PostgreSQL, in one process, as the actors and routes make it:

    .venv/bin/python -m bench.status_moves [--proposals 500]

Each proposal (TOKEN_SENT) is moved four times (VALIDATE_TOKEN, START_ANALYSIS, CREDIT_CHECK_DONE,
OFFERS_STORED), each move in a transaction of its own that locks the proposal first
(``locked_proposal``, as the use cases do). Prints, per move: the SQL statements this process sent
(the lock's included), its CPU milliseconds (after-commit publish of the status event's message
included), the CPU milliseconds of its PostgreSQL backend (from /proc) and the wall milliseconds.
Uses a throw-away database and queue prefix (BENCH_POSTGRES_URL, BENCH_AMQP_URL). Not a test.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from datetime import date

MOVES = ("VALIDATE_TOKEN", "START_ANALYSIS", "CREDIT_CHECK_DONE", "OFFERS_STORED")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--proposals", type=int, default=500)
    args = parser.parse_args()
    from bench.services import BenchEnvironment

    with BenchEnvironment(tag="moves") as env:
        for key in ("APP_ENV", "DATABASE_URL", "AMQP_URL", "QUEUE_PREFIX", "LOG_LEVEL"):
            os.environ[key] = env.env[key]
        measure(args.proposals)


class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _backend_cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proposals(count: int) -> list[str]:
    from models.db.proposals import Proposal
    from models.domain.status_machine import Trigger
    from models.services.platform.proposal_status import move, record_creation
    from models.services.platform.unit_of_work import unit_of_work

    ids = []
    for number in range(count):
        with unit_of_work():
            proposal = Proposal.create(
                origin="PARTNER_A",
                product_id="bench",
                cpf=f"{number:011d}",
                full_name="MARIA DA SILVA",
                birth_date=date(1985, 4, 12),
                phone="+5511987654321",
                status="CREATED",
            )
            record_creation(proposal)
            move(proposal, Trigger.SEND_CONTACT)
        ids.append(proposal.id)
    return ids


def _move_all(ids: list[str]) -> None:
    from models.domain.status_machine import Trigger
    from models.services.platform.locks import locked_proposal
    from models.services.platform.proposal_status import move
    from models.services.platform.unit_of_work import unit_of_work

    for name in MOVES:
        trigger = Trigger[name]
        guards = {"promotional_eligible": False} if trigger is Trigger.START_ANALYSIS else {}
        for proposal_id in ids:
            with unit_of_work():
                move(locked_proposal(proposal_id), trigger, source="actor", **guards)


def measure(count: int) -> None:
    from app import bootstrap

    bootstrap(role="worker")
    import dramatiq

    from models.db.database import db

    counter = _Counter()
    peewee_log = logging.getLogger("peewee")
    with db.connection_context():
        backend = db.execute_sql("SELECT pg_backend_pid()").fetchone()[0]
        _move_all(_proposals(20))  # warm-up: statements prepared, caches filled
        ids = _proposals(count)
        peewee_log.addHandler(counter)
        peewee_log.setLevel(logging.DEBUG)
        peewee_log.propagate = False  # counted, not formatted by the service's handler
        server = _backend_cpu_seconds(backend)
        cpu, wall = time.process_time(), time.perf_counter()
        _move_all(ids)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        server = _backend_cpu_seconds(backend) - server
        peewee_log.removeHandler(counter)
    dramatiq.get_broker().close()
    moves = count * len(MOVES)
    print(
        f"status moves: {moves} ({count} proposals x {len(MOVES)}), per move: "
        f"{counter.count / moves:.1f} statements, {cpu * 1000 / moves:.2f} ms CPU here, "
        f"{server * 1000 / moves:.2f} ms CPU in its PostgreSQL backend, {wall * 1000 / moves:.2f} ms wall"
    )


if __name__ == "__main__":
    main()
