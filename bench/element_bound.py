"""What a proposal's unavoidable parts cost on this machine, against the throughput target (issue 15).

    .venv/bin/python -m bench.element_bound [--calls 4000] [--posts 4000] [--chains 300] [--flow 300]

Measured in one run, on PostgreSQL and RabbitMQ, as the machine's CPU (every process, from
/proc/stat, less the rate the machine burns idle with the services up) per unit:

- a partner call: ``GET /v1/proposals/<id>`` with a bearer token through the production API
  (gunicorn, http/gunicorn_conf.py), the cheapest call the spec gives a partner: the token check,
  one read and the response. A call that changes a status does this and a write. ``GET
  /health/live`` (no token, no database) is printed beside it: the framework alone;
- a status webhook: one signed event POSTed by the service's sender (HttpPartnerEndpoints) to the
  bench's kept-alive local receiver, both sides counted, as the partner's side is in the flow;
- an asynchronous step: one hop of the floor (bench/floor.py: a dramatiq message, its consume and
  one UPDATE; no outbox, no ORM, no service code);
- the CCB: one render of the contract PDF (process CPU, bench/contract_pdf.py's contracts).

Then the flow itself (bench/full_flow.py's journeys on the small layout, every status event
delivered to the receivers) on the same machine, counting its calls, POSTs and actor messages.

Printed: the cost of those parts for the least any design of the spec needs per proposal and for
the counts the flow made, against what a proposal may cost for 15 proposals/s and for 0.3 x the
floor measured in this run. Figures, not a test.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import os
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bench import floor_run, webhook_check
from bench.breakdown import breakdown
from bench.client import PartnerClient
from bench.proc_cpu import TICKS
from bench.services import BenchEnvironment, run_sql
from bench.stats import machine

THREADS = 8
TARGET_PER_SECOND = 15.0
TARGET_FLOOR_RATIO = 0.3
FLOOR_HOPS = 21  # as bench.full_flow's floor on this flow


@dataclass(frozen=True)
class Counts:
    """Per proposal: inbound HTTP calls, status webhook POSTs, asynchronous hops, CCB renders (the
    original, and the signed version drawn by the service)."""

    calls: float
    posts: float
    hops: float
    renders: float
    signed_renders: float


# The least any design of the spec needs for one proposal on the happy path (spec: the transition
# table, "Events" and "Endpoints"):
# - 9 inbound calls: the partner's start, contact, validate-token, credit-analysis, simulate,
#   pre-accept, banking-data and contract, and the e-signature provider telling the service the
#   customer signed (the partner learns of DISBURSED by webhook: no polling counted);
# - 11 webhooks, one per status change of the shortest path: TOKEN_SENT, TOKEN_VALIDATED,
#   CREDIT_ANALYSIS_IN_PROGRESS, OFFERS_RECEIVED, PRE_ACCEPTED, BANK_DATA_SUBMITTED,
#   CONTRACT_GENERATION_IN_PROGRESS, CONTRACT_GENERATED, AWAITING_SIGNATURE, SIGNED, DISBURSED;
# - 3 asynchronous steps: the analysis ("calls during processing return 409"), the contract's
#   generation (IN_PROGRESS, then GENERATED) and the disbursement that "follows automatically";
# - 1 CCB, the original (a signed version may come from the e-signature provider).
LEAST = Counts(calls=9, posts=11, hops=3, renders=1, signed_renders=0)


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot (all cores; /proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = fields[:7]
    return (user + nice + system + irq + softirq) / TICKS


class MachineCpu:
    """``with meter.measure() as spent: ...``; then ``spent.seconds``: the machine's CPU over the
    block, less the idle rate read just before it (the services up, nothing asked of them)."""

    def __init__(self, idle_sample: float = 3.0) -> None:
        self.idle_sample = idle_sample

    @contextlib.contextmanager
    def measure(self, spent: Spent | None = None) -> Iterator[Spent]:
        """``spent``: where to write the figures (a new Spent by default), for a caller that does
        not enter the block itself."""
        before, started = busy_seconds(), time.monotonic()
        time.sleep(self.idle_sample)
        idle_rate = (busy_seconds() - before) / (time.monotonic() - started)
        spent = spent if spent is not None else Spent()
        before, started = busy_seconds(), time.monotonic()
        yield spent
        wall = time.monotonic() - started
        spent.wall = wall
        spent.seconds = max(0.0, busy_seconds() - before - idle_rate * wall)


@dataclass
class Spent:
    seconds: float = 0.0
    wall: float = 0.0


def spread(work: Callable[[int], None], units: int, threads: int = THREADS) -> None:
    """``work(i)`` for i in range(units) on ``threads`` threads."""
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        for _ in pool.map(work, range(units)):
            pass


def partner_calls(env: BenchEnvironment, meter: MachineCpu, units: int) -> tuple[float, float]:
    """Machine CPU ms per ``GET /v1/proposals/<id>`` with a token, and per ``GET /health/live``."""
    seed_client = PartnerClient(env.base_url, "sandbox-partner-a", "sandbox-secret-a")
    body = seed_client.call(
        "start",
        "POST",
        "/proposals/start",
        json={"cpf": "52998224725", "full_name": "Maria da Silva", "birth_date": "1985-04-12"},
    ).json()
    detail = f"/proposals/{body['proposal_id']}"
    local = threading.local()

    def client() -> PartnerClient:
        if getattr(local, "client", None) is None:
            local.client = PartnerClient(env.base_url, "sandbox-partner-a", "sandbox-secret-a")
            local.client.token()
        return local.client

    def read(_: int) -> None:
        client().call("detail", "GET", detail).raise_for_status()

    def live(_: int) -> None:
        client().session.get(env.base_url + "/health/live", timeout=30).raise_for_status()

    spread(read, THREADS * 4)  # every thread's client, token and connection made before measuring
    with meter.measure() as spent_read:
        spread(read, units)
    with meter.measure() as spent_live:
        spread(live, units)
    return spent_read.seconds * 1000 / units, spent_live.seconds * 1000 / units


def webhook_posts(meter: MachineCpu, units: int) -> float:
    """Machine CPU ms per signed status event POSTed by the service's sender to a local receiver."""
    from models.external.partner_endpoints.http_adapter import HttpPartnerEndpoints
    from models.services.webhooks.signing import STATUS_FIELD_ORDER, raw_body, signature
    from tests.support.receiver import LocalReceiver

    receiver = LocalReceiver(keep_alive=True).start()
    sender = HttpPartnerEndpoints(public_only=False)
    url, secret = receiver.url(), uuid.uuid4().hex
    payload = {
        "origin": {"code": "PARTNER_A", "name": "Partner A"},
        "timestamp": "2026-11-27T12:00:00.000000+00:00",
        "event_type": "proposal.status.changed",
        "proposal_id": str(uuid.uuid4()),
        "proposal_data": {
            "cpf": "52998224725",
            "phone": "+5511987654321",
            "created_at": "2026-11-27T11:59:00.000000+00:00",
            "updated_at": "2026-11-27T12:00:00.000000+00:00",
        },
        "status_change": {"old_status": "SIGNED", "new_status": "DISBURSED"},
    }

    def post(index: int) -> None:
        body = raw_body(payload, STATUS_FIELD_ORDER)
        headers = {
            "Content-Type": "application/json",
            "X-Request-Id": uuid.uuid4().hex,
            "X-Signature": signature(secret, body, int(time.time())),
            "X-Environment": "staging",
            "X-Event-Sequence": str(index),
        }
        if not sender.post(url, body, headers, timeout=10).ok:
            raise RuntimeError("the local receiver did not answer 2xx")

    try:
        spread(post, THREADS * 4)
        receiver.received.clear()
        with meter.measure() as spent:
            spread(post, units)
    finally:
        receiver.stop()
    return spent.seconds * 1000 / units


def ccb_renders(units: int) -> tuple[float, float]:
    """Process CPU ms per render of the CCB: the original, and its signed version right after it."""
    from bench.contract_pdf import sample_terms
    from models.services.contract import pdf

    rng = random.Random(7)
    contracts = [sample_terms(rng, index) for index in range(units)]
    evidence = {
        "provider": "Simulador",
        "process_id": "proc",
        "results": {},
        "signed_at": "2026-03-10T16:00:00.000Z",
        "original_sha256": "0" * 64,
    }
    pdf.render(contracts[0])  # fonts and caches, as a warm worker has them
    original = signed = 0.0
    for terms in contracts:
        started = time.process_time()
        pdf.render(terms)
        middle = time.process_time()
        pdf.render(terms, evidence)
        original, signed = original + middle - started, signed + time.process_time() - middle
    return original * 1000 / units, signed * 1000 / units


def flow(env: BenchEnvironment, meter: MachineCpu, n: int) -> dict:
    """The full flow on the small layout: proposals/s, machine CPU per proposal and its counts."""
    from bench.full_flow import drive

    receivers = webhook_check.start_receivers(env.cli)
    env.start_pools(layout="small")
    time.sleep(3.0)  # the pools' processes boot before the idle rate is read
    before = _http_calls(env)
    with meter.measure() as spent:
        results, wall = drive(env.base_url, n, THREADS, 0.25)
    delivered = webhook_check.check(receivers, lambda sql: _rows(env, sql))
    calls = _http_calls(env) - before
    env.stop()  # the floor runs alone, as in bench.full_flow
    for receiver in receivers.values():
        receiver.stop()
    completed = sum(1 for _, kind, _ in results if kind is None)
    return {
        "completed": completed,
        "per_second": completed / wall,
        "cpu_ms": spent.seconds * 1000 / max(1, completed),
        "counts": Counts(
            calls=calls / max(1, n),
            posts=delivered["delivered"] / max(1, n),
            # Messages sent: a scheduled deadline cancelled before it was due is never published.
            hops=sum(total - cancelled for _, total, cancelled in floor_run.outbox_messages_by_actor(env.database_url))
            / max(1, n),
            renders=1,
            signed_renders=1,
        ),
        "webhooks": delivered,
    }


def _rows(env: BenchEnvironment, sql: str) -> list[tuple]:
    return run_sql(env.database_url, sql)


def _http_calls(env: BenchEnvironment) -> int:
    """Requests the API has answered (its /metrics), every route."""
    return sum(count for _, _, count in breakdown(env.base_url)["http"])


def floor(env: BenchEnvironment, meter: MachineCpu, chains: int) -> tuple[float, float]:
    """Chains per second of the floor and the machine's CPU ms per hop (the chains alone)."""
    spent = Spent()
    result = floor_run.run(env, chains, FLOOR_HOPS, "small", around_chains=lambda: meter.measure(spent))
    return chains / result["wall"], spent.seconds * 1000 / (chains * FLOOR_HOPS)


def cost(counts: Counts, unit: dict[str, float]) -> float:
    return (
        counts.calls * unit["call"]
        + counts.posts * unit["post"]
        + counts.hops * unit["hop"]
        + counts.renders * unit["render"]
        + counts.signed_renders * unit["signed"]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=4000, help="partner calls measured (and health checks)")
    parser.add_argument("--posts", type=int, default=4000, help="webhook POSTs measured")
    parser.add_argument("--renders", type=int, default=60, help="CCBs rendered")
    parser.add_argument("--chains", type=int, default=300, help="floor chains of 21 hops")
    parser.add_argument("--flow", type=int, default=300, help="proposals through the full flow")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    meter = MachineCpu()
    print(f"machine: {machine()}")
    with BenchEnvironment(tag="bound") as env:
        env.start_api()
        call_ms, live_ms = partner_calls(env, meter, args.calls)
        post_ms = webhook_posts(meter, args.posts)
        render_ms, signed_ms = ccb_renders(args.renders)
        flowed = flow(env, meter, args.flow)
        chains_per_second, hop_ms = floor(env, meter, args.chains)
    unit = {"call": call_ms, "post": post_ms, "hop": hop_ms, "render": render_ms, "signed": signed_ms}
    budget_target = cores * 1000 / TARGET_PER_SECOND
    budget_floor = cores * 1000 / (TARGET_FLOOR_RATIO * chains_per_second)
    print("\nthe parts, machine CPU per unit (every process, the idle machine's rate subtracted):")
    print(f"  partner call, GET /v1/proposals/<id> with a token   {call_ms:6.2f} ms")
    print(f"    (the framework alone, GET /health/live            {live_ms:6.2f} ms)")
    print(f"  status webhook, sender and receiver                 {post_ms:6.2f} ms")
    print(f"  asynchronous hop of the floor (message, one UPDATE) {hop_ms:6.2f} ms")
    print(f"  CCB render, original / signed version          {render_ms:6.2f} / {signed_ms:5.2f} ms")
    print(f"\nwhat a proposal may cost on {cores} cores (everything busy):")
    print(f"  for {TARGET_PER_SECOND:.0f} proposals/s                               {budget_target:6.1f} ms")
    print(
        f"  for {TARGET_FLOOR_RATIO} x the floor ({chains_per_second:.1f} chains/s: "
        f"{TARGET_FLOOR_RATIO * chains_per_second:.1f} proposals/s)  {budget_floor:6.1f} ms"
    )
    counts = flowed["counts"]
    print("\nper proposal                 calls   POSTs   hops   CCBs    the parts' cost")
    for name, row in (("least the spec allows", LEAST), ("as the flow ran", counts)):
        print(
            f"  {name:<24}{row.calls:7.1f}{row.posts:8.1f}{row.hops:7.1f}{row.renders + row.signed_renders:7.0f}"
            f"{cost(row, unit):12.1f} ms"
        )
    print(
        f"  the flow, everything ({flowed['completed']}/{args.flow} disbursed, "
        f"{flowed['webhooks']['delivered']}/{flowed['webhooks']['expected']} events delivered): "
        f"{flowed['cpu_ms']:.1f} ms at {flowed['per_second']:.1f} proposals/s"
    )
    print("\nleft per proposal for everything else (writes, locks, the outbox, the providers, validation):")
    print(f"  {'':<24}{'at 15 proposals/s':>20}{'at 0.3 x the floor':>20}")
    for name, row in (("with the least parts", LEAST), ("with the flow's parts", counts)):
        parts = cost(row, unit)
        print(f"  {name:<24}{budget_target - parts:17.1f} ms{budget_floor - parts:17.1f} ms")
    print(f"  {'what the flow spends on it':<24}{flowed['cpu_ms'] - cost(counts, unit):17.1f} ms")


if __name__ == "__main__":
    main()
