"""The production worker-pool layout: the one source of truth for `make pools`, the README table
and the test that every actor's queue is served.

    python -m rabbitmq.pools run [POOL ...]   start the pools (all by default) and supervise them
    python -m rabbitmq.pools procfile         the same layout as Procfile lines
    python -m rabbitmq.pools table            the README table (Markdown)

Each takes ``--layout small`` first (``make pools LAYOUT=small``): the small-host layout below,
for a machine of about two cores that runs the API, PostgreSQL and RabbitMQ too.

Scale a pool without editing this file: POOL_<NAME>_PROCESSES / POOL_<NAME>_THREADS
(e.g. POOL_WEBHOOKS_THREADS=32). Queue names get QUEUE_PREFIX, like the actors' queues.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass

from rabbitmq.queues import (
    AUCTION_WEBHOOK,
    BANK_VALIDATION,
    CONTRACT,
    CREDIT_ANALYSIS,
    DISBURSEMENT,
    SCHEDULER,
    SIGNATURE_RESULT,
    SIMULATION,
    STATUS_WEBHOOK,
)


@dataclass(frozen=True)
class Pool:
    name: str
    queues: tuple[str, ...]
    processes: int
    threads: int
    fed_by: str
    scaling: str

    def sized(self) -> tuple[int, int]:
        """Processes and threads, after the POOL_<NAME>_* overrides."""
        key = f"POOL_{self.name.upper()}_"
        return (
            int(os.environ.get(key + "PROCESSES", self.processes)),
            int(os.environ.get(key + "THREADS", self.threads)),
        )

    def command(self, dramatiq: str = "dramatiq") -> list[str]:
        processes, threads = self.sized()
        prefix = os.environ.get("QUEUE_PREFIX", "")
        # --skip-logging: the service's JSON handler is the only one (else every line twice).
        return [
            dramatiq,
            "rabbitmq.worker",
            "--skip-logging",
            "--processes",
            str(processes),
            "--threads",
            str(threads),
            "--queues",
            *(prefix + queue for queue in self.queues),
        ]


POOLS: tuple[Pool, ...] = (
    Pool(
        "analysis",
        (CREDIT_ANALYSIS, SIMULATION),
        2,
        8,
        "POST credit-analysis (hybrid, /async, retry), POST simulate, automatic payroll retries",
        "I/O-bound (payroll system, credit engine): add threads; hybrid requests wait on it, so watch "
        "p95 of the analysis step",
    ),
    Pool(
        "contract",
        (BANK_VALIDATION, CONTRACT, SIGNATURE_RESULT),
        2,
        4,
        "POST banking-data (Pix key and account checks), POST contract (PDF + signing process), signing results",
        "PDF rendering is CPU-bound: add processes (one per core), not threads",
    ),
    Pool(
        "disbursement",
        (DISBURSEMENT,),
        1,
        2,
        "signed or fraud-approved proposals, next-business-day and post-maintenance-window jobs",
        "low volume; kept apart so a webhook storm never delays money out",
    ),
    Pool(
        "webhooks",
        (STATUS_WEBHOOK, AUCTION_WEBHOOK),
        1,
        16,
        "every status change (status webhook), auction proposals (5-minute retries)",
        "waits on partners (30 s / 25 s timeouts): add threads; isolated so slow partners never block the flow",
    ),
    Pool(
        "scheduler",
        (SCHEDULER,),
        1,
        2,
        "deadlines released by the outbox sweeper: signature expiry, retries after the maintenance window, "
        "the lifecycle sweep (every stalled status's exit)",
        "light; one process is enough",
    ),
)


# The same queues on four processes instead of seven, for a host of about two cores that also runs
# the API, PostgreSQL and RabbitMQ (BENCHMARKS.md, "Small hosts"): every extra process there costs
# its own idle polling, sweeper and connections and buys no parallelism. Money out keeps its own
# process (with the light scheduler), apart from the webhooks; analysis and contract one each.
SMALL_HOST_POOLS: tuple[Pool, ...] = (
    Pool(
        "analysis",
        (CREDIT_ANALYSIS, SIMULATION),
        1,
        8,
        POOLS[0].fed_by,
        "I/O-bound: add threads; a second process only with a third core",
    ),
    Pool(
        "contract",
        (BANK_VALIDATION, CONTRACT, SIGNATURE_RESULT),
        1,
        4,
        POOLS[1].fed_by,
        "PDF rendering is CPU-bound: one process per spare core",
    ),
    Pool(
        "money",
        (DISBURSEMENT, SCHEDULER),
        1,
        4,
        f"{POOLS[2].fed_by}; {POOLS[4].fed_by}",
        "low volume; apart from the webhooks so a webhook storm never delays money out",
    ),
    Pool("webhooks", (STATUS_WEBHOOK, AUCTION_WEBHOOK), 1, 16, POOLS[3].fed_by, POOLS[3].scaling),
)
LAYOUTS = {"production": POOLS, "small": SMALL_HOST_POOLS}


def served_queues(pools: tuple[Pool, ...] = POOLS) -> set[str]:
    """Every queue family some pool of the layout consumes."""
    return {queue for pool in pools for queue in pool.queues}


def procfile(dramatiq: str = "dramatiq", pools: tuple[Pool, ...] = POOLS) -> str:
    lines = ["api: gunicorn --config http/gunicorn_conf.py 'app:create_app()'"]
    lines += [f"pool_{pool.name}: {shlex.join(pool.command(dramatiq))}" for pool in pools]
    return "\n".join(lines)


def markdown_table(pools: tuple[Pool, ...] = POOLS) -> str:
    rows = ["| Pool | Queues | Processes x threads | Fed by | How to scale |", "|---|---|---|---|---|"]
    for pool in pools:
        rows.append(
            f"| {pool.name} | {', '.join(pool.queues)} | {pool.processes} x {pool.threads} "
            f"| {pool.fed_by} | {pool.scaling} |"
        )
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    layout = POOLS
    if argv[:1] == ["--layout"]:
        if len(argv) < 2 or argv[1] not in LAYOUTS:
            print(f"--layout takes one of: {', '.join(LAYOUTS)}", file=sys.stderr)
            return 2
        layout, argv = LAYOUTS[argv[1]], argv[2:]
    command, names = (argv[0] if argv else "table"), argv[1:]
    dramatiq = os.path.join(os.path.dirname(sys.executable), "dramatiq")
    if command == "table":
        print(markdown_table(layout))
    elif command == "procfile":
        print(procfile(pools=layout))
    elif command == "run":
        from models.settings import SettingsError, load_settings, require_broker
        from rabbitmq.pool_supervisor import run

        try:
            require_broker(load_settings(), "the worker pools (make pools)")
        except SettingsError as error:
            print(f"cannot start the pools: {error}", file=sys.stderr)
            return 2

        unknown = set(names) - {pool.name for pool in layout}
        if unknown:
            print(f"unknown pool(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        return run([pool for pool in layout if not names or pool.name in names], dramatiq)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
