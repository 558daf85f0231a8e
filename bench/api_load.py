"""Hot-route load test: requests per second and p50/p99 for the token, the listing, one proposal
and POST start, from a local thread-pool load generator (loopback only, bounded in count and time).

    python -m bench.api_load                          own gunicorn + pools on a throw-away database
    python -m bench.api_load --base-url http://127.0.0.1:8000   a service already running locally
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import threading
import time
from collections import Counter
from urllib.parse import urlparse

from bench.client import PartnerClient, valid_cpf
from bench.services import BenchEnvironment
from bench.stats import machine, ms, percentile

CLIENT_ID, SECRET = "sandbox-partner-a", "sandbox-secret-a"


def _routes(client: PartnerClient, proposal_id: str | None, rng: random.Random, lock: threading.Lock):
    def token():
        return client.session.post(
            client.root + "/oauth2/token",
            timeout=30,
            data={"grant_type": "client_credentials", "client_id": CLIENT_ID, "client_secret": SECRET},
        )

    def start():
        with lock:
            cpf = valid_cpf(rng)
        return client.session.post(
            client.api + "/proposals/start",
            headers=_auth(client),
            timeout=30,
            json={"cpf": cpf, "full_name": "Load Test", "birth_date": "1985-03-10"},
        )

    return {
        "POST /oauth2/token": token,
        "GET /v1/proposals": lambda: client.session.get(
            client.api + "/proposals?limit=10", headers=_auth(client), timeout=30
        ),
        "GET /v1/proposals/<id>": lambda: client.session.get(
            f"{client.api}/proposals/{proposal_id or '00000000-0000-4000-8000-000000000000'}",
            headers=_auth(client),
            timeout=30,
        ),
        "POST /v1/proposals/start": start,
    }


def _auth(client: PartnerClient) -> dict:
    return {"Authorization": f"Bearer {client._token or client.token()}", "Accept": "application/json"}


def measure(call, concurrency: int, seconds: float, limit: int) -> dict:
    """Run ``call`` from ``concurrency`` threads until ``seconds`` or ``limit`` requests."""
    latencies, codes, lock = [], Counter(), threading.Lock()
    deadline = time.perf_counter() + seconds

    def worker():
        while time.perf_counter() < deadline:
            with lock:
                if len(latencies) >= limit:
                    return
            started = time.perf_counter()
            response = call()
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                codes[response.status_code] += 1

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(concurrency) as pool:
        for future in [pool.submit(worker) for _ in range(concurrency)]:
            future.result()
    wall = time.perf_counter() - started
    return {
        "count": len(latencies),
        "rps": len(latencies) / wall,
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "codes": dict(codes),
    }


def run(base_url: str, concurrency: int, seconds: float, limit: int) -> None:
    if urlparse(base_url).hostname not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("api_load only targets this machine (loopback)")
    client = PartnerClient(base_url, CLIENT_ID, SECRET)
    client.token()
    rng, lock = random.Random(7), threading.Lock()
    created = client.session.post(
        client.api + "/proposals/start",
        headers=_auth(client),
        timeout=30,
        json={"cpf": valid_cpf(rng), "full_name": "Load Test", "birth_date": "1985-03-10"},
    )
    proposal_id = created.json().get("proposal_id") if created.status_code in (200, 201) else None
    if proposal_id is None:  # start not deployed: read one of the partner's (seeded) proposals
        listing = client.session.get(client.api + "/proposals?limit=1", headers=_auth(client), timeout=30)
        rows = listing.json().get("data", []) if listing.status_code == 200 else []
        proposal_id = rows[0]["id"] if rows else None
    print(f"{concurrency} client threads, at most {seconds:.0f} s or {limit} requests per route, {base_url}")
    print(f"  {'route':<28}{'requests':>9}{'req/s':>9}{'p50':>11}{'p99':>11}  statuses")
    for name, call in _routes(client, proposal_id, rng, lock).items():
        result = measure(call, concurrency, seconds, limit)
        statuses = ", ".join(f"{code}x{count}" for code, count in sorted(result["codes"].items()))
        print(
            f"  {name:<28}{result['count']:>9}{result['rps']:>9.1f}{ms(result['p50']):>11}"
            f"{ms(result['p99']):>11}  {statuses}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="a running service on this machine (default: start one)")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0, help="time bound per route")
    parser.add_argument("--requests", type=int, default=5000, help="count bound per route")
    parser.add_argument(
        "--seed",
        type=int,
        default=10000,
        help="proposals seeded per partner before the run (own service only; 0: none)",
    )
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.base_url:
        run(args.base_url, args.concurrency, args.seconds, args.requests)
        return
    with BenchEnvironment(tag="apiload") as env:
        env.start_api()
        env.start_pools()
        if args.seed:
            from bench.bench_seed import seed

            seed(env.database_url, args.seed)
        print(
            f"service: gunicorn 2 workers x 8 threads + pools, PostgreSQL + RabbitMQ (throw-away), "
            f"{args.seed} seeded proposals per partner"
        )
        run(env.base_url, args.concurrency, args.seconds, args.requests)


if __name__ == "__main__":
    main()
