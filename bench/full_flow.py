"""Full-flow benchmark: N proposals from start to DISBURSED through the public API, against
PostgreSQL + RabbitMQ with the documented pool layout, and in the same run the floor (a bare
dramatiq chain of as many hops, each one UPDATE on the same database).

    python -m bench.full_flow --n 1000 --concurrency 16      (make bench BENCH_ARGS="--n 1000")

Starts gunicorn and `make pools`-equivalent pools on a throw-away database and queue prefix and
removes them at the end. Prints proposals per second, p50/p95 per step, and the ratio to the floor.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import threading
import time
from collections import defaultdict

from bench import floor_run
from bench.breakdown import breakdown, print_breakdown
from bench.client import PartnerClient, RouteMissing, StepFailed, valid_cpf
from bench.flow import STEPS, run_flow
from bench.services import BenchEnvironment
from bench.stats import machine, ms, percentile


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
    client = getattr(_clients, "client", None)
    if client is None:
        client = _clients.client = PartnerClient(base_url, "sandbox-partner-a", "sandbox-secret-a", poll_interval=poll)
    timings: dict[str, float] = {}
    try:
        run_flow(client, state, on_step=lambda step, seconds, info: timings.__setitem__(step, seconds))
        return timings, None, None
    except RouteMissing as missing:
        return timings, "missing", missing.step
    except (StepFailed, Exception) as error:  # reported per step, the run goes on
        return timings, "failed", f"{getattr(error, 'step', '?')}: {str(error)[:200]}"


def run_flow_phase(env: BenchEnvironment, n: int, concurrency: int, poll: float) -> dict:
    env.start_api()
    env.start_pools()
    states = customer_states(n, seed=int(time.time()) % 97)
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(lambda s: _one(env.base_url, s, poll), states))
    wall = time.perf_counter() - started
    try:
        spent = breakdown(env.base_url)
    except Exception:  # the figures above stand without it
        spent = {"actor": [], "http": []}
    env.stop()
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
    hops = floor_run.outbox_messages(env.database_url)
    return {
        "wall": wall,
        "per_step": per_step,
        "missing": missing,
        "failures": failures,
        "first_failure": first_failure,
        "complete": complete,
        "hops_total": hops,
        "spent": spent,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="proposals (and floor chains); default 1000")
    parser.add_argument("--concurrency", type=int, default=16, help="partner threads driving the API")
    parser.add_argument("--poll", type=float, default=0.25, help="seconds between polls (202 and DISBURSED)")
    parser.add_argument("--hops", type=int, default=0, help="floor hops per chain (default: measured)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with BenchEnvironment() as env:
        flow = run_flow_phase(env, args.n, args.concurrency, args.poll)
        reached = [step for step in STEPS if flow["per_step"].get(step)]
        measured = round(flow["hops_total"] / max(1, len(flow["per_step"].get("start", []))))
        hops = args.hops or measured or ESTIMATED_HOPS
        floor = floor_run.run(env, args.n, hops)
    _report(args, flow, reached, floor, hops)


def _report(args, flow, reached, floor, hops) -> None:
    n = args.n
    print(f"\nflow: {n} proposals, {args.concurrency} partner threads, pools of rabbitmq/pools.py, gunicorn 2x8")
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
    print(f"  {'step':<16}{'p50':>12}{'p95':>12}")
    for step in reached:
        values = flow["per_step"][step]
        print(f"  {step:<16}{ms(percentile(values, 50)):>12}{ms(percentile(values, 95)):>12}")
    print(f"  actor messages (outbox rows) per proposal: {flow['hops_total'] / max(1, n):.1f}")
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


if __name__ == "__main__":
    main()
