"""Which benchmark process is which (pid -> kind), for the CPU figures of bench/proc_cpu.py."""

from __future__ import annotations

import os

import psycopg2

from bench.proc_cpu import command_line, parent_of, pids_named
from bench.services import BenchEnvironment, descendants
from rabbitmq.pools import LAYOUTS

RABBITMQ = "RabbitMQ server (shared)"
# Kinds measured on servers other sessions use too: printed with this note, left out of the total.
SHARED = {RABBITMQ: "whole server, other users included"}


def _pool_of(pid: int, prefix: str, cache: dict[int, str], layout) -> str:
    """The pool whose dramatiq command (``--queues``) is this process or its nearest ancestor."""
    chain, current = [], pid
    while current and current not in cache:
        arguments = command_line(current)
        if "--queues" in arguments:
            queues = {name.removeprefix(prefix) for name in arguments[arguments.index("--queues") + 1 :]}
            cache[current] = next(
                (f"pool {pool.name}" for pool in layout if queues & set(pool.queues)), "pool (unknown queues)"
            )
            break
        chain.append(current)
        current = parent_of(current) or 0
    kind = cache.get(current, "pool supervisor")
    for seen in chain:
        cache[seen] = kind
    return kind


class ServiceProcesses:
    """``kinds()`` for the production shape of a BenchEnvironment: API, each pool, this database's
    PostgreSQL backends, the RabbitMQ server and this process (load generator and receivers)."""

    def __init__(self, env: BenchEnvironment, layout: str = "production") -> None:
        self.env = env
        self.layout = LAYOUTS[layout]
        self._pools: dict[int, str] = {}
        self._connection = psycopg2.connect(env.database_url)
        self._connection.autocommit = True

    def kinds(self) -> dict[int, str]:
        found = {os.getpid(): "load generator + receivers"}
        api = self.env.latest.get("api")
        if api is not None:
            for pid in (api.pid, *descendants(api.pid)):
                found[pid] = "API (gunicorn)"
        pools = self.env.latest.get("pools")
        if pools is not None:
            found[pools.pid] = "pool supervisor"
            for pid in descendants(pools.pid):
                found[pid] = _pool_of(pid, self.env.prefix, self._pools, self.layout)
        with self._connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                (self.env.database,),
            )
            for (pid,) in cursor.fetchall():
                found[pid] = "PostgreSQL backends (this database)"
        for pid in pids_named("beam.smp"):
            found[pid] = RABBITMQ
        return found

    def close(self) -> None:
        self._connection.close()
