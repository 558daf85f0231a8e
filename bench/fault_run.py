"""Fault-injection bench: proposals through the production shape while workers are SIGKILLed,
RabbitMQ and PostgreSQL restart, and each is down for ``--outage`` seconds (bench.fault).

    python -m bench.fault_run --n 1000 --outage 120     (make bench-fault BENCH_ARGS="--n 1000 --outage 120")

Runs on a PostgreSQL server and a RabbitMQ node of its own (never the shared ones), so it needs
the server binaries (initdb/pg_ctl, rabbitmq-server, epmd) but no running service. Prints the
report; exits 1 when a check fails, 2 when the machine cannot run it.
"""

from __future__ import annotations

import argparse
import sys

from bench.fault.plan import standard_plan
from bench.fault.run import Unavailable, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="proposals (default 1000)")
    parser.add_argument("--outage", type=float, default=120.0, help="seconds PostgreSQL, then RabbitMQ, stay down")
    parser.add_argument("--concurrency", type=int, default=16, help="partner threads")
    parser.add_argument(
        "--settle",
        type=float,
        help="seconds for the service to finish once the faults and journeys are over (default: outage + 240, at least 300)",
    )
    parser.add_argument("--log-dir", help="keep the service logs here (default: a temporary folder)")
    args = parser.parse_args(argv)
    options = {"concurrency": args.concurrency}
    if args.settle is not None:
        options["settle"] = args.settle
    plan = standard_plan(args.n, args.outage, **options)
    try:
        result = run(plan, log_dir=args.log_dir)
    except Unavailable as missing:
        print(missing, file=sys.stderr)
        return 2
    return 0 if result.verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
