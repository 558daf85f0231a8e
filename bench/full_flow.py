"""Full-flow benchmark: N proposals from start to DISBURSED through the public API, against
PostgreSQL + RabbitMQ with the documented pool layout, and in the same run the floor (a bare
dramatiq chain of as many hops, each one UPDATE on the same database).

    python -m bench.full_flow --n 1000 --concurrency 16      (make bench BENCH_ARGS="--n 1000")

Starts gunicorn and `make pools`-equivalent pools on a throw-away database and queue prefix and
removes them at the end. Half the partner threads act as PARTNER_A, half as PARTNER_B; each partner's
webhook URL points at a local receiver in this process, and every status event must arrive there.
Prints proposals per second, p50/p95 per step, the webhook check, CPU per process kind (from
/proc), and the ratio to the floor; then the embedded default (`make run`: SQLite and the
in-process broker) with ``--embedded-n`` proposals.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import itertools
import os
import random
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from bench import embedded_run, floor_run, webhook_check
from bench import statements as bench_statements
from bench.breakdown import breakdown, print_breakdown
from bench.client import PartnerClient, RouteMissing, StepFailed, valid_cpf
from bench.flow import STEPS, run_flow
from bench.private_services import PrivatePostgres
from bench.proc_cpu import CpuSampler, print_cpu
from bench.process_kinds import SHARED, ServiceProcesses
from bench.services import ADMIN_URL, BenchEnvironment, run_sql
from bench.stats import machine, ms, percentile
from rabbitmq.pools import LAYOUTS


def customer_states(n: int, seed: int) -> list[dict]:
    """``n`` customers with distinct valid CPFs, names, e-mails and phones (the flow's ``state``)."""
    rng, cpfs = random.Random(seed), set()
    while len(cpfs) < n:
        cpfs.add(valid_cpf(rng))
    return [
        {
            "cpf": cpf,
            "full_name": f"Bench Customer {_letters(i)}",
            "email": f"bench{i}@example.com",
            "phone": f"+55119{seed % 100:02d}{i:06d}",
        }
        for i, cpf in enumerate(sorted(cpfs))
    ]


_clients = threading.local()
_thread_numbers = itertools.count()
# Actor messages of one full proposal when the flow cannot be measured (routes missing): 14 status
# events (CREATED ... DISBURSED) and about 6 work messages (SMS, analysis, bank check, contract,
# signature result, disbursement).
ESTIMATED_HOPS = 20


def _letters(number: int) -> str:
    """0 -> A, 25 -> Z, 26 -> BA ...: names accept letters only."""
    text = ""
    while True:
        number, digit = divmod(number, 26)
        text = chr(65 + digit) + text
        if not number:
            return text


def _one(base_url: str, state: dict, poll: float) -> tuple[dict, str | None, str | None]:
    # One client per partner thread: the token is fetched once and reused, as the spec advises.
    # Threads alternate between the sandbox partners, so both partners' webhooks are exercised.
    client = getattr(_clients, "client", None)
    timings: dict[str, float] = {}
    try:
        if client is None:
            partners = webhook_check.PARTNERS
            _, client_id, secret = partners[next(_thread_numbers) % len(partners)]
            client = PartnerClient(base_url, client_id, secret, poll_interval=poll)
            # Fetched before the first timed step: a partner keeps its token for the hour, so no
            # step's time includes one (it did the first "start" of each thread: 16 of 300 starts
            # took the token route's 0.5 s, which was the p95 of "start").
            client.token()
            _clients.client = client
        run_flow(client, state, on_step=lambda step, seconds, info: timings.__setitem__(step, seconds))
        return timings, None, None
    except RouteMissing as missing:
        return timings, "missing", missing.step
    except (StepFailed, Exception) as error:  # reported per step, the run goes on
        return timings, "failed", f"{getattr(error, 'step', '?')}: {str(error)[:200]}"


def drive(base_url: str, n: int, concurrency: int, poll: float) -> tuple[list, float]:
    """N journeys on ``concurrency`` partner threads; their results and the wall time."""
    states = customer_states(n, seed=int(time.time()) % 97)
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(lambda s: _one(base_url, s, poll), states))
    return results, time.perf_counter() - started


def _postgres_rows(database_url: str):
    return functools.partial(run_sql, database_url)


def run_flow_phase(
    env: BenchEnvironment, n: int, concurrency: int, poll: float, layout: str = "production", statements: bool = False
) -> dict:
    env.start_api()
    receivers = webhook_check.start_receivers(env.cli)
    env.start_pools(layout=layout)
    processes = ServiceProcesses(env, layout)
    if statements:
        bench_statements.reset(env.database_url)
    database_before = database_work(env.database_url)
    with CpuSampler(processes.kinds) as sampler:
        results, wall = drive(env.base_url, n, concurrency, poll)
    processes.close()
    delivered = webhook_check.check(receivers, _postgres_rows(env.database_url))
    try:
        spent = breakdown(env.base_url)
    except Exception:  # the figures above stand without it
        spent = {"actor": [], "http": []}
    env.stop()  # the backends have exited: their statistics are flushed
    database = {key: value - database_before[key] for key, value in database_work(env.database_url).items()}
    for receiver in receivers.values():
        receiver.stop()
    summary = summarise(results)
    summary.update(
        wall=wall,
        hops_total=floor_run.outbox_messages(env.database_url),
        hops_by_actor=floor_run.outbox_messages_by_actor(env.database_url),
        spent=spent,
        cpu=sampler.totals(),
        webhooks=delivered,
        database=database,
        statements=bench_statements.top(env.database_url) if statements else [],
    )
    return summary


def database_work(database_url: str) -> dict[str, int]:
    """The bench database's counters (``pg_stat_database``): transactions (a statement outside a
    transaction counts as one, ``SELECT 1`` pings included) and rows written."""
    ((commits, rollbacks, inserted, updated, deleted),) = _postgres_rows(database_url)(
        "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted"
        " FROM pg_stat_database WHERE datname = current_database()"
    )
    return {"transactions": commits + rollbacks, "inserted": inserted, "updated": updated, "deleted": deleted}


def summarise(results: list) -> dict:
    """Per-step timings, missing routes and failures of the journeys' results."""
    per_step, missing, failures = defaultdict(list), set(), defaultdict(int)
    first_failure = {}
    for timings, kind, detail in results:
        for step, seconds in timings.items():
            per_step[step].append(seconds)
        if kind == "missing":
            missing.add(detail)
        elif kind == "failed":
            step = detail.split(":", 1)[0]
            failures[step] += 1
            first_failure.setdefault(step, detail)
    # A proposal stopped by a route that is not deployed still went through every step that exists.
    complete = sum(1 for timings, kind, _ in results if kind in (None, "missing"))
    return {
        "per_step": per_step,
        "missing": missing,
        "failures": failures,
        "first_failure": first_failure,
        "complete": complete,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="proposals (and floor chains); default 1000")
    parser.add_argument("--concurrency", type=int, default=16, help="partner threads driving the API")
    parser.add_argument("--poll", type=float, default=0.25, help="seconds between polls (202 and DISBURSED)")
    parser.add_argument("--hops", type=int, default=0, help="floor hops per chain (default: measured)")
    parser.add_argument(
        "--layout", choices=sorted(LAYOUTS), default="production", help="pool layout (rabbitmq/pools.py)"
    )
    parser.add_argument(
        "--embedded-n", type=int, default=100, help="proposals through the embedded default afterwards (0: skip)"
    )
    parser.add_argument(
        "--statements",
        type=int,
        default=0,
        help="run on a private PostgreSQL with pg_stat_statements and print this many costliest statements",
    )
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with contextlib.ExitStack() as stack:
        admin_url = ADMIN_URL
        if args.statements:  # a server of our own, started with the extension preloaded
            root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-statements-")))
            admin_url = stack.enter_context(PrivatePostgres(root, settings=bench_statements.SERVER_SETTINGS)).admin_url
        env = stack.enter_context(BenchEnvironment(admin_url=admin_url))
        flow = run_flow_phase(env, args.n, args.concurrency, args.poll, args.layout, statements=bool(args.statements))
        reached = [step for step in STEPS if flow["per_step"].get(step)]
        measured = round(flow["hops_total"] / max(1, len(flow["per_step"].get("start", []))))
        hops = args.hops or measured or ESTIMATED_HOPS
        floor = floor_run.run(env, args.n, hops, args.layout)
    _report(args, flow, reached, floor, hops)
    if args.statements:
        bench_statements.print_top(flow["statements"], args.n, args.statements)
    if args.embedded_n:
        embedded_run.run_and_report(args.embedded_n, args.concurrency, args.poll)


def _report(args, flow, reached, floor, hops) -> None:
    n = args.n
    print(
        f"\nflow: {n} proposals, {args.concurrency} partner threads, {args.layout} layout of rabbitmq/pools.py, "
        f"gunicorn {os.environ.get('WEB_CONCURRENCY', '2')}x{os.environ.get('API_THREADS', '8')}"
    )
    print(f"  steps run: {', '.join(reached) or 'none'}")
    missing = [step for step in STEPS if step not in reached]
    if flow["missing"] or missing:
        print(f"  NOT RUN (route missing or earlier step stopped): {', '.join(missing)}")
    for step, count in flow["failures"].items():
        print(f"  FAILED at {step}: {count} proposal(s); first: {flow['first_failure'][step]}")
    if not reached:
        print("  no flow route answered: nothing measured for the flow (floor below)")
        print(f"\nfloor: {n} bare dramatiq chains x {hops} hops (estimated), {floor['layout']}")
        print(
            f"  {floor['wall']:.2f} s -> {n / floor['wall']:.1f} chains/s; chain p50 {ms(floor['p50'])}, "
            f"p95 {ms(floor['p95'])}"
        )
        return
    print(
        f"  completed the steps that exist: {flow['complete']}/{n} in {flow['wall']:.2f} s -> {n / flow['wall']:.1f} proposals/s"
    )
    print_steps(flow, reached)
    webhook_check.print_check(flow["webhooks"])
    print(f"  actor messages (outbox rows) per proposal: {flow['hops_total'] / max(1, n):.1f}")
    for actor, total, canceled in flow.get("hops_by_actor", []):
        print(
            f"    {actor:<36} {total / max(1, n):5.2f}"
            + (f"  ({canceled / max(1, n):.2f} cancelled)" if canceled else "")
        )
    print(
        "  database work per proposal: "
        + ", ".join(f"{key} {value / max(1, n):.1f}" for key, value in flow["database"].items())
    )
    print_cpu(flow["cpu"], n, flow["wall"], SHARED)
    print_breakdown(flow["spent"])
    print(f"\nfloor: {n} bare dramatiq chains x {hops} hops (one UPDATE each), {floor['layout']}")
    print(
        f"  {floor['wall']:.2f} s -> {n / floor['wall']:.1f} chains/s; chain p50 {ms(floor['p50'])}, "
        f"p95 {ms(floor['p95'])}"
    )
    ratio = (n / flow["wall"]) / (n / floor["wall"])
    print(
        f"\nratio: flow throughput = {ratio:.2f} x floor throughput "
        f"(flow wall time {flow['wall'] / floor['wall']:.1f} x floor wall time)"
    )


def print_steps(flow: dict, reached: list[str]) -> None:
    print(f"  {'step':<16}{'p50':>12}{'p95':>12}")
    for step in reached:
        values = flow["per_step"][step]
        print(f"  {step:<16}{ms(percentile(values, 50)):>12}{ms(percentile(values, 95)):>12}")


if __name__ == "__main__":
    main()
