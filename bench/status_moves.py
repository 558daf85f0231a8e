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
import os
import time

from bench.statement_count import counting_statements

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


def _backend_cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proposals(count: int) -> list[str]:
    """``count`` proposals in TOKEN_SENT, each its own customer."""
    from tests.builders import contacted_proposal

    return [contacted_proposal(cpf=f"{number:011d}").id for number in range(count)]


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

    with db.connection_context():
        backend = db.execute_sql("SELECT pg_backend_pid()").fetchone()[0]
        _move_all(_proposals(20))  # warm-up: statements prepared, caches filled
        ids = _proposals(count)
        with counting_statements() as counter:
            server = _backend_cpu_seconds(backend)
            cpu, wall = time.process_time(), time.perf_counter()
            _move_all(ids)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            server = _backend_cpu_seconds(backend) - server
    from rabbitmq import published_marks

    published_marks.flush()  # now, not at exit: the bench's database is dropped before that
    dramatiq.get_broker().close()
    moves = count * len(MOVES)
    print(
        f"status moves: {moves} ({count} proposals x {len(MOVES)}), per move: "
        f"{counter.count / moves:.1f} statements, {cpu * 1000 / moves:.2f} ms CPU here, "
        f"{server * 1000 / moves:.2f} ms CPU in its PostgreSQL backend, {wall * 1000 / moves:.2f} ms wall"
    )


if __name__ == "__main__":
    main()
