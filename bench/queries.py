"""Read-side benchmark: 200,000 proposals of PARTNER_A and 200,000 of PARTNER_B in PostgreSQL.

    .venv/bin/python bench/queries.py [--reseed] [--runs 60]

Seeds a dedicated database (``loans_bench``; BENCH_POSTGRES_URL points at the server) with COPY,
then calls every documented filter and sort of GET /v1/proposals, and the other read routes,
through the real Flask app (test client, no network) and prints p50/p95 in milliseconds.
Not a test: numbers depend on the machine. Seeding runs once; --reseed starts over.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DB_NAME = os.environ.get("BENCH_DATABASE", "loans_bench")
PER_ORIGIN = int(os.environ.get("BENCH_PER_ORIGIN", "200000"))


def database_url() -> str:
    return ADMIN_URL.rsplit("/", 1)[0] + f"/{DB_NAME}"


def ensure_database(reseed: bool) -> bool:
    """Create the bench database; True when it must be seeded."""
    import psycopg2

    conn = psycopg2.connect(ADMIN_URL)
    conn.autocommit = True
    with conn.cursor() as cur:
        if reseed:
            cur.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DB_NAME,))
        exists = cur.fetchone() is not None
        if not exists:
            cur.execute(f'CREATE DATABASE "{DB_NAME}"')
    conn.close()
    if exists:
        conn = psycopg2.connect(database_url())
        with conn.cursor() as cur:
            cur.execute("SELECT to_regclass('proposal') IS NOT NULL AND EXISTS (SELECT 1 FROM proposal)")
            seeded = cur.fetchone()[0]
        conn.close()
        return not seeded
    return True


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reseed", action="store_true", help="drop and seed the bench database again")
    parser.add_argument("--runs", type=int, default=60, help="timed calls per query (after 5 warm-up calls)")
    args = parser.parse_args()
    must_seed = ensure_database(args.reseed)
    os.environ.update(APP_ENV="sandbox", DATABASE_URL=database_url(), LOG_LEVEL="WARNING")
    os.environ.pop("AMQP_URL", None)
    import logging

    import app as composition

    application = composition.create_app()  # creates the schema and the read-side indexes
    logging.getLogger("access").setLevel(logging.WARNING)
    if must_seed:
        from bench_seed import seed

        started = time.monotonic()
        seed(database_url(), PER_ORIGIN)
        print(f"seeded {2 * PER_ORIGIN} proposals in {time.monotonic() - started:.1f} s")
    from bench_cases import cases, headers_for

    client = application.test_client()
    headers = headers_for()
    print(f"{'query':58} {'rows':>7} {'total':>7} {'p50 ms':>7} {'p95 ms':>7}")
    for name, url, origin in cases():
        timings, response = [], None
        for run in range(args.runs + 5):
            started = time.perf_counter()
            response = client.get(url, headers=headers[origin])
            elapsed = (time.perf_counter() - started) * 1000
            if run >= 5:
                timings.append(elapsed)
        if response.status_code not in (200, 204):
            raise SystemExit(f"{name}: HTTP {response.status_code} {response.get_data(as_text=True)[:300]}")
        body = response.get_json(silent=True) or {}
        rows = len(body.get("data", body.get("contracts", []))) if isinstance(body, dict) else 0
        total = (body.get("pagination") or {}).get("total", body.get("total", ""))
        print(f"{name:58} {rows:>7} {total!s:>7} {statistics.median(timings):>7.1f} {percentile(timings, 0.95):>7.1f}")


if __name__ == "__main__":
    main()
