"""One fault-injection run, start to verdict: ``run(plan)``.

1. A private PostgreSQL and RabbitMQ (bench.private_services), the production shape on them
   (gunicorn and `python -m rabbitmq.pools run`, restarted when they exit, as by a process
   manager), and one webhook endpoint per partner, set with the ops CLI.
2. Partner journeys start evenly while the injector carries the plan's faults out.
3. Once the faults are over and every journey has ended, up to ``plan.settle`` seconds for the
   service to finish: every proposal final, no due outbox row, every status change received.
4. The evidence is read and judged (bench.fault.verdict); the report is printed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.fault.client import ProblemLog
from bench.fault.evidence import Database, Evidence, collect, received_events
from bench.fault.injector import FaultRecord, Injector
from bench.fault.journeys import Journeys
from bench.fault.plan import Plan
from bench.fault.verdict import Verdict, judge
from bench.full_flow import customer_states
from bench.private_services import PrivatePostgres, PrivateRabbitMQ, missing_tools
from bench.services import BenchEnvironment, Restart
from models.domain.statuses import FINAL_STATUSES
from tests.support.receiver import LocalReceiver

SETTLED = frozenset({"DISBURSED", *(status.value for status in FINAL_STATUSES)})
POOLS_UP_LIMIT = 60.0


class Unavailable(RuntimeError):
    """This machine cannot run the private servers (the message says what is missing)."""


@dataclass
class Run:
    plan: Plan
    log_dir: Path
    journeys: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    faults: list[FaultRecord] = field(default_factory=list)
    restarts: list[Restart] = field(default_factory=list)
    timings: list[str] = field(default_factory=list)
    evidence: Evidence = field(default_factory=Evidence)
    verdict: Verdict | None = None


def run(plan: Plan, log_dir: str | None = None, out=print) -> Run:
    """Carry ``plan`` out and judge it; the service logs stay in ``log_dir`` (a temporary folder
    by default, named in the report)."""
    missing = missing_tools()
    if missing:
        raise Unavailable("the fault-injection run needs " + "; ".join(missing))
    root = Path(tempfile.mkdtemp(prefix="fault-run-"))
    logs = Path(log_dir) if log_dir else root / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    result = Run(plan, logs)
    load = os.getloadavg()
    result.timings.append(
        f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start"
    )
    receivers = {code: LocalReceiver().start() for code, _, _ in plan.partners}
    began = time.monotonic()
    try:
        with (
            PrivatePostgres(root, logs) as postgres,
            PrivateRabbitMQ(root, logs) as rabbitmq,
            BenchEnvironment("fault", postgres.admin_url, rabbitmq.url, log_dir=str(logs)) as env,
        ):
            _start_shape(env, receivers)
            result.timings.append(f"setup (servers, API, pools, partners): {time.monotonic() - began:.0f} s")
            out(f"fault run: servers and shape up; logs in {logs}", flush=True)
            database = Database(env.database_url)
            try:
                _exercise(plan, env, postgres, rabbitmq, database, receivers, result, out)
            finally:
                result.restarts = list(env.restarts)
                database.close()
    finally:
        for receiver in receivers.values():
            receiver.stop()
        for folder in ("postgres", "rabbitmq"):
            shutil.rmtree(root / folder, ignore_errors=True)
        if log_dir:  # the logs live elsewhere: nothing of the run is left in root
            shutil.rmtree(root, ignore_errors=True)
    load = os.getloadavg()
    result.timings.append(
        f"total {time.monotonic() - began:.0f} s; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end"
    )
    result.timings.append(f"service logs: {logs}")
    result.verdict = judge(result)
    out(result.verdict.report, flush=True)
    return result


def _start_shape(env: BenchEnvironment, receivers: dict[str, LocalReceiver]) -> None:
    env.start_api(restart=True)  # creates the schema and seeds the sandbox partners
    for code, receiver in receivers.items():
        env.cli("partners", "update", code, "--webhook-url", receiver.url(), "--webhook-auth", "none")
    env.start_pools(restart=True)
    deadline = time.monotonic() + POOLS_UP_LIMIT
    seen = -1
    while time.monotonic() < deadline:  # up when the process count stops growing
        count = len(env.pool_worker_pids())
        if count and count == seen:
            return
        seen = count
        time.sleep(2.0)
    raise RuntimeError(f"the pools did not start (see {env.log_path('pools')})")


def _exercise(plan, env, postgres, rabbitmq, database, receivers, result: Run, out) -> None:
    started, started_wall = time.monotonic(), time.time()
    log = ProblemLog(started)
    journeys = Journeys(
        plan, env.base_url, customer_states(plan.n, seed=int(started_wall) % 97), log, started + plan.journeys_limit()
    )
    partners = threading.Thread(target=journeys.run, name="journeys", daemon=True)
    partners.start()
    stop = threading.Event()
    injector = Injector(plan, env, postgres, rabbitmq, database, started, journeys.release)
    try:
        injector.run(stop)
        journeys.release(plan.n)  # any left (a run cut short): they run on a healthy service
        faults_done = time.monotonic()
        out(f"fault run: faults done at +{faults_done - started:.0f} s; waiting for the partners", flush=True)
        partners.join(timeout=max(0.0, journeys.deadline - time.monotonic()))
        journeys_done = time.monotonic()
        out(
            f"fault run: journeys done at +{journeys_done - started:.0f} s; settling (up to {plan.settle:.0f} s)",
            flush=True,
        )
        settled = _wait_settled(database, receivers, journeys_done + plan.settle)
        result.timings.append(
            f"faults: {faults_done - started:.0f} s; partner journeys ended {journeys_done - faults_done:.0f} s later; "
            + (
                f"settled {settled - journeys_done:.0f} s after that"
                if settled
                else f"NOT settled {plan.settle:.0f} s after that"
            )
        )
    finally:
        stop.set()
        journeys.stop()
        journeys.deadline = time.monotonic()
        partners.join(timeout=120)
        result.faults = injector.records
        result.journeys = journeys.journeys
        result.problems = list(log.problems)
    result.evidence = collect(database, receivers, env.amqp_url, env.prefix, started_wall)


def _wait_settled(database: Database, receivers, deadline: float) -> float | None:
    """time.monotonic() when every proposal is final, the outbox is drained and every change was
    received; None if that did not happen before ``deadline``."""
    while time.monotonic() < deadline:
        counts = database.status_counts()
        outbox = database.outbox_counts()
        changes = database.changes()
        if counts is not None and outbox is not None and changes is not None:
            got = {(event.proposal_id, event.sequence) for event in received_events(receivers)}
            if set(counts) <= SETTLED and outbox[0] == 0 and all((c.proposal_id, c.sequence) in got for c in changes):
                return time.monotonic()
        time.sleep(2.0)
    return None
